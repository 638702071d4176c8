import { type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/** What the user may see of a query (their stores): the stock policy's scopes (policies/stock.ts). */
// biome-ignore lint/suspicious/noExplicitAny: a scope narrows a query of any tables
export type Narrow = <Q extends SelectQueryBuilder<any, any, any>>(query: Q) => Q;

/**
 * Low stock, the one definition the list (GET /api/stocks/low and its count), the dashboards'
 * alert, the low-stock notification and the inventory report's reorder list all use: an active
 * product with a reorder level (0 means nobody asked to be told), whose quantity (in a store, or
 * wherever the caller sums it) is at or under that level. `quantity` is the caller's sum;
 * `products` the alias of the products table, whose id the query groups by (its other columns then
 * read the same on both databases).
 */
export function lowStock(quantity: RawBuilder<number>, products = 'products'): RawBuilder<boolean> {
  const p = (column: string) => sql.ref(`${products}.${column}`);
  return sql<boolean>`(${p('status')} = 'active' and ${p('reorder_level')} > 0 and ${quantity} <= ${p('reorder_level')})`;
}

/**
 * How much to order of a low product: enough to stand at twice its reorder level again, or at 30
 * days of its sales when it sells faster than that (`perDay`, 0 when its sales are not known).
 */
export function reorderQuantity(level: { quantity: number; reorder_level: number }, perDay = 0): number {
  return Math.max(0, Math.ceil(Math.max(2 * level.reorder_level, 30 * perDay) - level.quantity));
}

/**
 * Store × product pairs that have ever held the product (a live product in a live store), with
 * their quantity, narrowed to what the user may see and to a store.
 */
export function levelPairs(db: Db, scope: Narrow, storeId?: number) {
  let query = db
    .selectFrom('stock_levels')
    .innerJoin('products', 'products.id', 'stock_levels.product_id')
    .innerJoin('stores', 'stores.id', 'stock_levels.store_id')
    .where('products.deleted_at', 'is', null)
    .where('stores.deleted_at', 'is', null)
    .groupBy(['stock_levels.store_id', 'stock_levels.product_id', 'products.id']);
  query = scope(query);
  if (storeId) query = query.where('stock_levels.store_id', '=', storeId);
  return query;
}

/** The pairs that are low (`lowStock`). */
export function lowPairs<Q extends ReturnType<typeof levelPairs>>(query: Q): Q {
  return query.having(lowStock(sql<number>`sum(stock_levels.quantity)`)) as Q;
}

/** How many store × product pairs are low: the dashboards' alert and GET /api/stocks/low/count. */
export async function countLow(db: Db, scope: Narrow, storeId?: number): Promise<number> {
  const pairs = lowPairs(levelPairs(db, scope, storeId));
  const row = await db
    .selectFrom(pairs.select('stock_levels.product_id').as('pairs'))
    .select(sql<number>`count(*)`.as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
