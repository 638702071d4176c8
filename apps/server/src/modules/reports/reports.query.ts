import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { monthsAndDays } from '../../db/rollups.ts';
import { type Actor, type AnyQuery, inStores } from '../../policies/policy.ts';
import { instants, localDay, localHour, num } from './reports.sql.ts';

/** What narrows a report, besides the actor's coverage. */
export interface Filter {
  storeId?: number;
  cashierId?: number;
  /** A cashier's open shift: the sales checked out in it (the dashboard's "today"). */
  shiftId?: number;
  customerId?: number;
  categoryId?: number;
  brandId?: number;
}

export interface Range {
  from: string;
  to: string;
}

export type Row = Record<string, unknown>;

/** A figure's SQL, the same name whichever source answers it. */
type Sum = RawBuilder<number>;

const ref = (column: string) => sql.ref(column) as RawBuilder<unknown>;
const sum = (column: string): Sum => sql<number>`sum(${sql.ref(column)})`;

/** A query of orders (aliased o) narrowed to the actor's stores and the filter's store, cashier, shift and customer. */
export function ofOrders<Q extends AnyQuery>(q: Q, actor: Actor, f: Filter): Q {
  let n = inStores(q, actor, 'o.store_id');
  if (f.storeId) n = n.where('o.store_id', '=', f.storeId) as Q;
  if (f.cashierId) n = n.where('o.cashier_id', '=', f.cashierId) as Q;
  if (f.shiftId) n = n.where('o.shift_id', '=', f.shiftId) as Q;
  if (f.customerId) n = n.where('o.customer_id', '=', f.customerId) as Q;
  return n;
}

/** A timestamp as ISO text, whichever database answered (PostgreSQL gives a Date). */
export function isoOf(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  return v instanceof Date ? v.toISOString() : String(v);
}

/** Rows with the named columns as numbers (PostgreSQL answers sums of bigint as text). */
export const numbers = (rows: Row[], keys: string[]) =>
  rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, keys.includes(k) ? num(v) : v])));

/**
 * The reports' one query builder. Each source below (orders, lines, payments, ledger, buyers)
 * answers its figures from the daily rollups (db/rollups.ts: kept in the transaction of every sale,
 * payment, return, void and movement) where the filter allows, or from the documents otherwise,
 * under the same names; a report's query is written once over the source. Everything is narrowed
 * to the actor's stores in the query itself (policies' `inStores`) and to the filter. Sales are
 * confirmed orders (held and cancelled ones are not sales), dated by `order_date`; returns by their
 * own date; payments by theirs; the cost of goods sold by the ledger's movements.
 *
 * The rollups' grain: per day, store and product (lines, ledger), per day, hour, store and cashier
 * (orders), per day, store, cashier, method (payments), per day, store and customer (buyers). A
 * filter they do not hold (a customer, a shift; a cashier for lines and ledger) reads the
 * documents instead: the same figures, slower.
 */
export function reportQuery(db: Db) {
  const byOrders = (f: Filter) => !f.customerId && !f.shiftId;
  const byProducts = (f: Filter) => !f.customerId && !f.cashierId;

  /** The period's sales (confirmed orders), narrowed. */
  function orders(actor: Actor, range: Range, f: Filter) {
    const { start, end } = instants(range.from, range.to);
    const q = db
      .selectFrom('orders as o')
      .where('o.status', '=', 'confirmed')
      .where('o.deleted_at', 'is', null)
      .where('o.order_date', '>=', start)
      .where('o.order_date', '<', end);
    return ofOrders(q, actor, f);
  }

  /**
   * A rollup's rows of a range (aliased r), narrowed to the actor's stores and the filter: by day
   * (`day`: the series; `days` for the tables that also hold month rows), or the whole months of
   * the range by their month rows and the days around them by their day rows (`months`: figures of
   * the range, not by day).
   */
  function narrow<Q extends AnyQuery>(q: Q, actor: Actor, range: Range, f: Filter, grain: Grain = 'day'): Q {
    let n: Q;
    if (grain === 'months') {
      const { days, months } = monthsAndDays(range.from, range.to);
      n = q.where((eb) =>
        eb.or([
          ...days.map(([a, b]) => eb.and([eb('r.day', '>=', a), eb('r.day', '<=', b)])),
          ...(months.length ? [eb('r.day', 'in', months)] : []),
        ]),
      ) as Q;
    } else {
      n = q.where('r.day', '>=', range.from).where('r.day', '<=', range.to) as Q;
      // the tables that also hold month rows (YYYY-MM, which sort among the days)
      if (grain === 'days') n = n.where(sql`length(r.day)`, '=', 10) as Q;
    }
    n = inStores(n, actor, 'r.store_id') as Q;
    if (f.storeId) n = n.where('r.store_id', '=', f.storeId) as Q;
    return n;
  }

  /** The products of the filter's category and brand, for `where (product) in (...)`. */
  function productsOf(f: Filter) {
    let p = db.selectFrom('products').select('products.id');
    if (f.categoryId) p = p.where('products.category_id', '=', f.categoryId);
    if (f.brandId) p = p.where('products.brand_id', '=', f.brandId);
    return p;
  }

  return {
    orders,
    narrow,
    productsOf,

    /** The sales: per day and hour (`day`, `hour`), by cashier and store, their sums. */
    orderFigures(actor: Actor, range: Range, f: Filter) {
      if (byOrders(f)) {
        let q: AnyQuery = narrow(db.selectFrom('daily_orders as r'), actor, range, f);
        if (f.cashierId) q = q.where('r.cashier_id', '=', f.cashierId);
        return {
          q,
          day: ref('r.day'),
          hour: ref('r.hour'),
          cashier: 'r.cashier_id',
          store: 'r.store_id',
          orders: sum('r.orders'),
          gross_cents: sum('r.gross_cents'),
          discount_cents: sum('r.discount_cents'),
          net_cents: sql<number>`sum(r.gross_cents - r.discount_cents)`,
          tax_cents: sum('r.tax_cents'),
          total_cents: sum('r.total_cents'),
          change_cents: sum('r.change_cents'),
          change_khr: sum('r.change_khr'),
        };
      }
      return {
        q: orders(actor, range, f) as AnyQuery,
        day: localDay(db, 'o.order_date') as RawBuilder<unknown>,
        hour: localHour(db, 'o.order_date') as RawBuilder<unknown>,
        cashier: 'o.cashier_id',
        store: 'o.store_id',
        orders: sql<number>`count(*)`,
        gross_cents: sum('o.subtotal_cents'),
        discount_cents: sum('o.discount_cents'),
        net_cents: sql<number>`sum(o.subtotal_cents - o.discount_cents)`,
        tax_cents: sum('o.tax_cents'),
        total_cents: sum('o.total_cents'),
        change_cents: sum('o.change_given_cents'),
        change_khr: sum('o.change_given_khr'),
      };
    },

    /**
     * The lines of a range per product or combo (`t.kind`, `t.item_id` and their sums), narrowed by
     * category and brand (combos have neither), as a table to read from (aliased t).
     */
    soldItems(actor: Actor, range: Range, f: Filter) {
      const sums = (a: string) =>
        (['quantity', 'returned_quantity', 'gross_cents', 'discount_cents', 'net_cents', 'tax_cents'] as const).map(
          (k) => sum(`${a}.${k}`).as(k),
        );
      if (byProducts(f)) {
        let q = narrow(db.selectFrom('daily_sales as r'), actor, range, f, 'months');
        if (f.categoryId || f.brandId) q = q.where('r.kind', '=', 'product').where('r.item_id', 'in', productsOf(f));
        return q
          .select(['r.kind', 'r.item_id', ...sums('r')])
          .groupBy(['r.kind', 'r.item_id'])
          .having(sql`sum(r.quantity)`, '>', 0)
          .as('t');
      }
      let q = orders(actor, range, f)
        .innerJoin('order_items as i', 'i.order_id', 'o.id')
        .leftJoin('products as p', 'p.id', 'i.product_id');
      if (f.categoryId) q = q.where('p.category_id', '=', f.categoryId);
      if (f.brandId) q = q.where('p.brand_id', '=', f.brandId);
      return q
        .select([
          'i.kind',
          sql<number>`coalesce(i.product_id, i.combo_id)`.as('item_id'),
          sum('i.quantity').as('quantity'),
          sum('i.returned_quantity').as('returned_quantity'),
          // gross as priced (a weighed line's price × grams / 1000): what the discounts leave plus them
          sql<number>`sum(i.net_cents + i.line_discount_cents + i.order_discount_cents)`.as('gross_cents'),
          sql<number>`sum(i.line_discount_cents + i.order_discount_cents)`.as('discount_cents'),
          sum('i.net_cents').as('net_cents'),
          sum('i.tax_cents').as('tax_cents'),
        ])
        .groupBy(['i.kind', 'i.product_id', 'i.combo_id'])
        .as('t');
    },

    /** Payments and refunds of the period (`method`, `kind`, how many, the amounts). */
    paymentFigures(actor: Actor, range: Range, f: Filter) {
      if (byOrders(f)) {
        let q: AnyQuery = narrow(db.selectFrom('daily_payments as r'), actor, range, f);
        if (f.cashierId) q = q.where('r.cashier_id', '=', f.cashierId);
        const [amount, cents] = [sum('r.amount'), sum('r.amount_cents')];
        return { q, method: 'r.method', kind: 'r.kind', count: sum('r.payments'), amount, cents };
      }
      const { start, end } = instants(range.from, range.to);
      let q = db
        .selectFrom('order_payments as pay')
        .innerJoin('orders as o', 'o.id', 'pay.order_id')
        .where('pay.created_at', '>=', start)
        .where('pay.created_at', '<', end)
        .where('o.deleted_at', 'is', null);
      q = ofOrders(q, actor, f);
      const [amount, cents] = [sum('pay.amount'), sum('pay.amount_cents')];
      return { q: q as AnyQuery, method: 'pay.method', kind: 'pay.kind', count: sql<number>`count(*)`, amount, cents };
    },

    /**
     * The ledger's movements of the period (`day`, `type`, `product`, sums); `rolled` when they are
     * the rollup's, whose product 0 is the day's total of every product. `ofOrders` keeps the
     * movements of sales and their returns.
     */
    movementFigures(actor: Actor, range: Range, f: Filter, grain: 'days' | 'months') {
      if (byProducts(f)) {
        return {
          rolled: true,
          q: narrow(db.selectFrom('daily_stock as r'), actor, range, f, grain) as AnyQuery,
          day: ref('r.day'),
          type: 'r.type',
          product: 'r.product_id',
          quantity: sum('r.quantity'),
          value: sum('r.value_cents'),
          last: sql<string>`max(r.last_at)`,
          ofOrders: (q: AnyQuery) => q.where('r.of_order', '=', 1),
        };
      }
      const { start, end } = instants(range.from, range.to);
      let q = db.selectFrom('stock_movements as m').where('m.created_at', '>=', start).where('m.created_at', '<', end);
      q = inStores(q, actor, 'm.store_id');
      if (f.storeId) q = q.where('m.store_id', '=', f.storeId);
      return {
        rolled: false,
        q: q as AnyQuery,
        day: localDay(db, 'm.created_at') as RawBuilder<unknown>,
        type: 'm.type',
        product: 'm.product_id',
        quantity: sum('m.quantity'),
        value: sum('m.value_cents'),
        last: sql<string>`max(m.created_at)`,
        ofOrders: (q: AnyQuery) => q.where('m.document_type', '=', 'order'),
      };
    },

    /**
     * Who bought in the period, per customer and day (`customer`, `day`, sums); `bought` keeps the
     * rows with a sale in them. A cashier's filter reads the orders (the rollup has no cashier).
     */
    buyerFigures(actor: Actor, range: Range, f: Filter, grain: Grain) {
      if (!f.cashierId) {
        let q: AnyQuery = narrow(db.selectFrom('daily_customers as r'), actor, range, f, grain);
        if (f.customerId) q = q.where('r.customer_id', '=', f.customerId);
        return {
          q,
          customer: 'r.customer_id',
          day: ref('r.day'),
          orders: sum('r.orders'),
          net_cents: sum('r.net_cents'),
          due_cents: sum('r.due_cents'),
          last: sql<string>`max(r.last_at)`,
          bought: (q: AnyQuery) => q.where('r.orders', '>', 0),
        };
      }
      return {
        q: orders(actor, range, f) as AnyQuery,
        customer: 'o.customer_id',
        day: localDay(db, 'o.order_date') as RawBuilder<unknown>,
        orders: sql<number>`count(*)`,
        net_cents: sql<number>`sum(o.subtotal_cents - o.discount_cents)`,
        due_cents: sql<number>`sum(o.total_cents - o.paid_cents)`,
        last: sql<string>`max(o.order_date)`,
        bought: (q: AnyQuery) => q,
      };
    },
  };
}

type Grain = 'day' | 'days' | 'months';

export type ReportQuery = ReturnType<typeof reportQuery>;
