import {
  isLanding,
  isPermission,
  LANDINGS,
  type MessageKey,
  type Role,
  type RoleInput,
  role,
  roleInput,
} from '@depot/contracts';
import type { Db } from '../../db/database.ts';
import { emit } from '../../db/transaction.ts';
import { event } from '../../events/events.ts';
import type { Read, ResourceDefinition, WriteChange } from '../../kit/resource.ts';
import type { Actor } from '../../policies/policy.ts';
import { isSystemRole, roleWrites } from '../../policies/roles.ts';
import { assertAdministratorRemains } from '../../policies/users.ts';
import { auditWho, recordAudit } from '../audit/audit.ts';
import {
  definitionOf,
  dropMembers,
  memberIds,
  permissionsAndMembers,
  type RoleRow,
  replacePermissions,
  roleNamed,
  touchRole,
} from './roles.repository.ts';

/**
 * The rules of a role's input that need no permission: permissions that exist, a landing screen
 * the role itself can open, a default role's name kept (the seed and the code know it by it), a
 * name no other role has (deleted ones included).
 */
async function roleProblems(trx: Db, input: RoleInput, id: number | null) {
  const problems: Record<string, MessageKey> = {};
  if (input.permissions.some((n) => !isPermission(n))) problems.permissions = 'validation.permission';
  if (input.landing && !input.permissions.includes(LANDINGS[input.landing].permission))
    problems.landing = 'validation.landing';
  const stored =
    id === null ? undefined : await trx.selectFrom('roles').selectAll().where('id', '=', id).executeTakeFirst();
  if (stored && isSystemRole(stored) && input.name !== stored.name) problems.name = 'roles.system';
  else {
    const taken = await roleNamed(trx, input.name);
    if (taken !== undefined && taken !== id) problems.name = 'validation.unique';
  }
  return Object.keys(problems).length ? problems : null;
}

/** The role's permissions changed: its version moves, and its members are told. */
async function permissionsChanged(trx: Db, roleId: number, userIds: readonly number[]) {
  await touchRole(trx, roleId);
  if (userIds.length) emit(trx, event('PermissionsChanged', { user_ids: [...new Set(userIds)] }));
}

/**
 * A role written again (edited, or reset to its defaults), after its row: its permissions replaced
 * when they changed (its members told, the last administrator kept) and the audit trail's line.
 * `before` is the role as it was.
 */
export async function definitionWritten(
  trx: Db,
  actor: Actor,
  before: Pick<Role, 'id' | 'name' | 'group' | 'label_en' | 'label_kh' | 'landing' | 'permissions'>,
  input: RoleInput,
  action: 'role.updated' | 'role.reset',
) {
  const wanted = [...new Set(input.permissions)].sort();
  const permsChanged = JSON.stringify(wanted) !== JSON.stringify([...before.permissions].sort());
  if (permsChanged) {
    await replacePermissions(trx, before.id, wanted);
    await permissionsChanged(trx, before.id, await memberIds(trx, before.id));
    await assertAdministratorRemains(trx);
  }
  await recordAudit(trx, auditWho(actor), {
    action,
    subject: { type: 'role', id: before.id },
    before: {
      name: before.name,
      group: before.group,
      label_en: before.label_en,
      label_kh: before.label_kh,
      landing: before.landing,
      ...(permsChanged ? { removed: before.permissions.filter((p) => !wanted.includes(p)) } : {}),
    },
    after: {
      name: input.name,
      group: input.group,
      label_en: input.label_en,
      label_kh: input.label_kh,
      landing: input.landing,
      ...(permsChanged ? { added: wanted.filter((p) => !before.permissions.includes(p)) } : {}),
    },
  });
}

/**
 * A role's write besides its row: its permissions, its members told, the last administrator
 * kept, the audit trail's line. A deleted role is taken from its members.
 */
async function roleWritten(trx: Db, actor: Actor, { action, id, before, input }: WriteChange<RoleInput>) {
  const { perms, members } = await permissionsAndMembers(trx, [id]);
  const permissions = perms.map((p) => p.name);
  if (action === 'create' && input) {
    await replacePermissions(trx, id, [...new Set(input.permissions)]);
    await recordAudit(trx, auditWho(actor), { action: 'role.created', subject: { type: 'role', id }, after: input });
  } else if (action === 'update' && input && before) {
    const was = { ...(before as RoleRow), group: before.group_name as string, landing: landingOf(before.landing) };
    await definitionWritten(trx, actor, { ...was, permissions }, input, 'role.updated');
  } else if (action === 'delete') {
    const all = await memberIds(trx, id);
    await dropMembers(trx, id);
    if (all.length) emit(trx, event('PermissionsChanged', { user_ids: all }));
    await assertAdministratorRemains(trx);
    await recordAudit(trx, auditWho(actor), {
      action: 'role.deleted',
      subject: { type: 'role', id },
      before: { name: before?.name, permissions, member_ids: members.map((m) => m.user_id) },
    });
  }
}

const landingOf = (value: unknown) => (typeof value === 'string' && isLanding(value) ? value : null);

/**
 * Roles: the kit creates, edits and deletes them (policies/roles.ts: only within the actor's own
 * permissions; a default role is not deleted); the list, a role, its reset and its members are
 * the roles service's. Whatever changes a role's permissions touches its `updated_at` (the
 * permission cache's version) and tells its members (PermissionsChanged).
 */
export const roles: ResourceDefinition<'roles', typeof roleInput, typeof role, RoleRow> = {
  table: 'roles',
  path: '/api/roles',
  resource: 'roles',
  entity: 'entity.role',
  input: roleInput,
  output: role,
  routes: ['create', 'update', 'delete'],
  summaries: {
    create: 'Create a role: name, group, labels in English and Khmer, permissions',
    update:
      "Update a role and its permissions: takes effect on each member's next request, and their open screens are told (PermissionsChanged)",
    delete: 'Delete a role (not a default one); its members lose it',
  },
  policy: roleWrites,
  query: (db) => db.selectFrom('roles').selectAll('roles'),
  searchable: [],
  sortable: { name: 'roles.name', id: 'roles.id' },
  defaultSort: 'id',
  check: roleProblems,
  prepare: async (_trx, input, existing) => ({ ...definitionOf(input), ...(existing ? {} : { is_system: 0 }) }),
  written: roleWritten,
  complete: async (db, rows) => {
    const { perms, members } = await permissionsAndMembers(
      db,
      rows.map((r) => r.id),
    );
    return rows.map((row): Read<Role> => {
      const memberIds = members.filter((m) => m.role_id === row.id).map((m) => m.user_id);
      return {
        id: row.id,
        name: row.name,
        group: row.group_name,
        label_en: row.label_en,
        label_kh: row.label_kh,
        is_system: isSystemRole(row),
        landing: landingOf(row.landing),
        permissions: perms.filter((p) => p.role_id === row.id).map((p) => p.name),
        users_count: memberIds.length,
        member_ids: memberIds,
        created_at: row.created_at,
        updated_at: row.updated_at,
        deleted_at: row.deleted_at,
      };
    });
  },
};
