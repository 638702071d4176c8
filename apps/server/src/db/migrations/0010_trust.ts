import { type Kysely, sql } from 'kysely';

/**
 * Trust: where each user works. `user_stores`: the stores each user covers (sees and acts in),
 * filled from each user's home store (`users.store_id`, which stays the till's default). `approved_by` on orders and
 * returns: the manager whose approval, entered at the till, allowed a void or a refund.
 * `idempotency_keys.result`: what the keyed work answered, written in the work's own transaction,
 * so a retry after a crash between the commit and the answer is rebuilt from it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('user_stores')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('store_id', 'integer', (c) => c.notNull().references('stores.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('user_stores_pk', ['user_id', 'store_id'])
    .execute();
  await db.schema.createIndex('user_stores_store').on('user_stores').column('store_id').execute();
  await sql`insert into user_stores (user_id, store_id) select id, store_id from users where store_id is not null`.execute(
    db,
  );

  await db.schema
    .alterTable('orders')
    .addColumn('approved_by', 'integer', (c) => c.references('users.id'))
    .execute();
  await db.schema
    .alterTable('order_returns')
    .addColumn('approved_by', 'integer', (c) => c.references('users.id'))
    .execute();
  await db.schema.alterTable('idempotency_keys').addColumn('result', 'text').execute();
  // Keys the old code claimed before its work and never answered: their requests died with the
  // process, and those keys would answer "in flight" for ever. Whether such a request's work had
  // committed cannot be known; a till's retry now does it (again), rather than never.
  await sql`delete from idempotency_keys where status_code is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('idempotency_keys').dropColumn('result').execute();
  await db.schema.alterTable('order_returns').dropColumn('approved_by').execute();
  await db.schema.alterTable('orders').dropColumn('approved_by').execute();
  await db.schema.dropTable('user_stores').execute();
}
