import type { UserCoverage } from '@depot/contracts';
import { type Db, now } from '../../db/database.ts';

/**
 * The Kysely queries of users' writes and coverage: the rules are policies/users.ts, the events and
 * audit users.resources.ts (create, edit, delete) and users.service.ts (status, password, coverage).
 */

/** Ends every sign-in of a user at once: their tokens stop working on the next request. */
export async function endSessions(trx: Db, userId: number, at: string): Promise<void> {
  await trx
    .updateTable('auth_sessions')
    .set({ revoked_at: at })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Which of `ids` are live stores or roles. */
export async function liveIds(trx: Db, table: 'stores' | 'roles', ids: readonly number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows = await trx
    .selectFrom(table)
    .select('id')
    .where('id', 'in', ids)
    .where('deleted_at', 'is', null)
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** Which of `ids` are operational districts or health facilities (they are never deleted). */
export async function existingIds(
  trx: Db,
  table: 'operational_districts' | 'health_facilities',
  ids: readonly number[],
): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows = await (trx as Db)
    .selectFrom(table as 'health_facilities')
    .select('id')
    .where('id', 'in', ids)
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** The user's stores, replaced. */
export async function replaceStores(trx: Db, userId: number, stores: readonly number[]) {
  await trx.deleteFrom('user_stores').where('user_id', '=', userId).execute();
  if (stores.length)
    await trx
      .insertInto('user_stores')
      .values(stores.map((store_id) => ({ user_id: userId, store_id })))
      .execute();
}

/** The user's roles, replaced. */
export async function replaceRoles(trx: Db, userId: number, roles: readonly number[]) {
  await trx.deleteFrom('user_roles').where('user_id', '=', userId).execute();
  if (roles.length)
    await trx
      .insertInto('user_roles')
      .values([...new Set(roles)].map((role_id) => ({ user_id: userId, role_id })))
      .execute();
}

/** The ids of the user's roles, in order. */
export async function heldRoles(trx: Db, userId: number) {
  const rows = await trx.selectFrom('user_roles').select('role_id').where('user_id', '=', userId).execute();
  return rows.map((r) => r.role_id).sort((a, b) => a - b);
}

/** The ids of the user's stores, in order. */
export async function heldStores(trx: Db, userId: number) {
  const rows = await trx.selectFrom('user_stores').select('store_id').where('user_id', '=', userId).execute();
  return rows.map((r) => r.store_id).sort((a, b) => a - b);
}

/** The user's stored row, deleted or not. */
export function userRow(trx: Db, id: number) {
  return trx.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The permissions of each of the roles, by role. */
export function rolePermissions(trx: Db, roleIds: readonly number[]) {
  return trx
    .selectFrom('role_permissions')
    .innerJoin('permissions', 'permissions.id', 'role_permissions.permission_id')
    .select(['role_permissions.role_id', 'permissions.name'])
    .where('role_permissions.role_id', 'in', [...roleIds])
    .execute();
}

/** Writes some of the user's columns; `updated_at` is the user's version (their cached coverage). */
export async function updateUser(trx: Db, id: number, values: Record<string, unknown>, at = now()) {
  await trx
    .updateTable('users')
    .set({ ...values, updated_at: at } as never)
    .where('id', '=', id)
    .execute();
}

/** The user's operational districts and health facilities, replaced. */
export async function replaceAreas(trx: Db, id: number, districts: readonly number[], facilities: readonly number[]) {
  await trx.deleteFrom('user_operational_districts').where('user_id', '=', id).execute();
  if (districts.length)
    await trx
      .insertInto('user_operational_districts')
      .values(districts.map((operational_district_id) => ({ user_id: id, operational_district_id })))
      .execute();
  await trx.deleteFrom('user_health_facilities').where('user_id', '=', id).execute();
  if (facilities.length)
    await trx
      .insertInto('user_health_facilities')
      .values(facilities.map((health_facility_id) => ({ user_id: id, health_facility_id })))
      .execute();
}

export async function readCoverage(db: Db, id: number, storeId: number | null): Promise<UserCoverage> {
  const [stores, districts, facilities] = await Promise.all([
    db.selectFrom('user_stores').select('store_id').where('user_id', '=', id).orderBy('store_id').execute(),
    db
      .selectFrom('user_operational_districts')
      .select('operational_district_id')
      .where('user_id', '=', id)
      .orderBy('operational_district_id')
      .execute(),
    db
      .selectFrom('user_health_facilities')
      .select('health_facility_id')
      .where('user_id', '=', id)
      .orderBy('health_facility_id')
      .execute(),
  ]);
  return {
    store_id: storeId,
    store_ids: stores.map((r) => r.store_id),
    operational_district_ids: districts.map((r) => r.operational_district_id),
    health_facility_ids: facilities.map((r) => r.health_facility_id),
  };
}

/** Every live province, operational district and health facility, in code order: what a user can cover. */
export async function coverageAreaRows(db: Db) {
  return {
    provinces: await db
      .selectFrom('provinces')
      .select(['id', 'code', 'name_en', 'name_kh'])
      .where('deleted_at', 'is', null)
      .orderBy('code')
      .execute(),
    districts: await db
      .selectFrom('operational_districts')
      .select(['id', 'code', 'name_en', 'name_kh', 'province_id'])
      .where('deleted_at', 'is', null)
      .orderBy('code')
      .execute(),
    facilities: await db
      .selectFrom('health_facilities')
      .select(['id', 'code', 'name_en', 'name_kh', 'operational_district_id'])
      .where('deleted_at', 'is', null)
      .orderBy('code')
      .execute(),
  };
}
