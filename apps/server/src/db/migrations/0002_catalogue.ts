import { type Kysely, sql } from 'kysely';
import { lower, withId, withTimestamps } from './helpers.ts';

/** Names are unique among live records, whatever their case; a deleted record frees its name. */
async function uniqueLive(db: Kysely<unknown>, table: string, column: string) {
  await db.schema
    .createIndex(`${table}_${column}_live_unique`)
    .on(table)
    .expression(lower(column))
    .unique()
    .where(sql.ref('deleted_at'), 'is', null)
    .execute();
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await withTimestamps(
    db,
    withId(db, db.schema.createTable('brands'))
      .addColumn('name', 'varchar(50)', (c) => c.notNull())
      .addColumn('description', 'varchar(255)')
      .addColumn('status', 'varchar(10)', (c) => c.notNull().defaultTo('active')),
    { softDelete: true },
  ).execute();
  await uniqueLive(db, 'brands', 'name');

  await withTimestamps(
    db,
    withId(db, db.schema.createTable('categories'))
      .addColumn('name_en', 'varchar(50)', (c) => c.notNull())
      .addColumn('name_kh', 'varchar(50)', (c) => c.notNull())
      .addColumn('description', 'varchar(255)')
      .addColumn('status', 'varchar(10)', (c) => c.notNull().defaultTo('active')),
    { softDelete: true },
  ).execute();
  await uniqueLive(db, 'categories', 'name_en');
  await uniqueLive(db, 'categories', 'name_kh');

  await withTimestamps(
    db,
    withId(db, db.schema.createTable('sub_categories'))
      .addColumn('category_id', 'integer', (c) => c.notNull().references('categories.id'))
      .addColumn('name_en', 'varchar(50)', (c) => c.notNull())
      .addColumn('name_kh', 'varchar(50)', (c) => c.notNull())
      .addColumn('status', 'varchar(10)', (c) => c.notNull().defaultTo('active')),
    { softDelete: true },
  ).execute();
  await db.schema.createIndex('sub_categories_category').on('sub_categories').column('category_id').execute();
  await uniqueLive(db, 'sub_categories', 'name_en');
  await uniqueLive(db, 'sub_categories', 'name_kh');

  await withTimestamps(
    db,
    withId(db, db.schema.createTable('units'))
      .addColumn('name_en', 'varchar(50)', (c) => c.notNull())
      .addColumn('name_kh', 'varchar(50)', (c) => c.notNull())
      .addColumn('short_name', 'varchar(10)', (c) => c.notNull())
      .addColumn('base_unit_id', 'integer', (c) => c.references('units.id'))
      .addColumn('factor', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('status', 'varchar(10)', (c) => c.notNull().defaultTo('active')),
    { softDelete: true },
  ).execute();
  await db.schema.createIndex('units_base_unit').on('units').column('base_unit_id').execute();
  await uniqueLive(db, 'units', 'name_en');
  await uniqueLive(db, 'units', 'name_kh');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['units', 'sub_categories', 'categories', 'brands']) {
    await db.schema.dropTable(table).execute();
  }
}
