import type { Kysely } from 'kysely';
import { columnTypes, withId, withTimestamps } from './helpers.ts';

/**
 * KHQR and receipt printers. A store's Bakong receiving account (all optional: a store without
 * one takes no KHQR); the printers of each store (a network printer the server sends ESC/POS to);
 * and every KHQR made for an order (the payload, its md5 that Bakong finds the payment by, the
 * amount in the QR's currency, and the bank's hash once confirmed).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp } = columnTypes(db);
  // one column a statement: SQLite adds one at a time
  for (const [column, size] of [
    ['khqr_account_id', 32],
    ['khqr_merchant_name', 25],
    ['khqr_merchant_city', 15],
    ['khqr_merchant_id', 32],
    ['khqr_acquiring_bank', 32],
  ] as const) {
    await db.schema.alterTable('stores').addColumn(column, `varchar(${size})`).execute();
  }

  await withTimestamps(
    db,
    withId(db, db.schema.createTable('printers'))
      .addColumn('store_id', 'integer', (c) => c.notNull().references('stores.id'))
      .addColumn('name', 'varchar(50)', (c) => c.notNull())
      .addColumn('host', 'varchar(253)', (c) => c.notNull())
      .addColumn('port', 'integer', (c) => c.notNull())
      .addColumn('paper', 'varchar(2)', (c) => c.notNull())
      .addColumn('drawer_kick', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('drawer_pin', 'integer', (c) => c.notNull().defaultTo(2))
      .addColumn('status', 'varchar(10)', (c) => c.notNull().defaultTo('active')),
    { softDelete: true },
  ).execute();
  await db.schema.createIndex('printers_store').on('printers').column('store_id').execute();

  await withId(db, db.schema.createTable('khqr_payments'))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id'))
    .addColumn('payload', 'varchar(512)', (c) => c.notNull())
    .addColumn('md5', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('amount_cents', 'bigint', (c) => c.notNull())
    .addColumn('merchant_name', 'varchar(25)', (c) => c.notNull())
    .addColumn('expires_at', timestamp, (c) => c.notNull())
    .addColumn('paid_hash', 'varchar(100)')
    .addColumn('created_by', 'integer', (c) => c.references('users.id'))
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('khqr_payments_order').on('khqr_payments').columns(['order_id', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('khqr_payments').execute();
  await db.schema.dropTable('printers').execute();
  for (const column of [
    'khqr_acquiring_bank',
    'khqr_merchant_id',
    'khqr_merchant_city',
    'khqr_merchant_name',
    'khqr_account_id',
  ]) {
    await db.schema.alterTable('stores').dropColumn(column).execute();
  }
}
