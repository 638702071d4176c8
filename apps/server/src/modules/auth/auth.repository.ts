import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/** Queries behind sign-in, tokens and "who is this". */
export function authRepository(db: Db) {
  return {
    findUserByName(name: string) {
      return db
        .selectFrom('users')
        .selectAll()
        .where(sql<string>`lower(name)`, '=', name.toLowerCase())
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
    },

    findUser(id: number) {
      return db.selectFrom('users').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
    },

    findStore(id: number | null) {
      if (id === null) return Promise.resolve(undefined);
      return db
        .selectFrom('stores')
        .select(['id', 'name', 'code'])
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
    },

    rolesOf(userId: number) {
      return db
        .selectFrom('user_roles')
        .innerJoin('roles', 'roles.id', 'user_roles.role_id')
        .select(['roles.id', 'roles.name', 'roles.group_name', 'roles.label_en', 'roles.label_kh'])
        .where('user_roles.user_id', '=', userId)
        .where('roles.deleted_at', 'is', null)
        .orderBy('roles.name')
        .execute();
    },

    async permissionsOf(roleIds: number[]): Promise<string[]> {
      if (!roleIds.length) return [];
      const rows = await db
        .selectFrom('role_permissions')
        .innerJoin('permissions', 'permissions.id', 'role_permissions.permission_id')
        .select('permissions.name')
        .distinct()
        .where('role_permissions.role_id', 'in', roleIds)
        .orderBy('permissions.name')
        .execute();
      return rows.map((r) => r.name);
    },

    createSession(values: { user_id: number; ip: string | null; user_agent: string | null; at: string }) {
      return db
        .insertInto('auth_sessions')
        .values({
          user_id: values.user_id,
          ip: values.ip,
          user_agent: values.user_agent,
          created_at: values.at,
          last_used_at: values.at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    },

    insertTokens(
      rows: {
        session_id: number;
        kind: 'access' | 'refresh';
        token_hash: string;
        expires_at: string;
        created_at: string;
      }[],
    ) {
      return db.insertInto('auth_tokens').values(rows).execute();
    },

    /** The live session behind an access token, with its user, or undefined. */
    findAccess(tokenHash: string, at: string) {
      return db
        .selectFrom('auth_tokens')
        .innerJoin('auth_sessions', 'auth_sessions.id', 'auth_tokens.session_id')
        .innerJoin('users', 'users.id', 'auth_sessions.user_id')
        .select([
          'auth_sessions.id as session_id',
          'auth_sessions.last_used_at',
          'users.id as user_id',
          'users.name',
          'users.store_id',
        ])
        .where('auth_tokens.token_hash', '=', tokenHash)
        .where('auth_tokens.kind', '=', 'access')
        .where('auth_tokens.expires_at', '>', at)
        .where('auth_sessions.revoked_at', 'is', null)
        .where('users.status', '=', 'active')
        .where('users.deleted_at', 'is', null)
        .executeTakeFirst();
    },

    findRefresh(tokenHash: string) {
      return db
        .selectFrom('auth_tokens')
        .innerJoin('auth_sessions', 'auth_sessions.id', 'auth_tokens.session_id')
        .innerJoin('users', 'users.id', 'auth_sessions.user_id')
        .select([
          'auth_tokens.id',
          'auth_tokens.expires_at',
          'auth_tokens.used_at',
          'auth_sessions.id as session_id',
          'auth_sessions.revoked_at',
          'users.status',
          'users.deleted_at',
        ])
        .where('auth_tokens.token_hash', '=', tokenHash)
        .where('auth_tokens.kind', '=', 'refresh')
        .executeTakeFirst();
    },

    /** Marks a refresh token used; false when another request used it first. */
    async useRefresh(tokenId: number, at: string): Promise<boolean> {
      const result = await db
        .updateTable('auth_tokens')
        .set({ used_at: at })
        .where('id', '=', tokenId)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    touchSession(sessionId: number, at: string) {
      return db.updateTable('auth_sessions').set({ last_used_at: at }).where('id', '=', sessionId).execute();
    },

    revokeSession(sessionId: number, at: string) {
      return db
        .updateTable('auth_sessions')
        .set({ revoked_at: at })
        .where('id', '=', sessionId)
        .where('revoked_at', 'is', null)
        .execute();
    },
  };
}

export type AuthRepository = ReturnType<typeof authRepository>;
