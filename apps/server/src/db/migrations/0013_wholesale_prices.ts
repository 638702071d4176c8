import { type Kysely, sql } from 'kysely';
import { withId, withTimestamps } from './helpers.ts';

/**
 * Wholesale prices: customer groups, each customer in at most one; price-list rows (a
 * unit's price or a quantity break, of a group or of the base list); and on each order line the
 * price it was sold at and why (`price_source`, the list's names, the list price before a break).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withTimestamps(
    db,
    withId(db, db.schema.createTable('customer_groups'))
      .addColumn('name_en', 'varchar(50)', (c) => c.notNull())
      .addColumn('name_kh', 'varchar(50)', (c) => c.notNull())
      .addColumn('status', 'varchar(10)', (c) => c.notNull().defaultTo('active')),
    { softDelete: true },
  ).execute();

  await db.schema
    .alterTable('customers')
    .addColumn('customer_group_id', 'integer', (c) => c.references('customer_groups.id'))
    .execute();
  await db.schema.createIndex('customers_group').on('customers').column('customer_group_id').execute();

  // product rows: unit_id and price_cents (riel optional); category rows: off_bp (a break only)
  await withTimestamps(
    db,
    withId(db, db.schema.createTable('price_lists'))
      .addColumn('customer_group_id', 'integer', (c) => c.references('customer_groups.id'))
      .addColumn('scope', 'varchar(10)', (c) => c.notNull())
      .addColumn('product_id', 'integer', (c) => c.references('products.id'))
      .addColumn('unit_id', 'integer', (c) => c.references('units.id'))
      .addColumn('category_id', 'integer', (c) => c.references('categories.id'))
      .addColumn('min_quantity', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('price_cents', 'integer')
      .addColumn('price_khr', 'bigint')
      .addColumn('off_bp', 'integer')
      .addColumn('status', 'varchar(10)', (c) => c.notNull().defaultTo('active')),
    { softDelete: true },
  ).execute();
  // one live row per list, product and unit (or category) and threshold: a race meets this index
  await db.schema
    .createIndex('price_lists_live_unique')
    .on('price_lists')
    .expression(
      sql`coalesce(customer_group_id, 0), scope, coalesce(product_id, 0), coalesce(unit_id, 0), coalesce(category_id, 0), min_quantity`,
    )
    .unique()
    .where(sql.ref('deleted_at'), 'is', null)
    .execute();
  await db.schema.createIndex('price_lists_product').on('price_lists').column('product_id').execute();
  await db.schema.createIndex('price_lists_category').on('price_lists').column('category_id').execute();
  await db.schema.createIndex('price_lists_group').on('price_lists').column('customer_group_id').execute();

  await db.schema
    .alterTable('order_items')
    .addColumn('price_source', 'varchar(10)', (c) => c.notNull().defaultTo('product'))
    .execute();
  await db.schema.alterTable('order_items').addColumn('list_price_cents', 'integer').execute();
  await db.schema.alterTable('order_items').addColumn('price_list_en', 'varchar(50)').execute();
  await db.schema.alterTable('order_items').addColumn('price_list_kh', 'varchar(50)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['price_list_kh', 'price_list_en', 'list_price_cents', 'price_source']) {
    await db.schema.alterTable('order_items').dropColumn(column).execute();
  }
  await db.schema.dropTable('price_lists').execute();
  await db.schema.dropIndex('customers_group').execute();
  await db.schema.alterTable('customers').dropColumn('customer_group_id').execute();
  await db.schema.dropTable('customer_groups').execute();
}
