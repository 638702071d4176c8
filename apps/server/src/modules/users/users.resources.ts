import { type MessageKey, type User, type UserInput, user, userInput } from '@depot/contracts';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { emit } from '../../db/transaction.ts';
import { type EventPayloads, event } from '../../events/events.ts';
import type { Read, ResourceDefinition, WriteChange } from '../../kit/resource.ts';
import type { Actor } from '../../policies/policy.ts';
import {
  assertAdministratorRemains,
  storesOf,
  userAbilities,
  userSubjects,
  usersScope,
  userWrites,
} from '../../policies/users.ts';
import { auditWho, changes, recordAudit } from '../audit/audit.ts';
import { assertStrongPassword, hashPassword } from '../auth/passwords.ts';
import { endSessions, heldRoles, heldStores, liveIds, replaceRoles, replaceStores } from './users.repository.ts';

type UserRow = Omit<Read<User>, 'stores' | 'store_ids' | 'roles' | 'role_ids' | 'must_change_password'> & {
  must_change_password: number | boolean;
};

/** Each user's stores and roles, read for a whole page at once. */
export async function storesAndRoles(db: Db, ids: readonly number[]) {
  const stores = ids.length
    ? await db
        .selectFrom('user_stores')
        .innerJoin('stores', 'stores.id', 'user_stores.store_id')
        .select(['user_stores.user_id', 'stores.id', 'stores.name', 'stores.code'])
        .where('user_stores.user_id', 'in', ids)
        .orderBy('stores.name')
        .execute()
    : [];
  const roles = ids.length
    ? await db
        .selectFrom('user_roles')
        .innerJoin('roles', 'roles.id', 'user_roles.role_id')
        .select(['user_roles.user_id', 'roles.id', 'roles.name', 'roles.label_en', 'roles.label_kh'])
        .where('user_roles.user_id', 'in', ids)
        .where('roles.deleted_at', 'is', null)
        .orderBy('roles.name')
        .execute()
    : [];
  return { stores, roles };
}

/** The columns of `users` a user's form writes. */
export const PROFILE_FIELDS = [
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

const profileOf = (input: UserInput) => Object.fromEntries(PROFILE_FIELDS.map((f) => [f, input[f]]));

/** Stores and roles that exist, and a password for a new user (the name's uniqueness is the kit's). */
async function userProblems(trx: Db, input: UserInput, id: number | null) {
  const problems: Record<string, MessageKey> = {};
  const live = await liveIds(trx, 'stores', storesOf(input));
  if (input.store_id && !live.has(input.store_id)) problems.store_id = 'validation.exists';
  if (input.store_ids.some((s) => !live.has(s))) problems.store_ids = 'validation.exists';
  const roles = await liveIds(trx, 'roles', input.role_ids);
  if (input.role_ids.some((r) => !roles.has(r))) problems.role_ids = 'validation.exists';
  if (id === null && input.password === null) problems.password = 'validation.required';
  return Object.keys(problems).length ? problems : null;
}

/** The row's columns: the profile, and a new password (not a guessable one) hashed. */
async function userValues(_trx: Db, input: UserInput, existing: Record<string, unknown> | null) {
  const values: Record<string, unknown> = profileOf(input);
  if (input.password !== null) {
    assertStrongPassword(input.password, [input.name, input.full_name, input.email, existing?.name as string]);
    values.password_hash = await hashPassword(input.password);
  }
  return values;
}

/**
 * A user's write besides their row: stores and roles replaced, sessions ended when disabled,
 * deleted or given a new password, the last administrator kept, the audit trail's line, and the
 * events (PermissionsChanged; UserAccessRevoked for the real-time layer).
 */
async function userWritten(trx: Db, actor: Actor, { action, id, before, after, input }: WriteChange<UserInput>) {
  const at = after.updated_at as string;
  if (action === 'delete') {
    await endSessions(trx, id, at);
    revoked(trx, id, 'deleted');
    await assertAdministratorRemains(trx);
    await recordAudit(trx, auditWho(actor), {
      action: 'user.deleted',
      subject: { type: 'user', id },
      before: { name: before?.name, full_name: before?.full_name, status: before?.status },
    });
    return;
  }
  if (!input) return;
  const stores = storesOf(input);
  if (action === 'create') {
    await replaceStores(trx, id, stores);
    await replaceRoles(trx, id, input.role_ids);
    await recordAudit(trx, auditWho(actor), {
      action: 'user.created',
      subject: { type: 'user', id },
      after: { ...profileOf(input), store_ids: stores, role_ids: input.role_ids },
    });
    return;
  }
  const beforeRoles = await heldRoles(trx, id);
  const beforeStores = await heldStores(trx, id);
  const roles = [...new Set(input.role_ids)].sort((a, b) => a - b);
  const rolesChanged = JSON.stringify(roles) !== JSON.stringify(beforeRoles);
  await replaceStores(trx, id, stores);
  if (rolesChanged) await replaceRoles(trx, id, roles);
  const disabled = input.status === 'inactive' && before?.status === 'active';
  if (input.status === 'inactive' || input.password !== null) await endSessions(trx, id, at);
  await assertAdministratorRemains(trx);
  const diff = changes({ ...before, store_ids: beforeStores, role_ids: beforeRoles } as Record<string, unknown>, {
    ...profileOf(input),
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
  if (disabled) revoked(trx, id, 'disabled');
  else if (input.password !== null) revoked(trx, id, 'sessions_ended');
  const lost = storesLost(beforeStores, (before?.store_id as number | null) ?? null, stores);
  if (lost.length) revoked(trx, id, 'stores_removed', lost);
}

/** The stores a user covered (their stores and home store) that they no longer do. */
export function storesLost(beforeStores: readonly number[], beforeHome: number | null, after: readonly number[]) {
  const had = new Set([...beforeStores, ...(beforeHome ? [beforeHome] : [])]);
  return [...had].filter((s) => !after.includes(s)).sort((a, b) => a - b);
}

/**
 * Tells whoever holds a user's live connections (the real-time layer) that the user's access
 * shrank: disabled, deleted, signed out by a reset, or taken off some stores.
 */
export function revoked(
  trx: Db,
  userId: number,
  reason: EventPayloads['UserAccessRevoked']['reason'],
  storeIds: number[] = [],
) {
  emit(trx, event('UserAccessRevoked', { user_id: userId, reason, store_ids: storeIds }));
}

/**
 * Users: the kit lists, shows, creates, edits and deletes them (search, sort, filters by status,
 * store and role) within the reader's coverage (policies/users.ts: usersScope, another store's
 * staff are 404; userWrites: who may write whom). Their status, password reset and coverage are
 * the users service's.
 */
export const users: ResourceDefinition<'users', typeof userInput, typeof user, UserRow> = {
  table: 'users',
  path: '/api/users',
  resource: 'users',
  entity: 'entity.user',
  input: userInput,
  output: user,
  routes: ['list', 'show', 'create', 'update', 'delete'],
  summaries: {
    create:
      'Create a user: sign-in name, password (min 8, confirmed), profile, home store, stores, roles (roles.assign)',
    update: 'Update a user (an empty password keeps it). Refused (422) when it would leave no active administrator',
    delete: 'Delete a user (their sessions end). Not yourself, not the last active administrator (422)',
  },
  policy: { scope: usersScope, ...userWrites },
  check: userProblems,
  prepare: userValues,
  written: userWritten,
  query: (db) =>
    db
      .selectFrom('users')
      .leftJoin('stores', 'stores.id', 'users.store_id')
      .select([
        'users.id',
        'users.name',
        'users.full_name',
        'users.email',
        'users.phone',
        'users.status',
        'users.date_of_birth',
        'users.join_date',
        'users.position',
        'users.profile_image',
        'users.store_id',
        'stores.name as store_name',
        'users.must_change_password',
        'users.last_login_at',
        'users.last_login_ip',
        'users.created_at',
        'users.updated_at',
        'users.deleted_at',
      ]),
  searchable: ['users.name', 'users.full_name', 'users.email', 'users.phone', 'users.position'],
  sortable: {
    name: 'users.name',
    full_name: 'users.full_name',
    status: 'users.status',
    last_login_at: 'users.last_login_at',
    created_at: 'users.created_at',
  },
  defaultSort: 'name',
  filters: {
    status: { column: 'users.status', schema: z.enum(['active', 'inactive']) },
    store_id: {
      schema: z.coerce.number().int().min(1),
      apply: (query, value) =>
        query.where(
          sql<boolean>`exists (select 1 from user_stores us where us.user_id = users.id and us.store_id = ${value})`,
        ),
    },
    role_id: {
      schema: z.coerce.number().int().min(1),
      apply: (query, value) =>
        query.where(
          sql<boolean>`exists (select 1 from user_roles ur where ur.user_id = users.id and ur.role_id = ${value})`,
        ),
    },
  },
  unique: ['name'],
  complete: async (db, rows, _extras, actor) => {
    const { stores, roles } = await storesAndRoles(
      db,
      rows.map((r) => r.id),
    );
    const subjects = actor ? await userSubjects(db, rows) : null;
    return rows.map((row) => {
      const own = stores.filter((s) => s.user_id === row.id).map(({ id, name, code }) => ({ id, name, code }));
      const held = roles
        .filter((r) => r.user_id === row.id)
        .map(({ id, name, label_en, label_kh }) => ({ id, name, label_en, label_kh }));
      const record = {
        ...row,
        must_change_password: Boolean(row.must_change_password),
        store_ids: own.map((s) => s.id),
        stores: own,
        role_ids: held.map((r) => r.id),
        roles: held,
      };
      const subject = subjects?.get(row.id);
      return actor && subject ? { ...record, abilities: userAbilities(actor, subject) } : record;
    });
  },
};
