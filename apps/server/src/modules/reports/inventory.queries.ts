import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { type Actor, inStores } from '../../policies/policy.ts';
import { lowStock } from '../stock/low.ts';
import { type Filter, isoOf, type Range, type ReportQuery } from './reports.query.ts';
import { num } from './reports.sql.ts';
import { SOLD } from './sales.queries.ts';

/** Batches in stock that expire on or before a day (expired ones included), narrowed to the actor's stores. */
export function expiringLevels(db: Db, actor: Actor, until: string) {
  const q = db
    .selectFrom('stock_levels as l')
    .innerJoin('stock_batches as b', 'b.id', 'l.batch_id')
    .where('l.quantity', '>', 0)
    .where('b.expiry_date', 'is not', null)
    .where('b.expiry_date', '<=', until);
  return inStores(q, actor, 'l.store_id');
}

/** The inventory report's queries: stock on hand, low, moved, sold and expiring. */
export function inventoryQueries(db: Db, rq: ReportQuery) {
  /** The levels now of live products, narrowed to the actor's stores and the filter. */
  function levels(actor: Actor, f: Filter) {
    let q = db
      .selectFrom('stock_levels as l')
      .innerJoin('products as p', 'p.id', 'l.product_id')
      .where('p.deleted_at', 'is', null);
    q = inStores(q, actor, 'l.store_id');
    if (f.storeId) q = q.where('l.store_id', '=', f.storeId);
    if (f.categoryId) q = q.where('p.category_id', '=', f.categoryId);
    if (f.brandId) q = q.where('p.brand_id', '=', f.brandId);
    return q;
  }

  return {
    /** On hand now per store and product, with each product's average cost (valuation ÷ quantity). */
    async onHand(actor: Actor, f: Filter) {
      const rows = await levels(actor, f)
        .leftJoin('stock_valuations as v', 'v.product_id', 'l.product_id')
        .select([
          'l.store_id',
          'l.product_id',
          sql<number>`sum(l.quantity)`.as('on_hand'),
          sql<number>`max(v.quantity)`.as('valued_quantity'),
          sql<number>`max(v.value_cents)`.as('valued_cents'),
          sql<string>`max(p.name_en)`.as('name_en'),
          sql<string>`max(p.name_kh)`.as('name_kh'),
          sql<string>`max(p.sku)`.as('sku'),
          sql<number>`max(p.category_id)`.as('category_id'),
          sql<number>`max(p.reorder_level)`.as('reorder_level'),
        ])
        .groupBy(['l.store_id', 'l.product_id'])
        .execute();
      return rows.map((r) => ({
        store_id: num(r.store_id),
        product_id: num(r.product_id),
        on_hand: num(r.on_hand),
        valued_quantity: num(r.valued_quantity),
        valued_cents: num(r.valued_cents),
        name_en: String(r.name_en),
        name_kh: String(r.name_kh),
        sku: String(r.sku),
        category_id: num(r.category_id),
        reorder_level: num(r.reorder_level),
      }));
    },

    /** The products low (stock/low.ts) in all the stores the report covers together. */
    async lowProducts(actor: Actor, f: Filter) {
      const rows = await levels(actor, f)
        .select('p.id')
        .groupBy('p.id')
        .having(lowStock(sql<number>`sum(l.quantity)`, 'p'))
        .execute();
      return new Set(rows.map((r) => r.id));
    },

    /** Movements of the period by type and local day (quantities in base units, values in cents). */
    async movements(actor: Actor, range: Range, f: Filter) {
      const s = rq.movementFigures(actor, range, f, 'days');
      let q = s.q;
      // the products of a category or brand, or (in the rollup) the day's total of every product (product 0)
      if (f.categoryId || f.brandId) q = q.where(s.product, 'in', rq.productsOf(f));
      else if (s.rolled) q = q.where(s.product, '=', 0);
      const rows = await q
        .select([s.day.as('day'), sql.ref(s.type).as('type'), s.quantity.as('quantity'), s.value.as('value_cents')])
        .groupBy([s.day, s.type])
        .execute();
      return rows.map((r) => ({
        day: String(r.day),
        type: String(r.type),
        quantity: num(r.quantity),
        value_cents: num(r.value_cents),
      }));
    },

    /** Units sold per product in the period (sales less their returns), and when each last sold. */
    async soldUnits(actor: Actor, range: Range, f: Filter) {
      const s = rq.movementFigures(actor, range, f, 'months');
      let q = s.ofOrders(s.q).where(s.type, 'in', SOLD);
      if (s.rolled) q = q.where(s.product, '!=', 0);
      const rows = await q
        .select([sql.ref(s.product).as('product_id'), s.quantity.as('quantity'), s.last.as('last_sold')])
        .groupBy(s.product)
        .execute();
      return new Map(
        rows.map((r) => [num(r.product_id), { sold: -num(r.quantity), last_sold: isoOf(r.last_sold) }] as const),
      );
    },

    /** Batches in stock expiring on or before `until` (expired ones included). */
    async expiring(actor: Actor, until: string, f: Filter, limit = 200) {
      let q = expiringLevels(db, actor, until)
        .innerJoin('products as p', 'p.id', 'l.product_id')
        .innerJoin('stores as s', 's.id', 'l.store_id');
      if (f.storeId) q = q.where('l.store_id', '=', f.storeId);
      if (f.categoryId) q = q.where('p.category_id', '=', f.categoryId);
      const rows = await q
        .select(['p.name_en', 'p.name_kh', 'p.sku', 's.name as store', 'b.lot', 'b.expiry_date', 'l.quantity'])
        .orderBy('b.expiry_date')
        .limit(limit)
        .execute();
      return rows.map((r) => ({
        ...r,
        expiry_date: isoOf(r.expiry_date)?.slice(0, 10) ?? null,
        quantity: num(r.quantity),
      }));
    },
  };
}
