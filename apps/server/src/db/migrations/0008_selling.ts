import { type Kysely, sql } from 'kysely';
import { columnTypes, lower, withId, withTimestamps } from './helpers.ts';

/**
 * What selling needs besides the catalogue: discounts, combos (bundles of products sold at one
 * price) and the history of exchange rates. Money in US cents; rates in whole riel per dollar.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { date, timestamp } = columnTypes(db);
  const live = sql.ref('deleted_at');

  // `amount`: basis points for a percentage, cents for a value or a fixed price (pricing.ts).
  await withTimestamps(
    db,
    withId(db, db.schema.createTable('discounts'))
      .addColumn('name', 'varchar(50)', (c) => c.notNull())
      .addColumn('type', 'varchar(20)', (c) => c.notNull())
      .addColumn('amount', 'integer', (c) => c.notNull())
      .addColumn('scope', 'varchar(10)', (c) => c.notNull())
      .addColumn('product_id', 'integer', (c) => c.references('products.id'))
      .addColumn('category_id', 'integer', (c) => c.references('categories.id'))
      .addColumn('starts_on', date)
      .addColumn('ends_on', date)
      .addColumn('status', 'varchar(10)', (c) => c.notNull().defaultTo('active')),
    { softDelete: true },
  ).execute();
  await db.schema.createIndex('discounts_name').on('discounts').column('name').execute();
  await db.schema.createIndex('discounts_product').on('discounts').column('product_id').execute();
  await db.schema.createIndex('discounts_category').on('discounts').column('category_id').execute();

  await withTimestamps(
    db,
    withId(db, db.schema.createTable('combos'))
      .addColumn('name_en', 'varchar(50)', (c) => c.notNull())
      .addColumn('name_kh', 'varchar(50)', (c) => c.notNull())
      .addColumn('description', 'varchar(500)')
      .addColumn('sku', 'varchar(40)', (c) => c.notNull())
      .addColumn('barcode', 'varchar(50)')
      .addColumn('selling_price_cents', 'integer', (c) => c.notNull())
      .addColumn('status', 'varchar(10)', (c) => c.notNull().defaultTo('active'))
      .addColumn('created_by', 'integer', (c) => c.references('users.id')),
    { softDelete: true },
  ).execute();
  await db.schema
    .createIndex('combos_sku_live_unique')
    .on('combos')
    .expression(lower('sku'))
    .unique()
    .where(live, 'is', null)
    .execute();
  await db.schema
    .createIndex('combos_barcode_live_unique')
    .on('combos')
    .expression(lower('barcode'))
    .unique()
    .where(live, 'is', null)
    .execute();
  await db.schema.createIndex('combos_name_en').on('combos').column('name_en').execute();

  // The products of a combo, each in its unit (the factor kept: base units per unit).
  await withId(db, db.schema.createTable('combo_items'))
    .addColumn('combo_id', 'integer', (c) => c.notNull().references('combos.id'))
    .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id'))
    .addColumn('unit_id', 'integer', (c) => c.notNull().references('units.id'))
    .addColumn('factor', 'integer', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('combo_items_combo').on('combo_items').column('combo_id').execute();
  await db.schema.createIndex('combo_items_product').on('combo_items').column('product_id').execute();

  // Every rate entered is kept; the newest is the current one.
  await withId(db, db.schema.createTable('exchange_rates'))
    .addColumn('rate_khr', 'integer', (c) => c.notNull())
    .addColumn('rate_in_khr', 'integer')
    .addColumn('rate_out_khr', 'integer')
    .addColumn('note', 'varchar(255)')
    .addColumn('created_by', 'integer', (c) => c.references('users.id'))
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('exchange_rates_created').on('exchange_rates').columns(['created_at', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('exchange_rates').execute();
  await db.schema.dropTable('combo_items').execute();
  await db.schema.dropTable('combos').execute();
  await db.schema.dropTable('discounts').execute();
}
