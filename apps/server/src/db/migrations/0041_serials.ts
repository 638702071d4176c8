import type { Kysely } from 'kysely';
import { columnTypes, withId } from './helpers.ts';

/**
 * Serial and IMEI numbers (issue 28). `products.serial_tracked` makes each unit of a product carry
 * its serial (received, sold, returned and transferred by it); `warranty_months` is what a unit
 * sold carries. `product_serials` is one row per unit: where it is and in which state (in_stock,
 * sold, returned: back in stock after a return, moved: on its way in a transfer), the purchase line
 * that brought it, the sale line that sold it last. Unique per product. The lines that name
 * serials before they move keep them as a JSON array (`serials`): a held cart's, a transfer's.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp } = columnTypes(db);
  await db.schema
    .alterTable('products')
    .addColumn('serial_tracked', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('products')
    .addColumn('warranty_months', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await withId(db, db.schema.createTable('product_serials'))
    .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id'))
    .addColumn('serial', 'varchar(64)', (c) => c.notNull())
    .addColumn('store_id', 'integer', (c) => c.notNull().references('stores.id'))
    .addColumn('status', 'varchar(12)', (c) => c.notNull())
    .addColumn('purchase_item_id', 'integer', (c) => c.references('purchase_items.id'))
    .addColumn('order_item_id', 'integer', (c) => c.references('order_items.id'))
    .addColumn('transfer_id', 'integer', (c) => c.references('stock_transfers.id'))
    .addColumn('warranty_months', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sold_at', timestamp)
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addColumn('updated_at', timestamp, (c) => c.notNull())
    .addUniqueConstraint('product_serials_product_serial', ['product_id', 'serial'])
    .execute();
  await db.schema.createIndex('product_serials_serial').on('product_serials').column('serial').execute();
  await db.schema.createIndex('product_serials_order_item').on('product_serials').column('order_item_id').execute();
  await db.schema.createIndex('product_serials_transfer').on('product_serials').column('transfer_id').execute();
  await db.schema.alterTable('order_items').addColumn('serials', 'text').execute();
  await db.schema.alterTable('stock_transfer_items').addColumn('serials', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('stock_transfer_items').dropColumn('serials').execute();
  await db.schema.alterTable('order_items').dropColumn('serials').execute();
  await db.schema.dropTable('product_serials').execute();
  await db.schema.alterTable('products').dropColumn('warranty_months').execute();
  await db.schema.alterTable('products').dropColumn('serial_tracked').execute();
}
