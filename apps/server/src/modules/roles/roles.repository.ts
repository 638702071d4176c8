import type { RoleInput } from '@depot/contracts';
import { type Selectable, sql } from 'kysely';
import { type Db, now } from '../../db/database.ts';
import type { RolesTable } from '../../db/schema.ts';

/** The Kysely queries of roles: the rules, events and audit are in roles.service.ts. */

export type RoleRow = Selectable<RolesTable>;

/** Live roles (all, or those of `ids`) in id order, with their permissions and live members. */
export async function roleRows(trx: Db, ids: number[] | null) {
  let query = trx.selectFrom('roles').selectAll().where('deleted_at', 'is', null);
  if (ids) query = query.where('id', 'in', ids.length ? ids : [0]);
  const rows: RoleRow[] = await query.orderBy('id').execute();
  const roleIds = rows.map((r) => r.id);
  const perms = roleIds.length
    ? await trx
        .selectFrom('role_permissions')
        .innerJoin('permissions', 'permissions.id', 'role_permissions.permission_id')
        .select(['role_permissions.role_id', 'permissions.name'])
        .where('role_permissions.role_id', 'in', roleIds)
        .orderBy('permissions.name')
        .execute()
    : [];
  const members = roleIds.length
    ? await trx
        .selectFrom('user_roles')
        .innerJoin('users', 'users.id', 'user_roles.user_id')
        .select(['user_roles.role_id', 'user_roles.user_id'])
        .where('user_roles.role_id', 'in', roleIds)
        .where('users.deleted_at', 'is', null)
        .orderBy('user_roles.user_id')
        .execute()
    : [];
  return { rows, perms, members };
}

/** A role's permissions, replaced by those named. */
export async function replacePermissions(trx: Db, roleId: number, names: readonly string[]) {
  await trx.deleteFrom('role_permissions').where('role_id', '=', roleId).execute();
  if (!names.length) return;
  const ids = await trx
    .selectFrom('permissions')
    .select('id')
    .where('name', 'in', [...names])
    .execute();
  await trx
    .insertInto('role_permissions')
    .values(ids.map((p) => ({ role_id: roleId, permission_id: p.id })))
    .execute();
}

/** The id of the role of that name, compared without case, deleted ones included. */
export async function roleNamed(trx: Db, name: string): Promise<number | undefined> {
  const row = await trx
    .selectFrom('roles')
    .select('id')
    .where(sql<string>`lower(name)`, '=', name.toLowerCase())
    .executeTakeFirst();
  return row?.id;
}

/** Every user holding the role, deleted ones included. */
export async function memberIds(trx: Db, roleId: number): Promise<number[]> {
  const rows = await trx.selectFrom('user_roles').select('user_id').where('role_id', '=', roleId).execute();
  return rows.map((r) => r.user_id);
}

/** Moves the role's version (`updated_at`): its members' permissions are read again. */
export async function touchRole(trx: Db, roleId: number) {
  await trx.updateTable('roles').set({ updated_at: now() }).where('id', '=', roleId).execute();
}

/** What a role's form writes besides its permissions. */
const definitionOf = (input: RoleInput) => ({
  name: input.name,
  group_name: input.group,
  label_en: input.label_en,
  label_kh: input.label_kh,
  landing: input.landing,
});

export async function insertRole(trx: Db, input: RoleInput): Promise<number> {
  const at = now();
  const { id } = await trx
    .insertInto('roles')
    .values({ ...definitionOf(input), is_system: 0, created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateRole(trx: Db, id: number, input: RoleInput) {
  await trx
    .updateTable('roles')
    .set({ ...definitionOf(input), updated_at: now() })
    .where('id', '=', id)
    .execute();
}

/** The role deleted and taken from its members. */
export async function deleteRole(trx: Db, id: number, at: string) {
  await trx.updateTable('roles').set({ deleted_at: at, updated_at: at }).where('id', '=', id).execute();
  await trx.deleteFrom('user_roles').where('role_id', '=', id).execute();
}

/** How many of `ids` are live users. */
export async function liveUserCount(trx: Db, ids: readonly number[]): Promise<number> {
  const live = await trx
    .selectFrom('users')
    .select('id')
    .where('id', 'in', [...ids])
    .where('deleted_at', 'is', null)
    .execute();
  return live.length;
}

/** The users of `ids` as the users' policy judges them (live or not). */
export function usersOf(trx: Db, ids: readonly number[]) {
  return trx
    .selectFrom('users')
    .select(['id', 'store_id', 'deleted_at'])
    .where('id', 'in', [0, ...ids])
    .execute();
}

/** The role's members: `added` given it, `removed` no longer. */
export async function changeMembers(trx: Db, roleId: number, added: readonly number[], removed: readonly number[]) {
  if (removed.length) {
    await trx
      .deleteFrom('user_roles')
      .where('role_id', '=', roleId)
      .where('user_id', 'in', [...removed])
      .execute();
  }
  if (added.length) {
    await trx
      .insertInto('user_roles')
      .values(added.map((user_id) => ({ user_id, role_id: roleId })))
      .execute();
  }
}
