import { type Kysely, sql } from 'kysely';
import { columnTypes, lower, withId, withTimestamps } from './helpers.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  const { date } = columnTypes(db);
  await withTimestamps(
    db,
    withId(db, db.schema.createTable('products'))
      .addColumn('name_en', 'varchar(50)', (c) => c.notNull())
      .addColumn('name_kh', 'varchar(50)', (c) => c.notNull())
      .addColumn('short_name', 'varchar(30)')
      .addColumn('sku', 'varchar(40)', (c) => c.notNull())
      .addColumn('barcode', 'varchar(50)')
      .addColumn('brand_id', 'integer', (c) => c.references('brands.id'))
      .addColumn('category_id', 'integer', (c) => c.notNull().references('categories.id'))
      .addColumn('sub_category_id', 'integer', (c) => c.references('sub_categories.id'))
      .addColumn('unit_id', 'integer', (c) => c.notNull().references('units.id'))
      .addColumn('price_usd_cents', 'integer', (c) => c.notNull())
      .addColumn('price_khr', 'bigint')
      .addColumn('cost_usd_cents', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('taxable', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('image_path', 'varchar(255)')
      .addColumn('thumbnail_path', 'varchar(255)')
      .addColumn('expiry_date', date)
      .addColumn('reorder_level', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('status', 'varchar(10)', (c) => c.notNull().defaultTo('active')),
    { softDelete: true },
  ).execute();
  const live = sql.ref('deleted_at');
  await db.schema
    .createIndex('products_sku_live_unique')
    .on('products')
    .expression(lower('sku'))
    .unique()
    .where(live, 'is', null)
    .execute();
  await db.schema
    .createIndex('products_barcode_live_unique')
    .on('products')
    .expression(lower('barcode'))
    .unique()
    .where(live, 'is', null)
    .execute();
  // the list's default order; searching names scans (an index-backed search is still to come)
  await db.schema.createIndex('products_name_en').on('products').column('name_en').execute();
  await db.schema.createIndex('products_name_kh').on('products').column('name_kh').execute();
  for (const column of ['brand_id', 'category_id', 'sub_category_id', 'unit_id', 'expiry_date']) {
    await db.schema.createIndex(`products_${column}`).on('products').column(column).execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('products').execute();
}
