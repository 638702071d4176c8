import { type Kysely, sql } from 'kysely';
import { columnTypes, withId, withTimestamps } from './helpers.ts';

/**
 * Stock as a ledger, stock transfers and purchases. Quantities are whole base units; money is US
 * cents. `stock_levels` and `stock_valuations` are only ever written by modules/stock/ledger.ts,
 * in the transaction that writes the movement explaining the change.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { date, timestamp } = columnTypes(db);

  // Numbers of documents (PO-2026-000001): one counter per key, taken in the document's transaction.
  await db.schema
    .createTable('sequences')
    .addColumn('key', 'varchar(60)', (c) => c.primaryKey())
    .addColumn('value', 'integer', (c) => c.notNull())
    .execute();

  // A lot and an expiry date of a product; `batch_key` ("lot|date") makes the pair unique with nulls.
  await withId(db, db.schema.createTable('stock_batches'))
    .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id'))
    .addColumn('lot', 'varchar(40)')
    .addColumn('expiry_date', date)
    .addColumn('batch_key', 'varchar(60)', (c) => c.notNull())
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addUniqueConstraint('stock_batches_product_key', ['product_id', 'batch_key'])
    .execute();
  await db.schema.createIndex('stock_batches_expiry').on('stock_batches').column('expiry_date').execute();

  await withId(db, db.schema.createTable('stock_levels'))
    .addColumn('store_id', 'integer', (c) => c.notNull().references('stores.id'))
    .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id'))
    .addColumn('batch_id', 'integer', (c) => c.notNull().references('stock_batches.id'))
    .addColumn('quantity', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', timestamp, (c) => c.notNull())
    .addUniqueConstraint('stock_levels_store_batch', ['store_id', 'batch_id'])
    // the last guard: whatever a bug or a race might try, no level goes below zero
    .addCheckConstraint('stock_levels_not_negative', sql`quantity >= 0`)
    .execute();
  await db.schema.createIndex('stock_levels_product').on('stock_levels').columns(['product_id', 'store_id']).execute();
  await db.schema.createIndex('stock_levels_store').on('stock_levels').columns(['store_id', 'product_id']).execute();

  // What the stock of a product is worth, all stores together: the weighted average cost is value / quantity.
  await db.schema
    .createTable('stock_valuations')
    .addColumn('product_id', 'integer', (c) => c.primaryKey().references('products.id'))
    .addColumn('quantity', 'bigint', (c) => c.notNull())
    .addColumn('value_cents', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', timestamp, (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('stock_movements'))
    .addColumn('type', 'varchar(20)', (c) => c.notNull())
    .addColumn('store_id', 'integer', (c) => c.notNull().references('stores.id'))
    .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id'))
    .addColumn('batch_id', 'integer', (c) => c.notNull().references('stock_batches.id'))
    .addColumn('quantity', 'bigint', (c) => c.notNull())
    .addColumn('value_cents', 'bigint', (c) => c.notNull())
    .addColumn('balance', 'bigint', (c) => c.notNull())
    .addColumn('reason', 'varchar(20)')
    .addColumn('note', 'varchar(255)')
    .addColumn('document_type', 'varchar(20)')
    .addColumn('document_id', 'integer')
    .addColumn('user_id', 'integer', (c) => c.references('users.id'))
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('stock_movements_product')
    .on('stock_movements')
    .columns(['product_id', 'store_id', 'id'])
    .execute();
  await db.schema
    .createIndex('stock_movements_document')
    .on('stock_movements')
    .columns(['document_type', 'document_id'])
    .execute();
  await db.schema.createIndex('stock_movements_store').on('stock_movements').columns(['store_id', 'id']).execute();

  // A hand adjustment (a count, damage, loss…): its lines are movements pointing at it.
  await withId(db, db.schema.createTable('stock_adjustments'))
    .addColumn('store_id', 'integer', (c) => c.notNull().references('stores.id'))
    .addColumn('reason', 'varchar(20)', (c) => c.notNull())
    .addColumn('note', 'varchar(255)')
    .addColumn('created_by', 'integer', (c) => c.references('users.id'))
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .execute();

  await withTimestamps(
    db,
    withId(db, db.schema.createTable('stock_transfers'))
      .addColumn('number', 'varchar(30)', (c) => c.notNull().unique())
      .addColumn('from_store_id', 'integer', (c) => c.notNull().references('stores.id'))
      .addColumn('to_store_id', 'integer', (c) => c.notNull().references('stores.id'))
      .addColumn('status', 'varchar(20)', (c) => c.notNull())
      .addColumn('note', 'varchar(255)')
      .addColumn('created_by', 'integer', (c) => c.references('users.id'))
      .addColumn('sent_at', timestamp)
      .addColumn('received_at', timestamp)
      .addColumn('cancelled_at', timestamp),
    { softDelete: true },
  ).execute();
  await withId(db, db.schema.createTable('stock_transfer_items'))
    .addColumn('transfer_id', 'integer', (c) => c.notNull().references('stock_transfers.id'))
    .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id'))
    .addColumn('unit_id', 'integer', (c) => c.notNull().references('units.id'))
    .addColumn('factor', 'integer', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('stock_transfer_items_transfer')
    .on('stock_transfer_items')
    .column('transfer_id')
    .execute();

  await withTimestamps(
    db,
    withId(db, db.schema.createTable('purchases'))
      .addColumn('number', 'varchar(30)', (c) => c.notNull().unique())
      .addColumn('supplier_id', 'integer', (c) => c.notNull().references('suppliers.id'))
      .addColumn('store_id', 'integer', (c) => c.notNull().references('stores.id'))
      .addColumn('purchase_date', date, (c) => c.notNull())
      .addColumn('notes', 'varchar(500)')
      .addColumn('status', 'varchar(20)', (c) => c.notNull())
      .addColumn('subtotal_cents', 'bigint', (c) => c.notNull())
      .addColumn('shipping_cents', 'bigint', (c) => c.notNull())
      .addColumn('tax_cents', 'bigint', (c) => c.notNull())
      .addColumn('grand_total_cents', 'bigint', (c) => c.notNull())
      .addColumn('paid_cents', 'bigint', (c) => c.notNull())
      .addColumn('payment_status', 'varchar(20)', (c) => c.notNull())
      .addColumn('items_count', 'integer', (c) => c.notNull())
      .addColumn('created_by', 'integer', (c) => c.references('users.id'))
      .addColumn('received_at', timestamp)
      .addColumn('cancelled_at', timestamp),
    { softDelete: true },
  ).execute();
  await db.schema.createIndex('purchases_supplier').on('purchases').column('supplier_id').execute();
  await db.schema.createIndex('purchases_date').on('purchases').column('purchase_date').execute();
  await withId(db, db.schema.createTable('purchase_items'))
    .addColumn('purchase_id', 'integer', (c) => c.notNull().references('purchases.id'))
    .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id'))
    .addColumn('unit_id', 'integer', (c) => c.notNull().references('units.id'))
    .addColumn('factor', 'integer', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('received_quantity', 'integer', (c) => c.notNull())
    .addColumn('unit_price_cents', 'bigint', (c) => c.notNull())
    .addColumn('line_total_cents', 'bigint', (c) => c.notNull())
    .addColumn('shipping_share_cents', 'bigint', (c) => c.notNull())
    // the landed value already received into stock: the last receipt takes exactly what is left
    .addColumn('received_value_cents', 'bigint', (c) => c.notNull())
    .addColumn('lot', 'varchar(40)')
    .addColumn('expiry_date', date)
    .execute();
  await db.schema.createIndex('purchase_items_purchase').on('purchase_items').column('purchase_id').execute();
  await db.schema.createIndex('purchase_items_product').on('purchase_items').column('product_id').execute();
  await withId(db, db.schema.createTable('purchase_payments'))
    .addColumn('purchase_id', 'integer', (c) => c.notNull().references('purchases.id'))
    .addColumn('amount_cents', 'bigint', (c) => c.notNull())
    .addColumn('method', 'varchar(20)', (c) => c.notNull())
    .addColumn('paid_at', date, (c) => c.notNull())
    .addColumn('reference', 'varchar(100)')
    .addColumn('note', 'varchar(500)')
    .addColumn('created_by', 'integer', (c) => c.references('users.id'))
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('purchase_payments_purchase').on('purchase_payments').column('purchase_id').execute();

  // Retried writes (DESIGN.md section 3): the first answer to a key, replayed for the same request.
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('key', 'varchar(100)', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('route', 'varchar(100)', (c) => c.notNull())
    .addColumn('request_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('response', 'text')
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['user_id', 'key'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'idempotency_keys',
    'purchase_payments',
    'purchase_items',
    'purchases',
    'stock_transfer_items',
    'stock_transfers',
    'stock_adjustments',
    'stock_movements',
    'stock_valuations',
    'stock_levels',
    'stock_batches',
    'sequences',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
