import type { RoleInput } from '@depot/contracts';
import { type Selectable, sql } from 'kysely';
import { type Db, now } from '../../db/database.ts';
import type { RolesTable } from '../../db/schema.ts';

/**
 * The Kysely queries of roles: the rules are policies/roles.ts, the events and audit roles.resources.ts
 * (create, edit, delete) and roles.service.ts (reset, members).
 */

export type RoleRow = Selectable<RolesTable>;

/** The permissions (by name) and live members of each of the roles. */
export async function permissionsAndMembers(trx: Db, roleIds: readonly number[]) {
  const ids = [0, ...roleIds];
  const perms = await trx
    .selectFrom('role_permissions')
    .innerJoin('permissions', 'permissions.id', 'role_permissions.permission_id')
    .select(['role_permissions.role_id', 'permissions.name'])
    .where('role_permissions.role_id', 'in', ids)
    .orderBy('permissions.name')
    .execute();
  const members = await trx
    .selectFrom('user_roles')
    .innerJoin('users', 'users.id', 'user_roles.user_id')
    .select(['user_roles.role_id', 'user_roles.user_id'])
    .where('user_roles.role_id', 'in', ids)
    .where('users.deleted_at', 'is', null)
    .orderBy('user_roles.user_id')
    .execute();
  return { perms, members };
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
export const definitionOf = (input: RoleInput) => ({
  name: input.name,
  group_name: input.group,
  label_en: input.label_en,
  label_kh: input.label_kh,
  landing: input.landing,
});

/** A role's columns written again (a reset to its defaults). */
export async function updateRole(trx: Db, id: number, input: RoleInput) {
  await trx
    .updateTable('roles')
    .set({ ...definitionOf(input), updated_at: now() })
    .where('id', '=', id)
    .execute();
}

/** A deleted role taken from its members. */
export async function dropMembers(trx: Db, id: number) {
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
