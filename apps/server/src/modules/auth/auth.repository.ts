import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { prepared } from '../../db/prepared.ts';

/** Queries behind sign-in, tokens and "who is this". */
export function authRepository(db: Db) {
  // Who a user is, in one round trip: profile, store and live roles (one row per role; the role
  // columns are null for a user without roles). A role's `updated_at` is its version: whatever
  // changes its permissions touches it, and cached permission sets are keyed by it.
  const identityColumns = [
    'users.id as user_id',
    'users.name',
    'users.full_name',
    'users.email',
    'users.phone',
    'users.position',
    'users.status',
    'users.profile_image',
    'users.must_change_password',
    // versions the user's remembered coverage (policies/coverage.ts)
    'users.updated_at as user_version',
    'stores.id as store_id',
    'stores.name as store_name',
    'stores.code as store_code',
    'roles.id as role_id',
    'roles.name as role_name',
    'roles.group_name as role_group',
    'roles.label_en as role_label_en',
    'roles.label_kh as role_label_kh',
    'roles.landing as role_landing',
    'roles.updated_at as role_version',
  ] as const;

  // Run by every authenticated request: compiled once (see prepared.ts).
  // `since`: the oldest sign-in still alive (the sessions' absolute lifetime)
  const findAccess = prepared((db: Db, p: { tokenHash: string; at: string; since: string }) =>
    db
      .selectFrom('auth_tokens')
      .innerJoin('auth_sessions', 'auth_sessions.id', 'auth_tokens.session_id')
      .innerJoin('users', 'users.id', 'auth_sessions.user_id')
      .leftJoin('stores', (join) => join.onRef('stores.id', '=', 'users.store_id').on('stores.deleted_at', 'is', null))
      .leftJoin('user_roles', 'user_roles.user_id', 'users.id')
      .leftJoin('roles', (join) => join.onRef('roles.id', '=', 'user_roles.role_id').on('roles.deleted_at', 'is', null))
      .select([...identityColumns, 'auth_sessions.id as session_id', 'auth_sessions.last_used_at'])
      .where('auth_tokens.token_hash', '=', p.tokenHash)
      .where('auth_tokens.kind', '=', 'access')
      .where('auth_tokens.expires_at', '>', p.at)
      .where('auth_sessions.revoked_at', 'is', null)
      .where('auth_sessions.created_at', '>', p.since)
      .where('users.status', '=', 'active')
      .where('users.deleted_at', 'is', null)
      .orderBy('roles.name'),
  );

  const findIdentity = prepared((db: Db, p: { userId: number }) =>
    db
      .selectFrom('users')
      .leftJoin('stores', (join) => join.onRef('stores.id', '=', 'users.store_id').on('stores.deleted_at', 'is', null))
      .leftJoin('user_roles', 'user_roles.user_id', 'users.id')
      .leftJoin('roles', (join) => join.onRef('roles.id', '=', 'user_roles.role_id').on('roles.deleted_at', 'is', null))
      .select(identityColumns)
      .where('users.id', '=', p.userId)
      .where('users.deleted_at', 'is', null)
      .orderBy('roles.name'),
  );

  return {
    findUserByName(name: string) {
      return db
        .selectFrom('users')
        .selectAll()
        .where(sql<string>`lower(name)`, '=', name.toLowerCase())
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
    },

    /** The user's identity rows (see identityColumns); empty when there is no such live user. */
    findIdentity(userId: number) {
      return findIdentity(db, { userId });
    },

    async permissionsOfRole(roleId: number): Promise<string[]> {
      const rows = await db
        .selectFrom('role_permissions')
        .innerJoin('permissions', 'permissions.id', 'role_permissions.permission_id')
        .select('permissions.name')
        .where('role_permissions.role_id', '=', roleId)
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

    /** The live session (signed in after `since`) behind an access token as identity rows, or no rows. */
    findAccess(tokenHash: string, at: string, since: string) {
      return findAccess(db, { tokenHash, at, since });
    },

    /** Whether this user ever signed in from this address (the sign-in throttle's known addresses). */
    async signedInFrom(userId: number, ip: string): Promise<boolean> {
      const row = await db
        .selectFrom('auth_sessions')
        .select('id')
        .where('user_id', '=', userId)
        .where('ip', '=', ip.slice(0, 64))
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
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
          'auth_tokens.used_by',
          'auth_sessions.id as session_id',
          'auth_sessions.created_at as session_created_at',
          'auth_sessions.revoked_at',
          'users.status',
          'users.deleted_at',
        ])
        .where('auth_tokens.token_hash', '=', tokenHash)
        .where('auth_tokens.kind', '=', 'refresh')
        .executeTakeFirst();
    },

    /** Marks a refresh token used by this client; false when another request used it first. */
    async useRefresh(tokenId: number, at: string, client: string): Promise<boolean> {
      const result = await db
        .updateTable('auth_tokens')
        .set({ used_at: at, used_by: client })
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

export type IdentityRow = Awaited<ReturnType<AuthRepository['findIdentity']>>[number];
