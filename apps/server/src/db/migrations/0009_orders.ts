import type { Kysely } from 'kysely';
import { columnTypes, withId, withTimestamps } from './helpers.ts';

/**
 * Sales: orders with their lines (each line's batches, so a cancel or a return puts the very units
 * back), tenders and refunds, returns, and invoices numbered per store and year. Money in US cents
 * and whole riel; the rates of each sale are kept with it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp } = columnTypes(db);

  await withTimestamps(
    db,
    withId(db, db.schema.createTable('orders'))
      .addColumn('number', 'varchar(30)', (c) => c.notNull().unique())
      .addColumn('store_id', 'integer', (c) => c.notNull().references('stores.id'))
      .addColumn('cashier_id', 'integer', (c) => c.references('users.id'))
      .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id'))
      .addColumn('order_date', timestamp, (c) => c.notNull())
      .addColumn('status', 'varchar(20)', (c) => c.notNull())
      .addColumn('payment_status', 'varchar(20)', (c) => c.notNull())
      .addColumn('subtotal_cents', 'bigint', (c) => c.notNull())
      .addColumn('discount_cents', 'bigint', (c) => c.notNull())
      .addColumn('tax_cents', 'bigint', (c) => c.notNull())
      .addColumn('delivery_fee_cents', 'bigint', (c) => c.notNull())
      .addColumn('total_cents', 'bigint', (c) => c.notNull())
      .addColumn('paid_cents', 'bigint', (c) => c.notNull())
      .addColumn('change_cents', 'bigint', (c) => c.notNull())
      .addColumn('change_khr', 'bigint', (c) => c.notNull())
      .addColumn('exchange_rate_khr', 'integer', (c) => c.notNull())
      .addColumn('rate_in_khr', 'integer')
      .addColumn('rate_out_khr', 'integer')
      .addColumn('khr_step', 'integer', (c) => c.notNull())
      .addColumn('total_khr', 'bigint', (c) => c.notNull())
      .addColumn('vat_rate_bp', 'integer', (c) => c.notNull())
      .addColumn('discount_id', 'integer')
      .addColumn('note', 'varchar(500)')
      .addColumn('shipping_address', 'varchar(255)')
      .addColumn('delivery_status', 'varchar(30)')
      .addColumn('items_count', 'integer', (c) => c.notNull())
      .addColumn('cancelled_at', timestamp)
      .addColumn('cancelled_by', 'integer', (c) => c.references('users.id'))
      .addColumn('cancel_reason', 'varchar(255)'),
    { softDelete: true },
  ).execute();
  await db.schema.createIndex('orders_date').on('orders').columns(['order_date']).execute();
  await db.schema.createIndex('orders_store').on('orders').columns(['store_id', 'order_date']).execute();
  await db.schema.createIndex('orders_customer').on('orders').column('customer_id').execute();
  await db.schema.createIndex('orders_cashier').on('orders').columns(['cashier_id', 'order_date']).execute();

  await withId(db, db.schema.createTable('order_items'))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id'))
    .addColumn('kind', 'varchar(10)', (c) => c.notNull())
    .addColumn('product_id', 'integer', (c) => c.references('products.id'))
    .addColumn('combo_id', 'integer', (c) => c.references('combos.id'))
    .addColumn('name_en', 'varchar(50)', (c) => c.notNull())
    .addColumn('name_kh', 'varchar(50)', (c) => c.notNull())
    .addColumn('sku', 'varchar(40)', (c) => c.notNull())
    .addColumn('unit_id', 'integer', (c) => c.references('units.id'))
    .addColumn('factor', 'integer', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('unit_price_cents', 'bigint', (c) => c.notNull())
    .addColumn('discount_id', 'integer')
    .addColumn('discount_name', 'varchar(50)')
    .addColumn('line_discount_cents', 'bigint', (c) => c.notNull())
    .addColumn('order_discount_cents', 'bigint', (c) => c.notNull())
    .addColumn('net_cents', 'bigint', (c) => c.notNull())
    .addColumn('tax_cents', 'bigint', (c) => c.notNull())
    .addColumn('total_cents', 'bigint', (c) => c.notNull())
    .addColumn('taxable', 'integer', (c) => c.notNull())
    .addColumn('returned_quantity', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('order_items_order').on('order_items').column('order_id').execute();
  await db.schema.createIndex('order_items_product').on('order_items').column('product_id').execute();

  // The units a line took, batch by batch (a combo's line takes several products).
  await withId(db, db.schema.createTable('order_item_batches'))
    .addColumn('order_item_id', 'integer', (c) => c.notNull().references('order_items.id'))
    .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id'))
    .addColumn('batch_id', 'integer', (c) => c.notNull().references('stock_batches.id'))
    .addColumn('quantity', 'bigint', (c) => c.notNull())
    .addColumn('value_cents', 'bigint', (c) => c.notNull())
    .addColumn('returned', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('order_item_batches_item').on('order_item_batches').column('order_item_id').execute();

  await withId(db, db.schema.createTable('order_payments'))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id'))
    .addColumn('kind', 'varchar(10)', (c) => c.notNull())
    .addColumn('method', 'varchar(20)', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('amount_cents', 'bigint', (c) => c.notNull())
    .addColumn('transaction_id', 'varchar(100)')
    .addColumn('received_by', 'integer', (c) => c.references('users.id'))
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('order_payments_order').on('order_payments').column('order_id').execute();

  await withId(db, db.schema.createTable('order_returns'))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id'))
    .addColumn('refund_cents', 'bigint', (c) => c.notNull())
    .addColumn('note', 'varchar(255)')
    .addColumn('created_by', 'integer', (c) => c.references('users.id'))
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .execute();

  await withTimestamps(
    db,
    withId(db, db.schema.createTable('invoices'))
      .addColumn('number', 'varchar(40)', (c) => c.notNull().unique())
      .addColumn('order_id', 'integer', (c) => c.notNull().unique().references('orders.id'))
      .addColumn('store_id', 'integer', (c) => c.notNull().references('stores.id'))
      .addColumn('total_cents', 'bigint', (c) => c.notNull())
      .addColumn('tax_cents', 'bigint', (c) => c.notNull())
      .addColumn('items_count', 'integer', (c) => c.notNull())
      .addColumn('paid_at', timestamp, (c) => c.notNull()),
    { softDelete: true },
  ).execute();
  await db.schema.createIndex('invoices_store').on('invoices').columns(['store_id', 'paid_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['invoices', 'order_returns', 'order_payments', 'order_item_batches', 'order_items', 'orders']) {
    await db.schema.dropTable(table).execute();
  }
}
