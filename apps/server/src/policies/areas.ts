import { sql } from 'kysely';
import { limitsAreas } from './coverage.ts';
import type { Actor, AnyQuery } from './policy.ts';

/**
 * The areas a user covers (coverage.ts): a user given operational districts or health facilities
 * sees only those in the gazetteer's area lists — their districts, the districts of their
 * facilities, and the facilities of either. A user given none is not limited by area.
 */
export function operationalDistrictScope<Q extends AnyQuery>(query: Q, actor: Actor): Q {
  if (!limitsAreas(actor.coverage)) return query;
  const districts = sql.join([0, ...(actor.coverage.operationalDistrictIds ?? [])]);
  const facilities = sql.join([0, ...(actor.coverage.healthFacilityIds ?? [])]);
  return query.where(
    sql<boolean>`(operational_districts.id in (${districts}) or operational_districts.id in (select hf.operational_district_id from health_facilities hf where hf.id in (${facilities})))`,
  ) as Q;
}

export function healthFacilityScope<Q extends AnyQuery>(query: Q, actor: Actor): Q {
  if (!limitsAreas(actor.coverage)) return query;
  const districts = sql.join([0, ...(actor.coverage.operationalDistrictIds ?? [])]);
  const facilities = sql.join([0, ...(actor.coverage.healthFacilityIds ?? [])]);
  return query.where(
    sql<boolean>`(health_facilities.id in (${facilities}) or health_facilities.operational_district_id in (${districts}))`,
  ) as Q;
}
