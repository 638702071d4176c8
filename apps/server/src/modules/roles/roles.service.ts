import { DEFAULT_ROLES, isLanding, isPermission, LANDINGS, type Role, type RoleInput } from '@depot/contracts';
import { type Db, now } from '../../db/database.ts';
import { emit, transaction } from '../../db/transaction.ts';
import { event } from '../../events/events.ts';
import { AppError, FieldError, notFound } from '../../http/errors.ts';
import type { Actor } from '../../policies/policy.ts';
import { assertPermissionsHeld, presentRole, rolePolicy } from '../../policies/roles.ts';
import { assertAdministratorRemains, seesUser, userPolicy, userSubjects } from '../../policies/users.ts';
import { auditWho, recordAudit } from '../audit/audit.ts';
import {
  changeMembers,
  deleteRole,
  insertRole,
  liveUserCount,
  memberIds,
  replacePermissions,
  roleNamed,
  roleRows,
  touchRole,
  updateRole,
  usersOf,
} from './roles.repository.ts';

/**
 * Roles: their labels, their permissions (the matrix) and their members. Whatever changes a role's
 * permissions touches its `updated_at` (it versions the permission cache), so every member's next
 * request has the new set; the members hear `PermissionsChanged` on their own channel and their
 * open screens read their permissions again.
 */
export function rolesService(db: Db) {
  async function read(trx: Db, ids: number[] | null): Promise<Role[]> {
    const { rows, perms, members } = await roleRows(trx, ids);
    return rows.map((row) => {
      const memberIds = members.filter((m) => m.role_id === row.id).map((m) => m.user_id);
      return {
        id: row.id,
        name: row.name,
        group: row.group_name,
        label_en: row.label_en,
        label_kh: row.label_kh,
        // the seeded roles (the seed marks only the administrator's row, but each is a default)
        is_system: row.is_system === 1 || DEFAULT_ROLES.some((r) => r.name === row.name),
        landing: isLanding(row.landing) ? row.landing : null,
        permissions: perms.filter((p) => p.role_id === row.id).map((p) => p.name),
        users_count: memberIds.length,
        member_ids: memberIds,
        created_at: row.created_at,
        updated_at: row.updated_at,
        deleted_at: row.deleted_at,
      };
    });
  }

  async function one(trx: Db, id: number): Promise<Role> {
    const [role] = await read(trx, [id]);
    if (!role) throw notFound();
    return role;
  }

  function checkPermissions(names: readonly string[]) {
    if (names.some((n) => !isPermission(n))) throw new FieldError({ permissions: [{ key: 'validation.permission' }] });
  }

  /** Only a screen the role itself can open (its own permissions, as saved with it). */
  function checkLanding(input: RoleInput) {
    if (input.landing && !input.permissions.includes(LANDINGS[input.landing].permission))
      throw new FieldError({ landing: [{ key: 'validation.landing' }] });
  }

  async function nameTaken(trx: Db, name: string, id: number | null) {
    const taken = await roleNamed(trx, name);
    if (taken !== undefined && taken !== id) throw new FieldError({ name: [{ key: 'validation.unique' }] });
  }

  /** The role's permissions changed: its version moves, and its members are told. */
  async function permissionsChanged(trx: Db, roleId: number, userIds: readonly number[]) {
    await touchRole(trx, roleId);
    if (userIds.length) emit(trx, event('PermissionsChanged', { user_ids: [...new Set(userIds)] }));
  }

  async function writeDefinition(
    trx: Db,
    actor: Actor,
    role: Role,
    input: RoleInput,
    action: 'role.updated' | 'role.reset',
  ) {
    await updateRole(trx, role.id, input);
    const wanted = [...new Set(input.permissions)].sort();
    const permsChanged = JSON.stringify(wanted) !== JSON.stringify([...role.permissions].sort());
    if (permsChanged) {
      await replacePermissions(trx, role.id, wanted);
      await permissionsChanged(trx, role.id, await memberIds(trx, role.id));
      await assertAdministratorRemains(trx);
    }
    await recordAudit(trx, auditWho(actor), {
      action,
      subject: { type: 'role', id: role.id },
      before: {
        name: role.name,
        group: role.group,
        label_en: role.label_en,
        label_kh: role.label_kh,
        landing: role.landing,
        ...(permsChanged ? { removed: role.permissions.filter((p) => !wanted.includes(p)) } : {}),
      },
      after: {
        name: input.name,
        group: input.group,
        label_en: input.label_en,
        label_kh: input.label_kh,
        landing: input.landing,
        ...(permsChanged ? { added: wanted.filter((p) => !role.permissions.includes(p)) } : {}),
      },
    });
  }

  return {
    /** Every role, with what the reader may do to it (policies/roles.ts). */
    list: async (actor: Actor) => (await read(db, null)).map((r) => presentRole(actor, r)),
    show: async (actor: Actor, id: number) => presentRole(actor, await one(db, id)),

    create(actor: Actor, input: RoleInput): Promise<Role> {
      checkPermissions(input.permissions);
      checkLanding(input);
      assertPermissionsHeld(actor, input.permissions);
      return transaction(
        db,
        async (trx) => {
          await nameTaken(trx, input.name, null);
          const id = await insertRole(trx, input);
          await replacePermissions(trx, id, [...new Set(input.permissions)]);
          await recordAudit(trx, auditWho(actor), {
            action: 'role.created',
            subject: { type: 'role', id },
            after: input,
          });
          return presentRole(actor, await one(trx, id));
        },
        actor,
      );
    },

    update(actor: Actor, id: number, input: RoleInput): Promise<Role> {
      checkPermissions(input.permissions);
      checkLanding(input);
      return transaction(
        db,
        async (trx) => {
          const role = await one(trx, id);
          rolePolicy.authorize(actor, role, 'update');
          assertPermissionsHeld(actor, input.permissions);
          // a default role keeps its name: the seed and the code know it by it
          if (role.is_system && input.name !== role.name) throw new FieldError({ name: [{ key: 'roles.system' }] });
          await nameTaken(trx, input.name, id);
          await writeDefinition(trx, actor, role, input, 'role.updated');
          return presentRole(actor, await one(trx, id));
        },
        actor,
      );
    },

    /** A default role back to its seeded labels and permissions. */
    reset(actor: Actor, id: number): Promise<Role> {
      return transaction(
        db,
        async (trx) => {
          const role = await one(trx, id);
          const defaults = DEFAULT_ROLES.find((r) => r.name === role.name);
          if (!role.is_system || !defaults) throw new AppError(422, 'roles.not_system');
          rolePolicy.authorize(actor, role, 'reset');
          await writeDefinition(
            trx,
            actor,
            role,
            {
              name: defaults.name,
              group: defaults.group,
              label_en: defaults.label_en,
              label_kh: defaults.label_kh,
              permissions: [...defaults.permissions],
              landing: null,
            },
            'role.reset',
          );
          return presentRole(actor, await one(trx, id));
        },
        actor,
      );
    },

    remove(actor: Actor, id: number): Promise<Role> {
      return transaction(
        db,
        async (trx) => {
          const role = await one(trx, id);
          rolePolicy.authorize(actor, role, 'delete');
          if (role.is_system) throw new AppError(422, 'roles.system');
          const members = await memberIds(trx, id);
          const at = now();
          await deleteRole(trx, id, at);
          if (members.length) emit(trx, event('PermissionsChanged', { user_ids: members }));
          await assertAdministratorRemains(trx);
          await recordAudit(trx, auditWho(actor), {
            action: 'role.deleted',
            subject: { type: 'role', id },
            before: { name: role.name, permissions: role.permissions, member_ids: role.member_ids },
          });
          return presentRole(actor, { ...role, deleted_at: at });
        },
        actor,
      );
    },

    /** The role's members, replaced: who is added or removed hears PermissionsChanged. */
    setMembers(actor: Actor, id: number, userIds: readonly number[]): Promise<Role> {
      return transaction(
        db,
        async (trx) => {
          const role = await one(trx, id);
          const wanted = [...new Set(userIds)];
          if (wanted.length) {
            if ((await liveUserCount(trx, wanted)) !== wanted.length)
              throw new FieldError({ user_ids: [{ key: 'validation.exists' }] });
          }
          const before = await memberIds(trx, id);
          const added = wanted.filter((u) => !before.includes(u));
          const removed = before.filter((u) => !wanted.includes(u));
          if (added.length || removed.length) rolePolicy.authorize(actor, role, 'assign');
          // each user given or losing it: one the actor may change the roles of (policies/users.ts)
          const changed = await usersOf(trx, [...added, ...removed]);
          const subjects = await userSubjects(trx, changed);
          for (const subject of subjects.values()) {
            if (subject.deleted_at !== null) continue; // a deleted user's rows go with the change
            if (!seesUser(actor, subject)) throw new FieldError({ user_ids: [{ key: 'validation.exists' }] });
            userPolicy.authorize(actor, subject, 'roles');
          }
          await changeMembers(trx, id, added, removed);
          if (added.length || removed.length) {
            // the members' identities change: the cache of merged sets is keyed by role versions
            await touchRole(trx, id);
            emit(trx, event('PermissionsChanged', { user_ids: [...added, ...removed] }));
            await assertAdministratorRemains(trx);
            await recordAudit(trx, auditWho(actor), {
              action: 'role.members',
              subject: { type: 'role', id },
              before: { member_ids: before },
              after: { member_ids: wanted, added, removed },
            });
          }
          return presentRole(actor, { ...(await one(trx, id)), name: role.name });
        },
        actor,
      );
    },
  };
}

export type RolesService = ReturnType<typeof rolesService>;
