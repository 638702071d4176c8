import type { User, UserCoverage, UserInput } from '@depot/contracts';
import { type Db, now } from '../../db/database.ts';
import { emit, transaction } from '../../db/transaction.ts';
import { type EventPayloads, event } from '../../events/events.ts';
import { AppError, FieldError, notFound } from '../../http/errors.ts';
import { resourceService } from '../../kit/resource.ts';
import { indexRecords } from '../../kit/search.ts';
import { tableChanged } from '../../kit/totals.ts';
import type { Actor } from '../../policies/policy.ts';
import {
  assertAdministratorRemains,
  assertAreasCovered,
  assertNotSelf,
  assertRolesHeld,
  assertStoresCovered,
  seesUser,
  type UserSubject,
  userPolicy,
  userSubject,
} from '../../policies/users.ts';
import { auditWho, changes, recordAudit } from '../audit/audit.ts';
import { assertStrongPassword, hashPassword } from '../auth/passwords.ts';
import {
  endSessions,
  existingIds,
  heldRoles,
  heldStores,
  insertUser,
  liveIds,
  readCoverage,
  replaceAreas,
  replaceRoles,
  replaceStores,
  rolePermissions,
  updateUser,
  userRow,
} from './users.repository.ts';
import { users } from './users.resources.ts';

const PROFILE_FIELDS = [
  'name',
  'full_name',
  'email',
  'phone',
  'status',
  'date_of_birth',
  'join_date',
  'position',
  'store_id',
] as const;

/** Users' writes: profile fields, password, stores and roles; the last administrator is kept. */
export function usersService(db: Db) {
  const kit = resourceService(db, users);

  async function present(trx: Db, actor: Actor, id: number): Promise<User> {
    const row = await users.query(trx).where('users.id', '=', id).executeTakeFirst();
    if (!row) throw notFound();
    const [record] = await kit.complete(trx, [row], {}, actor);
    return record as User;
  }

  async function checkInput(trx: Db, actor: Actor, input: UserInput, id: number | null) {
    const problems = (await kit.problems(trx, [{ input, id }]))[0] ?? {};
    const stores = [...new Set([...input.store_ids, ...(input.store_id ? [input.store_id] : [])])];
    const live = await liveIds(trx, 'stores', stores);
    if (input.store_id && !live.has(input.store_id)) problems.store_id = 'validation.exists';
    if (input.store_ids.some((s) => !live.has(s))) problems.store_ids = 'validation.exists';
    const roles = await liveIds(trx, 'roles', input.role_ids);
    if (input.role_ids.some((r) => !roles.has(r))) problems.role_ids = 'validation.exists';
    if (id === null && input.password === null) problems.password = 'validation.required';
    const fields = Object.entries(problems);
    if (fields.length) throw new FieldError(Object.fromEntries(fields.map(([f, key]) => [f, [{ key }]])));
    assertStoresCovered(actor, 'store_ids', stores);
    return stores;
  }

  async function lockedUser(trx: Db, id: number) {
    const row = await userRow(trx, id);
    if (!row || row.deleted_at !== null) throw notFound();
    return row;
  }

  /** The user as the policy judges them, refused unless the actor may take `action` on them. */
  async function authorized(
    trx: Db,
    actor: Actor,
    id: number,
    action: 'update' | 'delete' | 'disable' | 'reset_password' | 'assign' | 'roles',
  ): Promise<UserSubject> {
    const subject = await userSubject(trx, id);
    if (!subject || subject.deleted_at !== null) throw notFound();
    userPolicy.authorize(actor, subject, action);
    return subject;
  }

  /** Roles given or taken: the actor may change roles (roles.assign) and holds all their permissions. */
  async function assertRolesGiven(trx: Db, actor: Actor, roleIds: readonly number[]) {
    if (!roleIds.length) return;
    if (!actor.permissions.has('roles.assign')) throw new AppError(403, 'auth.forbidden');
    const rows = await rolePermissions(trx, roleIds);
    assertRolesHeld(
      actor,
      roleIds.map((id) => ({ permissions: rows.filter((r) => r.role_id === id).map((r) => r.name) })),
    );
  }

  const write = <T>(actor: Actor, work: (trx: Db) => Promise<T>) =>
    transaction(db, work, actor).finally(() => tableChanged(db, 'users'));

  return {
    create(actor: Actor, input: UserInput): Promise<User> {
      if (input.role_ids.length && !actor.permissions.has('roles.assign')) throw new AppError(403, 'auth.forbidden');
      return write(actor, async (trx) => {
        const stores = await checkInput(trx, actor, input, null);
        await assertRolesGiven(trx, actor, input.role_ids);
        assertStrongPassword(input.password as string, [input.name, input.full_name, input.email]);
        const id = await insertUser(trx, {
          ...Object.fromEntries(PROFILE_FIELDS.map((f) => [f, input[f]])),
          name: input.name,
          status: input.status,
          password_hash: await hashPassword(input.password as string),
        });
        await replaceStores(trx, id, stores);
        await replaceRoles(trx, id, input.role_ids);
        await indexRecords(trx, users, [id]);
        const record = await present(trx, actor, id);
        await recordAudit(trx, auditWho(actor), {
          action: 'user.created',
          subject: { type: 'user', id },
          after: {
            ...Object.fromEntries(PROFILE_FIELDS.map((f) => [f, input[f]])),
            store_ids: stores,
            role_ids: input.role_ids,
          },
        });
        return record;
      });
    },

    update(actor: Actor, id: number, input: UserInput): Promise<User> {
      return write(actor, async (trx) => {
        const before = await lockedUser(trx, id);
        await authorized(trx, actor, id, 'update');
        const stores = await checkInput(trx, actor, input, id);
        const beforeRoles = await heldRoles(trx, id);
        const beforeStores = await heldStores(trx, id);
        const roles = [...new Set(input.role_ids)].sort((a, b) => a - b);
        const rolesChanged = JSON.stringify(roles) !== JSON.stringify(beforeRoles);
        if (rolesChanged) {
          await authorized(trx, actor, id, 'roles');
          const given = roles.filter((r) => !beforeRoles.includes(r));
          const taken = beforeRoles.filter((r) => !roles.includes(r));
          await assertRolesGiven(trx, actor, [...given, ...taken]);
        }
        if (input.status === 'inactive' && before.status === 'active') {
          assertNotSelf(actor, id);
          await authorized(trx, actor, id, 'disable');
        }
        if (input.password !== null) {
          assertStrongPassword(input.password, [input.name, input.full_name, input.email, before.name]);
        }
        const at = now();
        const values: Record<string, unknown> = Object.fromEntries(PROFILE_FIELDS.map((f) => [f, input[f]]));
        if (input.password !== null) values.password_hash = await hashPassword(input.password);
        await updateUser(trx, id, values, at);
        await replaceStores(trx, id, stores);
        if (rolesChanged) await replaceRoles(trx, id, roles);
        if (input.status === 'inactive' || input.password !== null) await endSessions(trx, id, at);
        await assertAdministratorRemains(trx);
        await indexRecords(trx, users, [id]);
        const diff = changes({ ...before, store_ids: beforeStores, role_ids: beforeRoles } as Record<string, unknown>, {
          ...Object.fromEntries(PROFILE_FIELDS.map((f) => [f, input[f]])),
          store_ids: [...stores].sort((a, b) => a - b),
          role_ids: roles,
        });
        if (diff.changed || input.password !== null) {
          await recordAudit(trx, auditWho(actor), {
            action: 'user.updated',
            subject: { type: 'user', id },
            before: diff.before,
            after: input.password !== null ? { ...diff.after, password: '(changed)' } : diff.after,
          });
        }
        if (rolesChanged || 'store_ids' in diff.after || 'store_id' in diff.after || 'status' in diff.after) {
          emit(trx, event('PermissionsChanged', { user_ids: [id] }));
        }
        if (input.status === 'inactive' && before.status === 'active') revoked(trx, id, 'disabled');
        else if (input.password !== null) revoked(trx, id, 'sessions_ended');
        const lost = storesLost(beforeStores, before.store_id, stores);
        if (lost.length) revoked(trx, id, 'stores_removed', lost);
        return present(trx, actor, id);
      });
    },

    remove(actor: Actor, id: number): Promise<User> {
      assertNotSelf(actor, id);
      return write(actor, async (trx) => {
        const before = await lockedUser(trx, id);
        await authorized(trx, actor, id, 'delete');
        const at = now();
        await updateUser(trx, id, { deleted_at: at }, at);
        await endSessions(trx, id, at);
        revoked(trx, id, 'deleted');
        await assertAdministratorRemains(trx);
        await recordAudit(trx, auditWho(actor), {
          action: 'user.deleted',
          subject: { type: 'user', id },
          before: { name: before.name, full_name: before.full_name, status: before.status },
        });
        return present(trx, actor, id);
      });
    },

    /** Disables (ending their sessions at once) or enables a user. */
    setStatus(actor: Actor, id: number, status: 'active' | 'inactive'): Promise<User> {
      if (status === 'inactive') assertNotSelf(actor, id);
      return write(actor, async (trx) => {
        const before = await lockedUser(trx, id);
        await authorized(trx, actor, id, status === 'inactive' ? 'disable' : 'update');
        const at = now();
        await updateUser(trx, id, { status }, at);
        if (status === 'inactive') {
          await endSessions(trx, id, at);
          revoked(trx, id, 'disabled');
        }
        await assertAdministratorRemains(trx);
        if (before.status !== status) {
          await recordAudit(trx, auditWho(actor), {
            action: status === 'inactive' ? 'user.disabled' : 'user.enabled',
            subject: { type: 'user', id },
            before: { status: before.status },
            after: { status },
          });
        }
        return present(trx, actor, id);
      });
    },

    /** A new password the user must change at their next sign-in; their sessions end. */
    resetPassword(actor: Actor, id: number, password: string): Promise<User> {
      return write(actor, async (trx) => {
        const user = await lockedUser(trx, id);
        await authorized(trx, actor, id, 'reset_password');
        assertStrongPassword(password, [user.name, user.full_name, user.email]);
        const at = now();
        await updateUser(trx, id, { password_hash: await hashPassword(password), must_change_password: 1 }, at);
        await endSessions(trx, id, at);
        revoked(trx, id, 'sessions_ended');
        await recordAudit(trx, auditWho(actor), { action: 'user.password_reset', subject: { type: 'user', id } });
        return present(trx, actor, id);
      });
    },

    /** What a user covers: 404 for a user the actor does not see (policies/users.ts seesUser). */
    async coverage(actor: Actor, id: number): Promise<UserCoverage> {
      const user = await userRow(db, id);
      const subject = user && (await userSubject(db, id));
      if (!user || !subject || !seesUser(actor, subject)) throw notFound();
      return readCoverage(db, id, user.store_id);
    },

    /** The stores, operational districts and health facilities a user covers, replaced. */
    setCoverage(
      actor: Actor,
      id: number,
      input: { store_ids: number[]; operational_district_ids: number[]; health_facility_ids: number[] },
    ): Promise<UserCoverage> {
      return write(actor, async (trx) => {
        const user = await lockedUser(trx, id);
        await authorized(trx, actor, id, 'assign');
        const stores = [...new Set([...input.store_ids, ...(user.store_id ? [user.store_id] : [])])];
        const live = await liveIds(trx, 'stores', stores);
        const districts = [...new Set(input.operational_district_ids)];
        const facilities = [...new Set(input.health_facility_ids)];
        const errors: Record<string, { key: 'validation.exists' }[]> = {};
        if (stores.some((s) => !live.has(s))) errors.store_ids = [{ key: 'validation.exists' }];
        const knownDistricts = await existingIds(trx, 'operational_districts', districts);
        if (districts.some((d) => !knownDistricts.has(d)))
          errors.operational_district_ids = [{ key: 'validation.exists' }];
        const knownFacilities = await existingIds(trx, 'health_facilities', facilities);
        if (facilities.some((f) => !knownFacilities.has(f)))
          errors.health_facility_ids = [{ key: 'validation.exists' }];
        if (Object.keys(errors).length) throw new FieldError(errors);
        assertStoresCovered(actor, 'store_ids', stores);
        assertAreasCovered(actor, districts, facilities);
        const before = await readCoverage(trx, id, user.store_id);
        await replaceStores(trx, id, stores);
        await replaceAreas(trx, id, districts, facilities);
        // the user's version: their remembered coverage is read again on their next request
        await updateUser(trx, id, {});
        const after = await readCoverage(trx, id, user.store_id);
        await recordAudit(trx, auditWho(actor), {
          action: 'user.coverage',
          subject: { type: 'user', id },
          before,
          after,
        });
        emit(trx, event('PermissionsChanged', { user_ids: [id] }));
        const lost = storesLost(before.store_ids, user.store_id, stores);
        if (lost.length) revoked(trx, id, 'stores_removed', lost);
        return after;
      });
    },
  };
}

/** The stores a user covered (their stores and home store) that they no longer do. */
function storesLost(beforeStores: readonly number[], beforeHome: number | null, after: readonly number[]): number[] {
  const had = new Set([...beforeStores, ...(beforeHome ? [beforeHome] : [])]);
  return [...had].filter((s) => !after.includes(s)).sort((a, b) => a - b);
}

/**
 * Tells whoever holds a user's live connections (the real-time layer) that the user's access
 * shrank: disabled, deleted, signed out by a reset, or taken off some stores.
 */
function revoked(
  trx: Db,
  userId: number,
  reason: EventPayloads['UserAccessRevoked']['reason'],
  storeIds: number[] = [],
) {
  emit(trx, event('UserAccessRevoked', { user_id: userId, reason, store_ids: storeIds }));
}

export type UsersService = ReturnType<typeof usersService>;
