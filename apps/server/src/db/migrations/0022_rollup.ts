import type { Kysely } from 'kysely';
import { rebuildRollups } from '../rollups.rebuild.ts';
import { columnTypes } from './helpers.ts';

/**
 * The reports' daily rollups (db/rollups.ts), kept in the transaction of every sale, payment,
 * return, void and ledger movement; filled here from what an existing depot already holds. And
 * the indexes the reports still need: combos' lines found without reading every line, open
 * balances and deliveries without reading every order.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const money = (t: Kysely<unknown>, table: string, key: [string, string][], sums: string[]) => {
    let b = t.schema.createTable(table);
    for (const [name, type] of key) b = b.addColumn(name, type as 'integer', (c) => c.notNull());
    for (const name of sums) b = b.addColumn(name, 'bigint', (c) => c.notNull().defaultTo(0));
    return b;
  };
  await money(
    db,
    'daily_sales',
    [
      ['day', 'varchar(10)'],
      ['store_id', 'integer'],
      ['kind', 'varchar(10)'],
      ['item_id', 'integer'],
    ],
    ['quantity', 'returned_quantity', 'gross_cents', 'discount_cents', 'net_cents', 'tax_cents'],
  )
    .addPrimaryKeyConstraint('daily_sales_key', ['day', 'store_id', 'kind', 'item_id'] as never[])
    .execute();
  await money(
    db,
    'daily_orders',
    [
      ['day', 'varchar(10)'],
      ['hour', 'integer'],
      ['store_id', 'integer'],
      ['cashier_id', 'integer'],
    ],
    ['orders', 'gross_cents', 'discount_cents', 'tax_cents', 'total_cents', 'change_cents', 'change_khr'],
  )
    .addPrimaryKeyConstraint('daily_orders_key', ['day', 'hour', 'store_id', 'cashier_id'] as never[])
    .execute();
  await money(
    db,
    'daily_payments',
    [
      ['day', 'varchar(10)'],
      ['store_id', 'integer'],
      ['cashier_id', 'integer'],
      ['method', 'varchar(20)'],
      ['kind', 'varchar(10)'],
    ],
    ['payments', 'amount', 'amount_cents'],
  )
    .addPrimaryKeyConstraint('daily_payments_key', ['day', 'store_id', 'cashier_id', 'method', 'kind'] as never[])
    .execute();
  const { timestamp } = columnTypes(db);
  await money(
    db,
    'daily_stock',
    [
      ['day', 'varchar(10)'],
      ['store_id', 'integer'],
      ['product_id', 'integer'],
      ['type', 'varchar(30)'],
      ['of_order', 'integer'],
    ],
    ['quantity', 'value_cents'],
  )
    .addColumn('last_at', timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('daily_stock_key', ['day', 'store_id', 'product_id', 'type', 'of_order'] as never[])
    .execute();
  await money(
    db,
    'daily_customers',
    [
      ['day', 'varchar(10)'],
      ['store_id', 'integer'],
      ['customer_id', 'integer'],
    ],
    ['orders', 'net_cents', 'due_cents'],
  )
    .addColumn('last_at', timestamp)
    .addPrimaryKeyConstraint('daily_customers_key', ['day', 'store_id', 'customer_id'] as never[])
    .execute();
  await db.schema.createIndex('order_items_kind').on('order_items').columns(['kind', 'order_id']).execute();
  // what is still owed and what waits for delivery (the dashboard, the financial report), found
  // without reading every order
  await db.schema.createIndex('orders_payment_status').on('orders').columns(['payment_status']).execute();
  await db.schema.createIndex('orders_delivery_status').on('orders').columns(['delivery_status']).execute();
  await rebuildRollups(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('orders_delivery_status').execute();
  await db.schema.dropIndex('orders_payment_status').execute();
  await db.schema.dropIndex('order_items_kind').execute();
  for (const table of ['daily_customers', 'daily_stock', 'daily_payments', 'daily_orders', 'daily_sales']) {
    await db.schema.dropTable(table).execute();
  }
}
