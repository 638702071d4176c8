import { type User, user, userInput } from '@depot/contracts';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import type { Read, ResourceDefinition } from '../../kit/resource.ts';
import { userAbilities, userSubjects, usersScope } from '../../policies/users.ts';

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

/**
 * Users: the kit lists and shows them (search, sort, filters by status, store and role) within the
 * reader's coverage (policies/users.ts: usersScope; another store's staff are 404); their writes are
 * the users service's (passwords, stores, roles, the last administrator).
 */
export const users: ResourceDefinition<'users', typeof userInput, typeof user, UserRow> = {
  table: 'users',
  path: '/api/users',
  resource: 'users',
  entity: 'entity.user',
  input: userInput,
  output: user,
  routes: ['list', 'show'],
  policy: { scope: usersScope },
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
