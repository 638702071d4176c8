import type { Kysely } from 'kysely';
import { withId, withTimestamps } from './helpers.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('stores')
    .addColumn('village_id', 'integer', (c) => c.references('villages.id'))
    .execute();

  await withTimestamps(
    db,
    withId(db, db.schema.createTable('customers'))
      .addColumn('name', 'varchar(50)', (c) => c.notNull())
      .addColumn('phone', 'varchar(20)')
      .addColumn('address', 'varchar(255)')
      .addColumn('shipping_address', 'varchar(255)')
      .addColumn('village_id', 'integer', (c) => c.references('villages.id'))
      .addColumn('status', 'varchar(10)', (c) => c.notNull().defaultTo('active'))
      .addColumn('is_walk_in', 'integer', (c) => c.notNull().defaultTo(0)),
    { softDelete: true },
  ).execute();
  await db.schema.createIndex('customers_phone').on('customers').column('phone').execute();

  await withTimestamps(
    db,
    withId(db, db.schema.createTable('suppliers'))
      .addColumn('name', 'varchar(50)', (c) => c.notNull())
      .addColumn('type', 'varchar(20)', (c) => c.notNull().defaultTo('company'))
      .addColumn('phone', 'varchar(20)')
      .addColumn('address', 'varchar(255)')
      .addColumn('shipping_address', 'varchar(255)')
      .addColumn('village_id', 'integer', (c) => c.references('villages.id'))
      .addColumn('status', 'varchar(10)', (c) => c.notNull().defaultTo('active')),
    { softDelete: true },
  ).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('suppliers').execute();
  await db.schema.dropTable('customers').execute();
  await db.schema.alterTable('stores').dropColumn('village_id').execute();
}
