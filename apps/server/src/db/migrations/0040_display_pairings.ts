import type { Kysely } from 'kysely';
import { columnTypes, withId } from './helpers.ts';

/**
 * The customer displays paired with a till (issue 28): a cashier's session asks for a short code
 * (`code_hash`, until `code_expires_at`); a tablet that enters it gets a display token
 * (`token_hash`), good only for this pairing's real-time channel and only while the session lives.
 * Codes and tokens are kept as SHA-256, never as they are.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp } = columnTypes(db);
  await withId(db, db.schema.createTable('display_pairings'))
    .addColumn('session_id', 'integer', (c) => c.notNull().references('auth_sessions.id'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('store_id', 'integer', (c) => c.references('stores.id'))
    .addColumn('code_hash', 'varchar(64)', (c) => c.unique())
    .addColumn('code_expires_at', timestamp, (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)', (c) => c.unique())
    .addColumn('paired_at', timestamp)
    .addColumn('revoked_at', timestamp)
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('display_pairings_session').on('display_pairings').column('session_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('display_pairings_session').execute();
  await db.schema.dropTable('display_pairings').execute();
}
