import {
  commune,
  communeInput,
  district,
  districtInput,
  healthFacility,
  healthFacilityInput,
  type MessageKey,
  operationalDistrict,
  operationalDistrictInput,
  PROVINCE_TYPES,
  province,
  provinceInput,
  village,
  villageInput,
} from '@depot/contracts';
import { type RawBuilder, sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { countLive, findLive, type ResourceDefinition } from '../../kit/resource.ts';
import { healthFacilityScope, operationalDistrictScope } from '../../policies/areas.ts';

type Place = 'provinces' | 'districts' | 'communes' | 'villages' | 'operational_districts' | 'health_facilities';

/** What lists show: the English name where there is one, else the Khmer. */
const displayName = (table: string): RawBuilder<string> =>
  sql<string>`coalesce(nullif(${sql.ref(`${table}.name_en`)}, ''), ${sql.ref(`${table}.name_kh`)})`;

/**
 * "Village, Commune, District, Province" for a query that has joined villages, communes,
 * districts and provinces under those names (see joinLocation).
 */
export const villagePath = () =>
  sql<string>`${displayName('villages')} || ', ' || ${displayName('communes')} || ', ' || ${displayName('districts')} || ', ' || ${displayName('provinces')}`;

/** The same path in Khmer: ភូមិ, ឃុំ, ស្រុក, ខេត្ត. */
export const villagePathKh = () =>
  sql<string>`villages.name_kh || ', ' || communes.name_kh || ', ' || districts.name_kh || ', ' || provinces.name_kh`;

const columns = <T extends Place>(t: T) =>
  [
    `${t}.id`,
    `${t}.code`,
    `${t}.name_en`,
    `${t}.name_kh`,
    `${t}.name_fr`,
    `${t}.created_at`,
    `${t}.updated_at`,
    `${t}.deleted_at`,
  ] as const;

const childCount = (child: Place, column: string, parent: Place) =>
  sql<number>`(select count(*) from ${sql.table(child)} c where c.${sql.ref(column)} = ${sql.ref(`${parent}.id`)} and c.deleted_at is null)`;

/** The parent named by the input must be live. */
const parentExists =
  (parent: Place, field: string) =>
  async (db: Db, input: Record<string, unknown>): Promise<Record<string, MessageKey> | null> =>
    (await findLive(db, parent, Number(input[field]))) ? null : { [field]: 'validation.exists' };

const common = (t: Place) => ({
  searchable: [`${t}.name_en`, `${t}.name_kh`, `${t}.code`],
  sortable: { code: `${t}.code`, name_en: `${t}.name_en`, name_kh: `${t}.name_kh`, created_at: `${t}.created_at` },
  defaultSort: 'code',
  unique: ['code'],
});
const byParent = (column: string) => ({ column, schema: z.coerce.number().int().min(1) });

export const provinces: ResourceDefinition<'provinces', typeof provinceInput, typeof province> = {
  table: 'provinces',
  path: '/api/provinces',
  resource: 'provinces',
  entity: 'entity.province',
  input: provinceInput,
  output: province,
  query: (db) =>
    db
      .selectFrom('provinces')
      .select([
        ...columns('provinces'),
        'provinces.type',
        displayName('provinces').as('name'),
        childCount('districts', 'province_id', 'provinces').as('districts_count'),
      ]),
  ...common('provinces'),
  filters: { type: { column: 'provinces.type', schema: z.enum(PROVINCE_TYPES) } },
  dependents: async (db, id) => [
    { entity: 'entity.districts', count: await countLive(db, 'districts', 'province_id', id) },
    {
      entity: 'entity.operational_districts',
      count: await countLive(db, 'operational_districts', 'province_id', id),
    },
  ],
};

export const districts: ResourceDefinition<'districts', typeof districtInput, typeof district> = {
  table: 'districts',
  path: '/api/districts',
  resource: 'districts',
  entity: 'entity.district',
  input: districtInput,
  output: district,
  query: (db) =>
    db
      .selectFrom('districts')
      .innerJoin('provinces', 'provinces.id', 'districts.province_id')
      .select([
        ...columns('districts'),
        'districts.province_id',
        displayName('districts').as('name'),
        displayName('provinces').as('province_name'),
        'provinces.name_kh as province_name_kh',
        childCount('communes', 'district_id', 'districts').as('communes_count'),
      ]),
  ...common('districts'),
  filters: { province_id: byParent('districts.province_id') },
  check: parentExists('provinces', 'province_id'),
  dependents: async (db, id) => [
    { entity: 'entity.communes', count: await countLive(db, 'communes', 'district_id', id) },
  ],
};

export const communes: ResourceDefinition<'communes', typeof communeInput, typeof commune> = {
  table: 'communes',
  path: '/api/communes',
  resource: 'communes',
  entity: 'entity.commune',
  input: communeInput,
  output: commune,
  query: (db) =>
    db
      .selectFrom('communes')
      .innerJoin('districts', 'districts.id', 'communes.district_id')
      .select([
        ...columns('communes'),
        'communes.district_id',
        displayName('communes').as('name'),
        displayName('districts').as('district_name'),
        'districts.name_kh as district_name_kh',
        childCount('villages', 'commune_id', 'communes').as('villages_count'),
      ]),
  ...common('communes'),
  filters: { district_id: byParent('communes.district_id') },
  check: parentExists('districts', 'district_id'),
  dependents: async (db, id) => [
    { entity: 'entity.villages', count: await countLive(db, 'villages', 'commune_id', id) },
  ],
};

export const villages: ResourceDefinition<'villages', typeof villageInput, typeof village> = {
  table: 'villages',
  path: '/api/villages',
  resource: 'villages',
  entity: 'entity.village',
  input: villageInput,
  output: village,
  query: (db) =>
    db
      .selectFrom('villages')
      .innerJoin('communes', 'communes.id', 'villages.commune_id')
      .innerJoin('districts', 'districts.id', 'communes.district_id')
      .innerJoin('provinces', 'provinces.id', 'districts.province_id')
      .select([
        ...columns('villages'),
        'villages.commune_id',
        displayName('villages').as('name'),
        displayName('communes').as('commune_name'),
        'communes.name_kh as commune_name_kh',
        villagePath().as('path'),
        villagePathKh().as('path_kh'),
      ]),
  ...common('villages'),
  filters: { commune_id: byParent('villages.commune_id') },
  check: parentExists('communes', 'commune_id'),
};

export const operationalDistricts: ResourceDefinition<
  'operational_districts',
  typeof operationalDistrictInput,
  typeof operationalDistrict
> = {
  table: 'operational_districts',
  path: '/api/operational-districts',
  resource: 'operational_districts',
  entity: 'entity.operational_district',
  input: operationalDistrictInput,
  output: operationalDistrict,
  query: (db) =>
    db
      .selectFrom('operational_districts')
      .innerJoin('provinces', 'provinces.id', 'operational_districts.province_id')
      .select([
        ...columns('operational_districts'),
        'operational_districts.province_id',
        displayName('operational_districts').as('name'),
        displayName('provinces').as('province_name'),
        'provinces.name_kh as province_name_kh',
      ]),
  ...common('operational_districts'),
  filters: { province_id: byParent('operational_districts.province_id') },
  policy: { scope: operationalDistrictScope },
  check: parentExists('provinces', 'province_id'),
  dependents: async (db, id) => [
    {
      entity: 'entity.health_facilities',
      count: await countLive(db, 'health_facilities', 'operational_district_id', id),
    },
  ],
};

export const healthFacilities: ResourceDefinition<
  'health_facilities',
  typeof healthFacilityInput,
  typeof healthFacility
> = {
  table: 'health_facilities',
  path: '/api/health-facilities',
  resource: 'health_facilities',
  entity: 'entity.health_facility',
  input: healthFacilityInput,
  output: healthFacility,
  query: (db) =>
    db
      .selectFrom('health_facilities')
      .innerJoin('operational_districts', 'operational_districts.id', 'health_facilities.operational_district_id')
      .select([
        ...columns('health_facilities'),
        'health_facilities.operational_district_id',
        displayName('health_facilities').as('name'),
        displayName('operational_districts').as('operational_district_name'),
        'operational_districts.name_kh as operational_district_name_kh',
      ]),
  ...common('health_facilities'),
  filters: { operational_district_id: byParent('health_facilities.operational_district_id') },
  policy: { scope: healthFacilityScope },
  check: parentExists('operational_districts', 'operational_district_id'),
};

export const geographyResources = [provinces, districts, communes, villages, operationalDistricts, healthFacilities];
