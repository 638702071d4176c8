import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Actor, AnyQuery } from '../../policies/policy.ts';
import { type Filter, numbers, ofOrders, type Range, type ReportQuery } from './reports.query.ts';
import { instants, localDay, num } from './reports.sql.ts';

/** What a sale of goods and its return move in the ledger. */
export const SOLD = ['sale', 'bundle_consumption', 'return'];

const ITEM_KEYS = ['quantity', 'returned_quantity', 'gross_cents', 'discount_cents', 'net_cents', 'tax_cents'];

/** The groups of lines: by category (combos stand apart: their category is none) or by brand. */
const GROUPS = {
  category: { table: 'categories as g', id: 'p.category_id', name_en: 'g.name_en', name_kh: 'g.name_kh' },
  brand: { table: 'brands as g', id: 'p.brand_id', name_en: 'g.name', name_kh: 'g.name' },
} as const;

/** The sales report's queries (and the dashboard's figures of sales). */
export function salesQueries(db: Db, rq: ReportQuery) {
  return {
    /** Per local day: orders, gross, discounts, VAT, totals. */
    async salesDays(actor: Actor, range: Range, f: Filter) {
      const s = rq.orderFigures(actor, range, f);
      const rows = await s.q
        .select([
          s.day.as('day'),
          s.orders.as('orders'),
          s.gross_cents.as('gross_cents'),
          s.discount_cents.as('discount_cents'),
          s.tax_cents.as('tax_cents'),
          s.total_cents.as('total_cents'),
        ])
        .groupBy(s.day)
        .execute();
      return rows.map((r) => ({
        day: String(r.day),
        values: {
          orders: num(r.orders),
          gross_cents: num(r.gross_cents),
          discount_cents: num(r.discount_cents),
          tax_cents: num(r.tax_cents),
          total_cents: num(r.total_cents),
        },
      }));
    },

    /** Per local day of the return: what was refunded for goods given back. */
    async returnsDays(actor: Actor, range: Range, f: Filter) {
      const { start, end } = instants(range.from, range.to);
      const day = localDay(db, 'r.created_at');
      const q = db
        .selectFrom('order_returns as r')
        .innerJoin('orders as o', 'o.id', 'r.order_id')
        .where('r.created_at', '>=', start)
        .where('r.created_at', '<', end)
        .where('o.deleted_at', 'is', null);
      const rows = await ofOrders(q, actor, f)
        .select([day.as('day'), sql<number>`sum(r.refund_cents)`.as('returns_cents')])
        .groupBy(day)
        .execute();
      return rows.map((r) => ({ day: String(r.day), values: { returns_cents: num(r.returns_cents) } }));
    },

    /** Per local day: the cost of goods sold, from the ledger (sales and their returns, at their valuation). */
    async cogsDays(actor: Actor, range: Range, f: Filter) {
      const s = rq.movementFigures(actor, range, f, 'days');
      let q = s.ofOrders(s.q).where(s.type, 'in', SOLD);
      // the day's total of every product (product 0), or the movements of the cashier's or customer's sales
      if (s.rolled) q = q.where(s.product, '=', 0);
      else if (f.cashierId || f.customerId) {
        let o = db.selectFrom('orders').select('orders.id');
        if (f.cashierId) o = o.where('orders.cashier_id', '=', f.cashierId);
        if (f.customerId) o = o.where('orders.customer_id', '=', f.customerId);
        q = q.where('m.document_id', 'in', o);
      }
      const rows = await q
        .select([s.day.as('day'), s.value.as('value')])
        .groupBy(s.day)
        .execute();
      return rows.map((r) => ({ day: String(r.day), values: { cogs_cents: -num(r.value) } }));
    },

    /** Lines by product or combo, the best sellers first, under the catalogue's names. */
    async byProduct(actor: Actor, range: Range, f: Filter, limit = 100) {
      const rows = await db
        .selectFrom(rq.soldItems(actor, range, f))
        .leftJoin('products as p', (j) => j.onRef('p.id', '=', 't.item_id').on('t.kind', '=', 'product'))
        .leftJoin('combos as cb', (j) => j.onRef('cb.id', '=', 't.item_id').on('t.kind', '=', 'combo'))
        .select([
          't.kind',
          't.item_id as id',
          sql<string>`coalesce(p.name_en, cb.name_en)`.as('name_en'),
          sql<string>`coalesce(p.name_kh, cb.name_kh)`.as('name_kh'),
          sql<string>`coalesce(p.sku, cb.sku)`.as('sku'),
          ...ITEM_KEYS.map((k) => sql.ref(`t.${k}`).as(k)),
        ])
        .orderBy('t.net_cents', 'desc')
        .limit(limit)
        .execute();
      return numbers(rows, ['id', ...ITEM_KEYS]);
    },

    /** Lines by category (combos stand apart: their category is none) or by brand. */
    async byGroup(actor: Actor, range: Range, f: Filter, by: keyof typeof GROUPS) {
      const g = GROUPS[by];
      const items: AnyQuery = db
        .selectFrom(rq.soldItems(actor, range, f))
        .leftJoin('products as p', (j) => j.onRef('p.id', '=', 't.item_id').on('t.kind', '=', 'product'));
      const rows = await items
        .leftJoin(g.table, 'g.id', g.id)
        .select([
          sql.ref(g.id).as('id'),
          sql<string>`max(${sql.ref(g.name_en)})`.as('name_en'),
          sql<string>`max(${sql.ref(g.name_kh)})`.as('name_kh'),
          ...ITEM_KEYS.map((k) => sql<number>`sum(${sql.ref(`t.${k}`)})`.as(k)),
        ])
        .groupBy(g.id)
        .orderBy(sql`sum(t.net_cents)`, 'desc')
        .execute();
      return numbers(rows, ITEM_KEYS);
    },

    /** The items combos sold took, per combo and product (the ledger's units, base units). */
    async comboItems(actor: Actor, range: Range, f: Filter) {
      const rows = await rq
        .orders(actor, range, f)
        .innerJoin('order_items as i', 'i.order_id', 'o.id')
        .innerJoin('order_item_batches as ib', 'ib.order_item_id', 'i.id')
        .innerJoin('products as p', 'p.id', 'ib.product_id')
        .where('i.kind', '=', 'combo')
        .select([
          sql<string>`max(i.name_en)`.as('combo_en'),
          sql<string>`max(i.name_kh)`.as('combo_kh'),
          sql<string>`max(p.name_en)`.as('name_en'),
          sql<string>`max(p.name_kh)`.as('name_kh'),
          sql<string>`max(p.sku)`.as('sku'),
          sql<number>`sum(ib.quantity)`.as('quantity'),
          sql<number>`sum(ib.returned)`.as('returned_quantity'),
        ])
        .groupBy(['i.combo_id', 'ib.product_id'])
        .orderBy(sql`max(i.name_en)`)
        .execute();
      return numbers(rows, ['quantity', 'returned_quantity']);
    },

    /** Orders by cashier or store, with names. */
    async byOrderColumn(actor: Actor, range: Range, f: Filter, by: 'cashier' | 'store') {
      const s = rq.orderFigures(actor, range, f);
      const named =
        by === 'cashier'
          ? s.q
              .leftJoin('users as u', 'u.id', s.cashier)
              .select([sql.ref(s.cashier).as('id'), sql<string>`max(coalesce(u.full_name, u.name))`.as('name')])
              .groupBy(s.cashier)
          : s.q
              .innerJoin('stores as s', 's.id', s.store)
              .select([sql.ref(s.store).as('id'), sql<string>`max(s.name)`.as('name')])
              .groupBy(s.store);
      const rows = await named
        .select([
          s.orders.as('orders'),
          s.gross_cents.as('gross_cents'),
          s.discount_cents.as('discount_cents'),
          s.net_cents.as('net_cents'),
          s.tax_cents.as('tax_cents'),
        ])
        .having(s.orders, '>', 0)
        .orderBy(s.net_cents, 'desc')
        .execute();
      // a sale without a cashier is kept under 0 in the rollup
      return numbers(rows, ['orders', 'gross_cents', 'discount_cents', 'net_cents', 'tax_cents']).map((row) =>
        row.id === 0 ? { ...row, id: null } : row,
      );
    },

    /** Orders by local hour of the day. */
    async byHour(actor: Actor, range: Range, f: Filter) {
      const s = rq.orderFigures(actor, range, f);
      const rows = await s.q
        .select([s.hour.as('hour'), s.orders.as('orders'), s.net_cents.as('net_cents')])
        .groupBy(s.hour)
        .having(s.orders, '>', 0)
        .orderBy(s.hour)
        .execute();
      return rows.map((r) => ({ hour: num(r.hour), orders: num(r.orders), net_cents: num(r.net_cents) }));
    },
  };
}
