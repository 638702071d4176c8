import type { AdjustmentReason, LowStock, MovementType, StockBatch, StockLevel, StockMovement } from '@depot/contracts';
import { type SelectQueryBuilder, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { searchCondition } from '../../kit/search.ts';
import { productSearch as products } from '../products/products.search.ts';
import { share } from './ledger.ts';
import { lowPairs, type Narrow, levelPairs as pairsOf, reorderQuantity } from './low.ts';

/** The read side of stock: levels, movements, batches and low stock, one page at a time. */

export interface Page {
  page: number;
  per_page: number;
}

const offset = (p: Page) => (p.page - 1) * p.per_page;

/** Valuations of some products: their average cost, and what a quantity of each is worth. */
async function valuations(db: Db, productIds: number[]) {
  const rows = productIds.length
    ? await db
        .selectFrom('stock_valuations')
        .select(['product_id', 'quantity', 'value_cents'])
        .where('product_id', 'in', productIds)
        .execute()
    : [];
  const byProduct = new Map(
    rows.map((r) => [r.product_id, { quantity: Number(r.quantity), value: Number(r.value_cents) }]),
  );
  return {
    average: (productId: number) => {
      const v = byProduct.get(productId);
      return v && v.quantity > 0 ? share(v.value, 1, v.quantity) : 0;
    },
    worth: (productId: number, quantity: number) => {
      const v = byProduct.get(productId);
      // a level below zero (an offline sale's shortage) is owed, not worth anything
      if (!v || v.quantity <= 0 || quantity <= 0) return 0;
      return v.quantity === quantity ? v.value : share(v.value, quantity, v.quantity);
    },
  };
}

export interface LevelFilters {
  /** The levels of the user's stores (stock_levels.store_id). */
  scope: Narrow;
  search?: string;
  store_id?: number;
  category_id?: number;
  low?: boolean;
  sort?: string;
}

const LEVEL_SORTS: Record<string, string> = {
  name_en: 'products.name_en',
  name_kh: 'products.name_kh',
  sku: 'products.sku',
  quantity: 'quantity',
  store: 'stores.name',
};

/** Sort names the levels list accepts (`-quantity` descending). */
export const levelSorts = Object.keys(LEVEL_SORTS);

/** Store × product pairs that have ever held the product (low.ts), with their quantity, narrowed. */
async function levelPairs(db: Db, filters: LevelFilters) {
  let query = pairsOf(db, filters.scope, filters.store_id);
  if (filters.category_id) query = query.where('products.category_id', '=', filters.category_id);
  const matches = filters.search ? await searchCondition(db, products, filters.search) : null;
  if (matches) query = query.where(matches);
  return filters.low ? lowPairs(query) : query;
}

export async function listLevels(db: Db, filters: LevelFilters, page: Page) {
  const pairs = await levelPairs(db, filters);
  const total = Number(
    (
      await db
        .selectFrom(pairs.select('stock_levels.product_id').as('pairs'))
        .select(sql<number>`count(*)`.as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  const sort = filters.sort ?? 'name_en';
  const desc = sort.startsWith('-');
  const column = LEVEL_SORTS[desc ? sort.slice(1) : sort] ?? LEVEL_SORTS.name_en;
  const rows = await pairs
    .innerJoin('units', 'units.id', 'products.unit_id')
    .select([
      'stock_levels.store_id',
      sql<string>`max(stores.name)`.as('store_name'),
      'stock_levels.product_id',
      sql<string>`max(products.name_en)`.as('product_name_en'),
      sql<string>`max(products.name_kh)`.as('product_name_kh'),
      sql<string>`max(products.sku)`.as('sku'),
      sql<string | null>`max(products.barcode)`.as('barcode'),
      sql<string>`max(units.name_en)`.as('unit_name_en'),
      sql<string>`max(units.name_kh)`.as('unit_name_kh'),
      sql<number>`max(units.decimals)`.as('unit_decimals'),
      sql<number>`max(products.reorder_level)`.as('reorder_level'),
      sql<number>`sum(stock_levels.quantity)`.as('quantity'),
    ])
    .orderBy(
      column === 'quantity' ? sql`sum(stock_levels.quantity)` : sql`max(${sql.ref(column)})`,
      desc ? 'desc' : 'asc',
    )
    .orderBy('stock_levels.product_id')
    .orderBy('stock_levels.store_id')
    .limit(page.per_page)
    .offset(offset(page))
    .execute();

  const productIds = [...new Set(rows.map((r) => r.product_id))];
  const storeIds = [...new Set(rows.map((r) => r.store_id))];
  const batches = rows.length
    ? await db
        .selectFrom('stock_levels')
        .innerJoin('stock_batches', 'stock_batches.id', 'stock_levels.batch_id')
        .select([
          'stock_levels.store_id',
          'stock_levels.product_id',
          'stock_batches.id',
          'stock_batches.lot',
          'stock_batches.expiry_date',
          'stock_levels.quantity',
        ])
        .where('stock_levels.product_id', 'in', productIds)
        .where('stock_levels.store_id', 'in', storeIds)
        .where('stock_levels.quantity', '>', 0)
        .orderBy(sql`case when stock_batches.expiry_date is null then 1 else 0 end`)
        .orderBy('stock_batches.expiry_date')
        .orderBy('stock_batches.id')
        .execute()
    : [];
  const worth = await valuations(db, productIds);
  const data: StockLevel[] = rows.map((r) => {
    const quantity = Number(r.quantity);
    return {
      ...r,
      quantity,
      reorder_level: Number(r.reorder_level),
      unit_decimals: Number(r.unit_decimals),
      average_cost_cents: worth.average(r.product_id),
      value_cents: worth.worth(r.product_id, quantity),
      batches: batches
        .filter((b) => b.store_id === r.store_id && b.product_id === r.product_id)
        .map((b) => ({ id: b.id, lot: b.lot, expiry_date: b.expiry_date, quantity: Number(b.quantity) })),
    };
  });
  return { data, total };
}

export interface MovementFilters {
  /** The movements of the user's stores (stock_movements.store_id). */
  scope: Narrow;
  product_id?: number;
  store_id?: number;
  type?: MovementType;
  document_type?: string;
  document_id?: number;
}

export async function listMovements(db: Db, filters: MovementFilters, page: Page) {
  const narrow = (query: MovementQuery) => {
    let q = filters.scope(query);
    if (filters.product_id) q = q.where('stock_movements.product_id', '=', filters.product_id);
    if (filters.store_id) q = q.where('stock_movements.store_id', '=', filters.store_id);
    if (filters.type) q = q.where('stock_movements.type', '=', filters.type);
    if (filters.document_type) q = q.where('stock_movements.document_type', '=', filters.document_type);
    if (filters.document_id) q = q.where('stock_movements.document_id', '=', filters.document_id);
    return q;
  };
  const counted = await narrow(db.selectFrom('stock_movements'))
    .select(sql<number>`count(*)`.as('n'))
    .executeTakeFirstOrThrow();
  const rows = await movementRows(db, (q) =>
    narrow(q).orderBy('stock_movements.id', 'desc').limit(page.per_page).offset(offset(page)),
  );
  return { data: rows, total: Number(counted.n) };
}

type MovementQuery = SelectQueryBuilder<DB, 'stock_movements', object>;

/** Movements as the API shows them, from a narrowing of the table (which, in what order). */
export async function movementRows(db: Db, narrow: (query: MovementQuery) => MovementQuery): Promise<StockMovement[]> {
  const rows = await narrow(db.selectFrom('stock_movements'))
    .innerJoin('stores', 'stores.id', 'stock_movements.store_id')
    .innerJoin('products', 'products.id', 'stock_movements.product_id')
    .innerJoin('stock_batches', 'stock_batches.id', 'stock_movements.batch_id')
    .leftJoin('users', 'users.id', 'stock_movements.user_id')
    .select([
      'stock_movements.id',
      'stock_movements.type',
      'stock_movements.store_id',
      'stores.name as store_name',
      'stock_movements.product_id',
      'products.name_en as product_name_en',
      'products.name_kh as product_name_kh',
      'products.sku',
      'stock_movements.batch_id',
      'stock_batches.lot',
      'stock_batches.expiry_date',
      'stock_movements.quantity',
      'stock_movements.value_cents',
      'stock_movements.balance',
      'stock_movements.reason',
      'stock_movements.note',
      'stock_movements.document_type',
      'stock_movements.document_id',
      sql<string | null>`coalesce(users.full_name, users.name)`.as('user_name'),
      'stock_movements.created_at',
    ])
    .execute();
  return rows.map((r) => ({
    ...r,
    type: r.type as MovementType,
    quantity: Number(r.quantity),
    value_cents: Number(r.value_cents),
    balance: Number(r.balance),
    reason: r.reason as AdjustmentReason | null,
  }));
}

export interface BatchFilters {
  /** The batches of the user's stores (stock_levels.store_id). */
  scope: Narrow;
  search?: string;
  store_id?: number;
  /** Before `today`. */
  expired?: boolean;
  /** From today to this date, inclusive. */
  expiring_until?: string;
  today: string;
}

const dayMs = 86_400_000;
const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / dayMs);

export async function listBatches(db: Db, filters: BatchFilters, page: Page) {
  let query = db
    .selectFrom('stock_levels')
    .innerJoin('stock_batches', 'stock_batches.id', 'stock_levels.batch_id')
    .innerJoin('products', 'products.id', 'stock_levels.product_id')
    .innerJoin('stores', 'stores.id', 'stock_levels.store_id')
    .innerJoin('units', 'units.id', 'products.unit_id')
    .where('stock_levels.quantity', '>', 0)
    .where('stock_batches.expiry_date', 'is not', null)
    .where('products.deleted_at', 'is', null);
  query = filters.scope(query);
  if (filters.store_id) query = query.where('stock_levels.store_id', '=', filters.store_id);
  if (filters.expired) query = query.where('stock_batches.expiry_date', '<', filters.today);
  if (filters.expiring_until) {
    query = query
      .where('stock_batches.expiry_date', '>=', filters.today)
      .where('stock_batches.expiry_date', '<=', filters.expiring_until);
  }
  const matches = filters.search ? await searchCondition(db, products, filters.search) : null;
  if (matches) query = query.where(matches);
  const total = Number((await query.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);
  const rows = await query
    .select([
      'stock_levels.store_id',
      'stores.name as store_name',
      'stock_levels.product_id',
      'products.name_en as product_name_en',
      'products.name_kh as product_name_kh',
      'products.sku',
      'units.name_en as unit_name_en',
      'units.name_kh as unit_name_kh',
      'units.decimals as unit_decimals',
      'stock_batches.id as batch_id',
      'stock_batches.lot',
      'stock_batches.expiry_date',
      'stock_levels.quantity',
    ])
    .orderBy('stock_batches.expiry_date')
    .orderBy('stock_levels.id')
    .limit(page.per_page)
    .offset(offset(page))
    .execute();
  const worth = await valuations(db, [...new Set(rows.map((r) => r.product_id))]);
  const data: StockBatch[] = rows.map((r) => {
    const quantity = Number(r.quantity);
    return {
      ...r,
      quantity,
      value_cents: worth.worth(r.product_id, quantity),
      days_left: r.expiry_date ? daysBetween(filters.today, r.expiry_date) : null,
    };
  });
  return { data, total };
}

export async function listLow(db: Db, filters: { scope: Narrow; search?: string; store_id?: number }, page: Page) {
  const { data, total } = await listLevels(db, { ...filters, low: true, sort: 'quantity' }, page);
  const rows: LowStock[] = data.map((level) => ({
    store_id: level.store_id,
    store_name: level.store_name,
    product_id: level.product_id,
    product_name_en: level.product_name_en,
    product_name_kh: level.product_name_kh,
    sku: level.sku,
    unit_name_en: level.unit_name_en,
    unit_name_kh: level.unit_name_kh,
    unit_decimals: level.unit_decimals,
    quantity: level.quantity,
    reorder_level: level.reorder_level,
    reorder_quantity: reorderQuantity(level),
  }));
  return { data: rows, total };
}

/** A unit's factor for a product: 1 for its own unit, N for a unit made of it; null for any other. */
export function factorFor(productUnitId: number, unit: { id: number; base_unit_id: number | null; factor: number }) {
  if (unit.id === productUnitId) return 1;
  return unit.base_unit_id === productUnitId ? Number(unit.factor) : null;
}

/** The factor of a live unit for a product (see `factorFor`), or null. */
export async function unitFactor(db: Db, productId: number, unitId: number): Promise<number | null> {
  const row = await db
    .selectFrom('products')
    .innerJoin('units', (join) => join.on('units.id', '=', unitId).on('units.deleted_at', 'is', null))
    .select(['products.unit_id', 'units.id', 'units.base_unit_id', 'units.factor'])
    .where('products.id', '=', productId)
    .executeTakeFirst();
  return row ? factorFor(row.unit_id, row) : null;
}
