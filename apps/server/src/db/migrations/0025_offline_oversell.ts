import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../database.ts';
import { columnTypes, withId } from './helpers.ts';

/**
 * A sale made offline may take a level below zero (issue "offline till": stock could not be checked
 * on the device). The check `stock_levels_not_negative` goes: non-negativity of every other issue is
 * the ledger writer's (a conditional decrement, `quantity >= n`, its rows counted). PostgreSQL drops
 * the constraint; SQLite cannot drop one, so its table is rebuilt as 0007 made it, without the check.
 * The order keeps that it was sold offline (when, and the device's receipt number), whether it
 * oversold (1: the lists' tag and filter), and each line how many base units it sold beyond the stock.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp } = columnTypes(db);
  if (isPostgres(db)) {
    await sql`alter table stock_levels drop constraint stock_levels_not_negative`.execute(db);
  } else {
    await withId(db, db.schema.createTable('stock_levels_next'))
      .addColumn('store_id', 'integer', (c) => c.notNull().references('stores.id'))
      .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id'))
      .addColumn('batch_id', 'integer', (c) => c.notNull().references('stock_batches.id'))
      .addColumn('quantity', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', timestamp, (c) => c.notNull())
      .addUniqueConstraint('stock_levels_store_batch', ['store_id', 'batch_id'])
      .execute();
    await sql`insert into stock_levels_next (id, store_id, product_id, batch_id, quantity, updated_at)
      select id, store_id, product_id, batch_id, quantity, updated_at from stock_levels`.execute(db);
    await db.schema.dropTable('stock_levels').execute();
    await db.schema.alterTable('stock_levels_next').renameTo('stock_levels').execute();
    await db.schema
      .createIndex('stock_levels_product')
      .on('stock_levels')
      .columns(['product_id', 'store_id'])
      .execute();
    await db.schema.createIndex('stock_levels_store').on('stock_levels').columns(['store_id', 'product_id']).execute();
  }
  await db.schema.alterTable('orders').addColumn('offline_sold_at', timestamp).execute();
  await db.schema.alterTable('orders').addColumn('offline_receipt_no', 'varchar(40)').execute();
  await db.schema
    .alterTable('orders')
    .addColumn('oversold', 'smallint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('order_items')
    .addColumn('oversold', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('order_items').dropColumn('oversold').execute();
  await db.schema.alterTable('orders').dropColumn('oversold').execute();
  await db.schema.alterTable('orders').dropColumn('offline_receipt_no').execute();
  await db.schema.alterTable('orders').dropColumn('offline_sold_at').execute();
  if (isPostgres(db)) {
    await sql`alter table stock_levels add constraint stock_levels_not_negative check (quantity >= 0)`.execute(db);
  }
}
