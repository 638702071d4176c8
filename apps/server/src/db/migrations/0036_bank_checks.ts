import { type Kysely, sql } from 'kysely';
import { columnTypes, withId } from './helpers.ts';

/**
 * Bank payments checked by the bank (issue 27 §3). `bank_transactions` holds every Bakong
 * transaction a sale was paid with, a KHQR's or a claimed transfer's, under its hash: unique, so
 * one transfer pays one sale however many cashiers claim it at once. `khqr_payments.offline` marks
 * a QR made on the device without a connection (checked with Bakong once it syncs);
 * `checked_at` is when Bakong was last asked about it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp } = columnTypes(db);
  await withId(db, db.schema.createTable('bank_transactions'))
    .addColumn('hash', 'varchar(100)', (c) => c.notNull().unique())
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id'))
    .addColumn('source', 'varchar(10)', (c) => c.notNull())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('from_account', 'varchar(100)')
    .addColumn('created_by', 'integer', (c) => c.references('users.id'))
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('bank_transactions_order').on('bank_transactions').column('order_id').execute();
  await db.schema
    .alterTable('khqr_payments')
    .addColumn('offline', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('khqr_payments').addColumn('checked_at', timestamp).execute();
  // the hashes Bakong confirmed before: taken, each by its first QR
  await sql`
    insert into bank_transactions (hash, order_id, source, currency, amount, created_by, created_at)
    select k.paid_hash, k.order_id, 'khqr', k.currency, k.amount, k.created_by, k.created_at
    from khqr_payments k
    where k.paid_hash is not null
      and k.id = (select min(k2.id) from khqr_payments k2 where k2.paid_hash = k.paid_hash)
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('khqr_payments').dropColumn('checked_at').execute();
  await db.schema.alterTable('khqr_payments').dropColumn('offline').execute();
  await db.schema.dropIndex('bank_transactions_order').execute();
  await db.schema.dropTable('bank_transactions').execute();
}
