import type { Kysely } from 'kysely';

/**
 * Reports read the documents and the ledger as they are (no rollup that could lag behind a sale);
 * these indexes let them find a period's rows without reading the whole table: the ledger's
 * movements, returns and payments by their own time (orders have theirs since 0009).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('stock_movements_time').on('stock_movements').columns(['created_at']).execute();
  await db.schema.createIndex('order_returns_time').on('order_returns').columns(['created_at']).execute();
  await db.schema.createIndex('order_payments_time').on('order_payments').columns(['created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('order_payments_time').execute();
  await db.schema.dropIndex('order_returns_time').execute();
  await db.schema.dropIndex('stock_movements_time').execute();
}
