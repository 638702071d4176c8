import { DEFAULT_ROLES, type Role } from '@depot/contracts';
import type { Db } from '../../db/database.ts';
import { emit, transaction } from '../../db/transaction.ts';
import { event } from '../../events/events.ts';
import { AppError, FieldError, notFound } from '../../http/errors.ts';
import { resourceService } from '../../kit/resource.ts';
import type { Actor } from '../../policies/policy.ts';
import { presentRole, rolePolicy } from '../../policies/roles.ts';
import { assertAdministratorRemains, seesUser, userPolicy, userSubjects } from '../../policies/users.ts';
import { auditWho, recordAudit } from '../audit/audit.ts';
import { changeMembers, liveUserCount, memberIds, touchRole, updateRole, usersOf } from './roles.repository.ts';
import { definitionWritten, roles } from './roles.resources.ts';

/**
 * Roles: the list, a role, a default role's reset and a role's members (the kit creates, edits and
 * deletes them: roles.resources.ts). Whatever changes a role's permissions or members touches its
 * `updated_at` (it versions the permission cache), so every member's next request has the new set;
 * the members hear `PermissionsChanged` on their own channel and their open screens read their
 * permissions again.
 */
export function rolesService(db: Db) {
  const kit = resourceService(db, roles);

  /** Live roles (all, or those of `ids`) in id order. */
  async function read(trx: Db, ids: number[] | null): Promise<Role[]> {
    let query = roles.query(trx).where('roles.deleted_at', 'is', null);
    if (ids) query = query.where('roles.id', 'in', [0, ...ids]);
    return (await kit.complete(trx, await query.orderBy('roles.id').execute())) as Role[];
  }

  async function one(trx: Db, id: number): Promise<Role> {
    const [role] = await read(trx, [id]);
    if (!role) throw notFound();
    return role;
  }

  return {
    /** Every role, with what the reader may do to it (policies/roles.ts). */
    list: async (actor: Actor) => (await read(db, null)).map((r) => presentRole(actor, r)),
    show: async (actor: Actor, id: number) => presentRole(actor, await one(db, id)),

    /** A default role back to its seeded labels and permissions. */
    reset(actor: Actor, id: number): Promise<Role> {
      return transaction(
        db,
        async (trx) => {
          const role = await one(trx, id);
          const defaults = DEFAULT_ROLES.find((r) => r.name === role.name);
          if (!role.is_system || !defaults) throw new AppError(422, 'roles.not_system');
          rolePolicy.authorize(actor, role, 'reset');
          const input = {
            name: defaults.name,
            group: defaults.group,
            label_en: defaults.label_en,
            label_kh: defaults.label_kh,
            permissions: [...defaults.permissions],
            landing: null,
          };
          await updateRole(trx, id, input);
          await definitionWritten(trx, actor, role, input, 'role.reset');
          return presentRole(actor, await one(trx, id));
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
