import type { StoreCoverage } from '@depot/contracts';
import type { Db } from '../db/database.ts';
import { prepared } from '../db/prepared.ts';

/**
 * Where a user sees and acts: every store (they hold `all_stores.view`), or the stores they cover
 * (`user_stores`, their home store `users.store_id` always among them). Resolved here and nowhere
 * else, once per request with authentication, and carried on `request.auth.coverage`; the policies
 * (policies/*.ts) read it to narrow lists in their queries and to refuse records and inputs outside
 * it. Issue 10 extends coverage with operational districts and health facilities: they are added
 * to `Coverage` and resolved here, and the policies that need them read them from it.
 *
 * Whatever changes a user's `user_stores` rows or home store must touch the user's `updated_at`:
 * it versions the remembered coverage, as a role's `updated_at` versions its permissions.
 */
export interface Coverage {
  /** Every store, present and future. */
  readonly all: boolean;
  /** The stores covered when not `all`, in id order. */
  readonly storeIds: readonly number[];
  /**
   * The areas covered (the gazetteer's operational districts and health facilities a user serves,
   * `user_operational_districts`, `user_health_facilities`). Both empty, or `all`: no limit by area.
   * A district covers its facilities; the area lists are narrowed to them (policies/areas.ts).
   */
  readonly operationalDistrictIds?: readonly number[];
  readonly healthFacilityIds?: readonly number[];
}

export const EVERY_STORE: Coverage = Object.freeze({ all: true, storeIds: Object.freeze([]) as readonly number[] });

/** Whether the coverage limits the areas (see Coverage.operationalDistrictIds). */
export function limitsAreas(coverage: Coverage): boolean {
  return !coverage.all && Boolean(coverage.operationalDistrictIds?.length || coverage.healthFacilityIds?.length);
}

/** What the web is told of a coverage (login and `/api/me`): the stores it offers where a store is written to. */
export function storeCoverageOf(coverage: Coverage): StoreCoverage {
  return { all: coverage.all, store_ids: [...coverage.storeIds] };
}

/** Does the coverage include this store? */
export function coversStore(coverage: Coverage, storeId: number): boolean {
  return coverage.all || coverage.storeIds.includes(storeId);
}

export interface CoveredUser {
  userId: number;
  /** The user's `updated_at`: what the remembered coverage is valid for. */
  version: string;
  homeStoreId: number | null;
  permissions: ReadonlySet<string>;
}

// Read on a cache miss only: the user's version is part of the identity every request reads already.
const storesOf = prepared((db: Db, p: { userId: number }) =>
  db.selectFrom('user_stores').select('store_id').where('user_id', '=', p.userId),
);
const districtsOf = prepared((db: Db, p: { userId: number }) =>
  db.selectFrom('user_operational_districts').select('operational_district_id').where('user_id', '=', p.userId),
);
const facilitiesOf = prepared((db: Db, p: { userId: number }) =>
  db.selectFrom('user_health_facilities').select('health_facility_id').where('user_id', '=', p.userId),
);

const MAX_REMEMBERED = 10_000;

/**
 * Resolves users' coverage, remembering each one until the user's version changes. Answers at once
 * (no promise) when it needs no query: every request authenticates, and an await costs there.
 */
export function coverageResolver(db: Db) {
  const remembered = new Map<number, { version: string; coverage: Coverage }>();

  async function read(user: CoveredUser): Promise<Coverage> {
    const ids = new Set((await storesOf(db, { userId: user.userId })).map((row) => row.store_id));
    if (user.homeStoreId !== null) ids.add(user.homeStoreId);
    const sorted = (list: number[]) => list.sort((a, b) => a - b);
    const coverage: Coverage = {
      all: false,
      storeIds: sorted([...ids]),
      operationalDistrictIds: sorted(
        (await districtsOf(db, { userId: user.userId })).map((r) => r.operational_district_id),
      ),
      healthFacilityIds: sorted((await facilitiesOf(db, { userId: user.userId })).map((r) => r.health_facility_id)),
    };
    if (remembered.size >= MAX_REMEMBERED) remembered.clear();
    remembered.set(user.userId, { version: user.version, coverage });
    return coverage;
  }

  return function coverageOf(user: CoveredUser): Coverage | Promise<Coverage> {
    if (user.permissions.has('all_stores.view')) return EVERY_STORE;
    const known = remembered.get(user.userId);
    return known?.version === user.version ? known.coverage : read(user);
  };
}

/**
 * Who is to hear of something in a store: the active users holding `permission` through one of
 * their roles whose coverage includes the store (every store with `all_stores.view`, else their
 * `user_stores` and home store), as `coverageOf` resolves it for a request. In id order.
 */
export async function usersCovering(db: Db, storeId: number, permission: string): Promise<number[]> {
  const holding = (name: string) =>
    db
      .selectFrom('user_roles')
      .innerJoin('roles', 'roles.id', 'user_roles.role_id')
      .innerJoin('role_permissions', 'role_permissions.role_id', 'roles.id')
      .innerJoin('permissions', 'permissions.id', 'role_permissions.permission_id')
      .select('user_roles.user_id')
      .where('roles.deleted_at', 'is', null)
      .where('permissions.name', '=', name);
  const rows = await db
    .selectFrom('users')
    .select('users.id')
    .where('users.deleted_at', 'is', null)
    .where('users.status', '=', 'active')
    .where('users.id', 'in', holding(permission))
    .where((eb) =>
      eb.or([
        eb('users.store_id', '=', storeId),
        eb('users.id', 'in', eb.selectFrom('user_stores').select('user_id').where('store_id', '=', storeId)),
        eb('users.id', 'in', holding('all_stores.view')),
      ]),
    )
    .orderBy('users.id')
    .execute();
  return rows.map((r) => r.id);
}
