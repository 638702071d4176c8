import type { Kysely } from 'kysely';

/**
 * Sign-in trust:
 * - `auth_tokens.used_by`: the client (SHA-256 of its address and user agent) that rotated a refresh
 *   token, so that only the same client's retry of a lost answer is tolerated (auth.service.ts
 *   `refresh`); a second use from anyone else revokes the sign-in.
 * - an index on the addresses each user signed in from: the sign-in throttle never refuses the right
 *   password from one of them (auth.repository.ts `signedInFrom`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('auth_tokens').addColumn('used_by', 'varchar(64)').execute();
  await db.schema.createIndex('auth_sessions_user_ip').on('auth_sessions').columns(['user_id', 'ip']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('auth_sessions_user_ip').execute();
  await db.schema.alterTable('auth_tokens').dropColumn('used_by').execute();
}
