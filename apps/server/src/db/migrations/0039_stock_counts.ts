import type { Kysely } from 'kysely';
import { columnTypes, withId, withTimestamps } from './helpers.ts';

/**
 * Stock counts (issue 28). A count is a document of one store and a zone; its lines are one per
 * product (unique: concurrent scans of a product add to one line), each with what was counted and
 * what the store held when the line was first scanned (`expected`), so a sale made while the count
 * goes on is not counted twice. `difference_value_cents` is what the approval posted, at cost.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp } = columnTypes(db);
  await withTimestamps(
    db,
    withId(db, db.schema.createTable('stock_counts'))
      .addColumn('number', 'varchar(30)', (c) => c.notNull().unique())
      .addColumn('store_id', 'integer', (c) => c.notNull().references('stores.id'))
      .addColumn('zone', 'varchar(60)')
      .addColumn('note', 'varchar(255)')
      .addColumn('status', 'varchar(20)', (c) => c.notNull())
      .addColumn('created_by', 'integer', (c) => c.references('users.id'))
      .addColumn('submitted_at', timestamp)
      .addColumn('approved_at', timestamp)
      .addColumn('approved_by', 'integer', (c) => c.references('users.id'))
      .addColumn('cancelled_at', timestamp)
      .addColumn('adjustment_id', 'integer', (c) => c.references('stock_adjustments.id')),
    { softDelete: true },
  ).execute();
  await db.schema.createIndex('stock_counts_store').on('stock_counts').columns(['store_id', 'status']).execute();
  await withId(db, db.schema.createTable('stock_count_lines'))
    .addColumn('count_id', 'integer', (c) => c.notNull().references('stock_counts.id'))
    .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id'))
    .addColumn('counted', 'bigint', (c) => c.notNull())
    .addColumn('expected', 'bigint', (c) => c.notNull())
    .addColumn('difference_value_cents', 'bigint')
    .addColumn('scanned_by', 'integer', (c) => c.references('users.id'))
    .addColumn('scanned_at', timestamp, (c) => c.notNull())
    .addColumn('updated_at', timestamp, (c) => c.notNull())
    .addUniqueConstraint('stock_count_lines_product', ['count_id', 'product_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('stock_count_lines').execute();
  await db.schema.dropIndex('stock_counts_store').execute();
  await db.schema.dropTable('stock_counts').execute();
}
