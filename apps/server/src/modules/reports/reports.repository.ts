import { addDays, todayInCambodia } from '@depot/contracts';
import { type SelectQueryBuilder, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { monthsAndDays } from '../../db/rollups.ts';
import { type Actor, inStores } from '../../policies/policy.ts';
import { countLow, lowStock } from '../stock/low.ts';
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

type Row = Record<string, unknown>;

/**
 * The reports' queries, narrowed to the actor's stores in the query itself (policies' `inStores`)
 * and to the filter. Where the filter allows, they read the daily rollups (db/rollups.ts: kept in
 * the transaction of every sale, payment, return, void and movement) instead of the lines, the
 * payments and the ledger; a customer filter (and a cashier's, for lines and ledger) reads these.
 * Sales are confirmed orders (held and cancelled ones are not sales), dated by `order_date`;
 * returns by their own date; payments by theirs; the cost of goods sold by the ledger's movements.
 */
export function reportsRepository(db: Db) {
  function orders(actor: Actor, range: Range, f: Filter) {
    const { start, end } = instants(range.from, range.to);
    let q = db
      .selectFrom('orders as o')
      .where('o.status', '=', 'confirmed')
      .where('o.deleted_at', 'is', null)
      .where('o.order_date', '>=', start)
      .where('o.order_date', '<', end);
    q = inStores(q, actor, 'o.store_id');
    if (f.storeId) q = q.where('o.store_id', '=', f.storeId);
    if (f.cashierId) q = q.where('o.cashier_id', '=', f.cashierId);
    if (f.shiftId) q = q.where('o.shift_id', '=', f.shiftId);
    if (f.customerId) q = q.where('o.customer_id', '=', f.customerId);
    return q;
  }

  function items(actor: Actor, range: Range, f: Filter) {
    let q = orders(actor, range, f)
      .innerJoin('order_items as i', 'i.order_id', 'o.id')
      .leftJoin('products as p', 'p.id', 'i.product_id');
    if (f.categoryId) q = q.where('p.category_id', '=', f.categoryId);
    if (f.brandId) q = q.where('p.brand_id', '=', f.brandId);
    return q;
  }

  const lineSums = [
    sql<number>`sum(i.quantity)`.as('quantity'),
    sql<number>`sum(i.returned_quantity)`.as('returned_quantity'),
    sql<number>`sum(i.unit_price_cents * i.quantity)`.as('gross_cents'),
    sql<number>`sum(i.line_discount_cents + i.order_discount_cents)`.as('discount_cents'),
    sql<number>`sum(i.net_cents)`.as('net_cents'),
    sql<number>`sum(i.tax_cents)`.as('tax_cents'),
  ] as const;

  // The daily rollups (db/rollups.ts) answer what their grain holds: per day, store and product
  // (lines, ledger), per day, hour, store and cashier (orders), per day, store, cashier, method
  // (payments). A filter they do not hold (a customer, a shift; a cashier for lines and ledger)
  // reads the documents instead: the same figures, slower.
  const byOrders = (f: Filter) => !f.customerId && !f.shiftId;
  const byProducts = (f: Filter) => !f.customerId && !f.cashierId;

  /**
   * A rollup's rows of a range, narrowed to the actor's stores and the filter: by day (`months`
   * false: the series), or the whole months of the range by their month rows and the days around
   * them by their day rows (lines and ledger only: figures of the range, not by day).
   */
  // biome-ignore lint/suspicious/noExplicitAny: any of the four rollups, aliased r
  function narrow<Q extends SelectQueryBuilder<any, any, any>>(
    q: Q,
    actor: Actor,
    range: Range,
    f: Filter,
    grain: 'day' | 'days' | 'months' = 'day',
  ): Q {
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
  const orderDays = (actor: Actor, range: Range, f: Filter) => {
    let q = narrow(db.selectFrom('daily_orders as r'), actor, range, f);
    if (f.cashierId) q = q.where('r.cashier_id', '=', f.cashierId);
    return q;
  };

  /** The lines' rollup of a range per product or combo, narrowed by category and brand (combos have neither). */
  function soldItems(actor: Actor, range: Range, f: Filter) {
    let q = narrow(db.selectFrom('daily_sales as r'), actor, range, f, 'months');
    if (f.categoryId || f.brandId) {
      q = q.where('r.kind', '=', 'product').where('r.item_id', 'in', (sub) => {
        let p = sub.selectFrom('products').select('products.id');
        if (f.categoryId) p = p.where('products.category_id', '=', f.categoryId);
        if (f.brandId) p = p.where('products.brand_id', '=', f.brandId);
        return p;
      });
    }
    return q
      .select([
        'r.kind',
        'r.item_id',
        sql<number>`sum(r.quantity)`.as('quantity'),
        sql<number>`sum(r.returned_quantity)`.as('returned_quantity'),
        sql<number>`sum(r.gross_cents)`.as('gross_cents'),
        sql<number>`sum(r.discount_cents)`.as('discount_cents'),
        sql<number>`sum(r.net_cents)`.as('net_cents'),
        sql<number>`sum(r.tax_cents)`.as('tax_cents'),
      ])
      .groupBy(['r.kind', 'r.item_id'])
      .having(sql`sum(r.quantity)`, '>', 0);
  }

  const itemSums = [
    sql<number>`sum(t.quantity)`.as('quantity'),
    sql<number>`sum(t.returned_quantity)`.as('returned_quantity'),
    sql<number>`sum(t.gross_cents)`.as('gross_cents'),
    sql<number>`sum(t.discount_cents)`.as('discount_cents'),
    sql<number>`sum(t.net_cents)`.as('net_cents'),
    sql<number>`sum(t.tax_cents)`.as('tax_cents'),
  ] as const;

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

  const numbers = (rows: Row[], keys: string[]) =>
    rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, keys.includes(k) ? num(v) : v])));

  return {
    /** Per local day: orders, gross, discounts, VAT, totals. */
    async salesDays(actor: Actor, range: Range, f: Filter) {
      if (byOrders(f)) {
        const rows = await orderDays(actor, range, f)
          .select([
            'r.day',
            sql<number>`sum(r.orders)`.as('orders'),
            sql<number>`sum(r.gross_cents)`.as('gross_cents'),
            sql<number>`sum(r.discount_cents)`.as('discount_cents'),
            sql<number>`sum(r.tax_cents)`.as('tax_cents'),
            sql<number>`sum(r.total_cents)`.as('total_cents'),
          ])
          .groupBy('r.day')
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
      }
      const day = localDay(db, 'o.order_date');
      const rows = await orders(actor, range, f)
        .select([
          day.as('day'),
          sql<number>`count(*)`.as('orders'),
          sql<number>`sum(o.subtotal_cents)`.as('gross_cents'),
          sql<number>`sum(o.discount_cents)`.as('discount_cents'),
          sql<number>`sum(o.tax_cents)`.as('tax_cents'),
          sql<number>`sum(o.total_cents)`.as('total_cents'),
        ])
        .groupBy(day)
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
      let q = db
        .selectFrom('order_returns as r')
        .innerJoin('orders as o', 'o.id', 'r.order_id')
        .where('r.created_at', '>=', start)
        .where('r.created_at', '<', end)
        .where('o.deleted_at', 'is', null);
      q = inStores(q, actor, 'o.store_id');
      if (f.storeId) q = q.where('o.store_id', '=', f.storeId);
      if (f.cashierId) q = q.where('o.cashier_id', '=', f.cashierId);
      if (f.customerId) q = q.where('o.customer_id', '=', f.customerId);
      const rows = await q
        .select([day.as('day'), sql<number>`sum(r.refund_cents)`.as('returns_cents')])
        .groupBy(day)
        .execute();
      return rows.map((r) => ({ day: String(r.day), values: { returns_cents: num(r.returns_cents) } }));
    },

    /** Per local day: the cost of goods sold, from the ledger (sales and their returns, at their valuation). */
    async cogsDays(actor: Actor, range: Range, f: Filter) {
      if (byProducts(f)) {
        // the day's total of every product (product 0)
        const rows = await narrow(db.selectFrom('daily_stock as r'), actor, range, f, 'days')
          .where('r.product_id', '=', 0)
          .where('r.of_order', '=', 1)
          .where('r.type', 'in', ['sale', 'bundle_consumption', 'return'])
          .select(['r.day', sql<number>`sum(r.value_cents)`.as('value')])
          .groupBy('r.day')
          .execute();
        return rows.map((r) => ({ day: String(r.day), values: { cogs_cents: -num(r.value) } }));
      }
      const { start, end } = instants(range.from, range.to);
      const day = localDay(db, 'm.created_at');
      let q = db
        .selectFrom('stock_movements as m')
        .where('m.document_type', '=', 'order')
        .where('m.type', 'in', ['sale', 'bundle_consumption', 'return'])
        .where('m.created_at', '>=', start)
        .where('m.created_at', '<', end);
      q = inStores(q, actor, 'm.store_id');
      if (f.storeId) q = q.where('m.store_id', '=', f.storeId);
      if (f.cashierId || f.customerId) {
        q = q.where('m.document_id', 'in', (sub) => {
          let o = sub.selectFrom('orders').select('orders.id');
          if (f.cashierId) o = o.where('orders.cashier_id', '=', f.cashierId);
          if (f.customerId) o = o.where('orders.customer_id', '=', f.customerId);
          return o;
        });
      }
      const rows = await q
        .select([day.as('day'), sql<number>`sum(m.value_cents)`.as('value')])
        .groupBy(day)
        .execute();
      return rows.map((r) => ({ day: String(r.day), values: { cogs_cents: -num(r.value) } }));
    },

    /** Lines by product or combo, the best sellers first. */
    async byProduct(actor: Actor, range: Range, f: Filter, limit = 100) {
      const keys = ['id', 'quantity', 'returned_quantity', 'gross_cents', 'discount_cents', 'net_cents', 'tax_cents'];
      if (byProducts(f)) {
        // the catalogue's names (a line keeps the name it was sold under; the rollup keeps the product)
        const rows = await db
          .selectFrom(soldItems(actor, range, f).as('t'))
          .leftJoin('products as p', (j) => j.onRef('p.id', '=', 't.item_id').on('t.kind', '=', 'product'))
          .leftJoin('combos as cb', (j) => j.onRef('cb.id', '=', 't.item_id').on('t.kind', '=', 'combo'))
          .select([
            't.kind',
            't.item_id as id',
            sql<string>`coalesce(p.name_en, cb.name_en)`.as('name_en'),
            sql<string>`coalesce(p.name_kh, cb.name_kh)`.as('name_kh'),
            sql<string>`coalesce(p.sku, cb.sku)`.as('sku'),
            't.quantity',
            't.returned_quantity',
            't.gross_cents',
            't.discount_cents',
            't.net_cents',
            't.tax_cents',
          ])
          .orderBy('t.net_cents', 'desc')
          .limit(limit)
          .execute();
        return numbers(rows, keys);
      }
      const rows = await items(actor, range, f)
        .select([
          'i.kind',
          sql<number>`coalesce(i.product_id, i.combo_id)`.as('id'),
          sql<string>`max(i.name_en)`.as('name_en'),
          sql<string>`max(i.name_kh)`.as('name_kh'),
          sql<string>`max(i.sku)`.as('sku'),
          ...lineSums,
        ])
        .groupBy(['i.kind', 'i.product_id', 'i.combo_id'])
        .orderBy(sql`sum(i.net_cents)`, 'desc')
        .limit(limit)
        .execute();
      return numbers(rows, [
        'id',
        'quantity',
        'returned_quantity',
        'gross_cents',
        'discount_cents',
        'net_cents',
        'tax_cents',
      ]);
    },

    /** Lines by category (combos stand apart: their category is none) or by brand. */
    async byGroup(actor: Actor, range: Range, f: Filter, by: 'category' | 'brand') {
      const keys = ['quantity', 'returned_quantity', 'gross_cents', 'discount_cents', 'net_cents', 'tax_cents'];
      if (byProducts(f)) {
        const r = db
          .selectFrom(soldItems(actor, range, f).as('t'))
          .leftJoin('products as p', (j) => j.onRef('p.id', '=', 't.item_id').on('t.kind', '=', 'product'));
        const rolled =
          by === 'category'
            ? await r
                .leftJoin('categories as c', 'c.id', 'p.category_id')
                .select([
                  'p.category_id as id',
                  sql<string>`max(c.name_en)`.as('name_en'),
                  sql<string>`max(c.name_kh)`.as('name_kh'),
                  ...itemSums,
                ])
                .groupBy('p.category_id')
                .orderBy(sql`sum(t.net_cents)`, 'desc')
                .execute()
            : await r
                .leftJoin('brands as b', 'b.id', 'p.brand_id')
                .select([
                  'p.brand_id as id',
                  sql<string>`max(b.name)`.as('name_en'),
                  sql<string>`max(b.name)`.as('name_kh'),
                  ...itemSums,
                ])
                .groupBy('p.brand_id')
                .orderBy(sql`sum(t.net_cents)`, 'desc')
                .execute();
        return numbers(rolled, keys);
      }
      const q = items(actor, range, f);
      const rows =
        by === 'category'
          ? await q
              .leftJoin('categories as c', 'c.id', 'p.category_id')
              .select([
                'p.category_id as id',
                sql<string>`max(c.name_en)`.as('name_en'),
                sql<string>`max(c.name_kh)`.as('name_kh'),
                ...lineSums,
              ])
              .groupBy('p.category_id')
              .orderBy(sql`sum(i.net_cents)`, 'desc')
              .execute()
          : await q
              .leftJoin('brands as b', 'b.id', 'p.brand_id')
              .select([
                'p.brand_id as id',
                sql<string>`max(b.name)`.as('name_en'),
                sql<string>`max(b.name)`.as('name_kh'),
                ...lineSums,
              ])
              .groupBy('p.brand_id')
              .orderBy(sql`sum(i.net_cents)`, 'desc')
              .execute();
      return numbers(rows, [
        'quantity',
        'returned_quantity',
        'gross_cents',
        'discount_cents',
        'net_cents',
        'tax_cents',
      ]);
    },

    /** The items combos sold took, per combo and product (the ledger's units, base units). */
    async comboItems(actor: Actor, range: Range, f: Filter) {
      const rows = await orders(actor, range, f)
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

    /** Orders by a column of the order (cashier, store, customer), with names. */
    async byOrderColumn(actor: Actor, range: Range, f: Filter, by: 'cashier' | 'store') {
      const keys = ['orders', 'gross_cents', 'discount_cents', 'net_cents', 'tax_cents'];
      if (byOrders(f)) {
        const r = orderDays(actor, range, f);
        const sums = [
          sql<number>`sum(r.orders)`.as('orders'),
          sql<number>`sum(r.gross_cents)`.as('gross_cents'),
          sql<number>`sum(r.discount_cents)`.as('discount_cents'),
          sql<number>`sum(r.gross_cents - r.discount_cents)`.as('net_cents'),
          sql<number>`sum(r.tax_cents)`.as('tax_cents'),
        ] as const;
        const rolled =
          by === 'cashier'
            ? await r
                .leftJoin('users as u', 'u.id', 'r.cashier_id')
                .select(['r.cashier_id as id', sql<string>`max(coalesce(u.full_name, u.name))`.as('name'), ...sums])
                .groupBy('r.cashier_id')
                .having(sql`sum(r.orders)`, '>', 0)
                .orderBy(sql`sum(r.gross_cents - r.discount_cents)`, 'desc')
                .execute()
            : await r
                .innerJoin('stores as s', 's.id', 'r.store_id')
                .select(['r.store_id as id', sql<string>`max(s.name)`.as('name'), ...sums])
                .groupBy('r.store_id')
                .having(sql`sum(r.orders)`, '>', 0)
                .orderBy(sql`sum(r.gross_cents - r.discount_cents)`, 'desc')
                .execute();
        // a sale without a cashier is kept under 0 in the rollup
        return numbers(rolled, keys).map((row) => (row.id === 0 ? { ...row, id: null } : row));
      }
      const base = orders(actor, range, f);
      const sums = [
        sql<number>`count(*)`.as('orders'),
        sql<number>`sum(o.subtotal_cents)`.as('gross_cents'),
        sql<number>`sum(o.discount_cents)`.as('discount_cents'),
        sql<number>`sum(o.subtotal_cents - o.discount_cents)`.as('net_cents'),
        sql<number>`sum(o.tax_cents)`.as('tax_cents'),
      ] as const;
      const rows =
        by === 'cashier'
          ? await base
              .leftJoin('users as u', 'u.id', 'o.cashier_id')
              .select(['o.cashier_id as id', sql<string>`max(coalesce(u.full_name, u.name))`.as('name'), ...sums])
              .groupBy('o.cashier_id')
              .orderBy(sql`sum(o.subtotal_cents - o.discount_cents)`, 'desc')
              .execute()
          : await base
              .innerJoin('stores as s', 's.id', 'o.store_id')
              .select(['o.store_id as id', sql<string>`max(s.name)`.as('name'), ...sums])
              .groupBy('o.store_id')
              .orderBy(sql`sum(o.subtotal_cents - o.discount_cents)`, 'desc')
              .execute();
      return numbers(rows, ['orders', 'gross_cents', 'discount_cents', 'net_cents', 'tax_cents']);
    },

    /** Payments and refunds of the period by method: the amount in its currency (riel for cash_khr) and in cents. */
    async byPayment(actor: Actor, range: Range, f: Filter) {
      type Method = {
        method: string;
        kind: 'payment' | 'refund';
        orders: number;
        amount: number;
        amount_cents: number;
      };
      if (byOrders(f)) {
        let r = narrow(db.selectFrom('daily_payments as r'), actor, range, f);
        if (f.cashierId) r = r.where('r.cashier_id', '=', f.cashierId);
        const rows = await r
          .select([
            'r.method',
            'r.kind',
            sql<number>`sum(r.payments)`.as('orders'),
            sql<number>`sum(r.amount)`.as('amount'),
            sql<number>`sum(r.amount_cents)`.as('amount_cents'),
          ])
          .groupBy(['r.method', 'r.kind'])
          .orderBy('r.method')
          .execute();
        return numbers(rows, ['orders', 'amount', 'amount_cents']) as Method[];
      }
      const { start, end } = instants(range.from, range.to);
      let q = db
        .selectFrom('order_payments as pay')
        .innerJoin('orders as o', 'o.id', 'pay.order_id')
        .where('pay.created_at', '>=', start)
        .where('pay.created_at', '<', end)
        .where('o.deleted_at', 'is', null);
      q = inStores(q, actor, 'o.store_id');
      if (f.storeId) q = q.where('o.store_id', '=', f.storeId);
      if (f.cashierId) q = q.where('o.cashier_id', '=', f.cashierId);
      if (f.shiftId) q = q.where('o.shift_id', '=', f.shiftId);
      if (f.customerId) q = q.where('o.customer_id', '=', f.customerId);
      const rows = await q
        .select([
          'pay.method',
          'pay.kind',
          sql<number>`count(*)`.as('orders'),
          sql<number>`sum(pay.amount)`.as('amount'),
          sql<number>`sum(pay.amount_cents)`.as('amount_cents'),
        ])
        .groupBy(['pay.method', 'pay.kind'])
        .orderBy('pay.method')
        .execute();
      return numbers(rows, ['orders', 'amount', 'amount_cents']) as {
        method: string;
        kind: 'payment' | 'refund';
        orders: number;
        amount: number;
        amount_cents: number;
      }[];
    },

    /** Change handed back in the period's sales, per drawer (what left the dollars and the riel). */
    async change(actor: Actor, range: Range, f: Filter) {
      if (byOrders(f)) {
        const r = await orderDays(actor, range, f)
          .select([
            sql<number>`sum(r.change_cents)`.as('change_cents'),
            sql<number>`sum(r.change_khr)`.as('change_khr'),
          ])
          .executeTakeFirst();
        return { change_cents: num(r?.change_cents), change_khr: num(r?.change_khr) };
      }
      const row = await orders(actor, range, f)
        .select([
          sql<number>`sum(o.change_given_cents)`.as('change_cents'),
          sql<number>`sum(o.change_given_khr)`.as('change_khr'),
        ])
        .executeTakeFirst();
      return { change_cents: num(row?.change_cents), change_khr: num(row?.change_khr) };
    },

    /** Orders by local hour of the day. */
    async byHour(actor: Actor, range: Range, f: Filter) {
      if (byOrders(f)) {
        const rows = await orderDays(actor, range, f)
          .select([
            'r.hour',
            sql<number>`sum(r.orders)`.as('orders'),
            sql<number>`sum(r.gross_cents - r.discount_cents)`.as('net_cents'),
          ])
          .groupBy('r.hour')
          .having(sql`sum(r.orders)`, '>', 0)
          .orderBy('r.hour')
          .execute();
        return rows.map((r) => ({ hour: num(r.hour), orders: num(r.orders), net_cents: num(r.net_cents) }));
      }
      const hour = localHour(db, 'o.order_date');
      const rows = await orders(actor, range, f)
        .select([
          hour.as('hour'),
          sql<number>`count(*)`.as('orders'),
          sql<number>`sum(o.subtotal_cents - o.discount_cents)`.as('net_cents'),
        ])
        .groupBy(hour)
        .orderBy(hour)
        .execute();
      return rows.map((r) => ({ hour: num(r.hour), orders: num(r.orders), net_cents: num(r.net_cents) }));
    },

    /** The rates the period's sales were settled at, and how many sales each. */
    async rates(actor: Actor, range: Range, f: Filter) {
      const rows = await orders(actor, range, f)
        .select([
          'o.exchange_rate_khr as rate_khr',
          'o.rate_in_khr',
          'o.rate_out_khr',
          sql<number>`count(*)`.as('orders'),
          sql<string>`min(o.order_date)`.as('first'),
        ])
        .groupBy(['o.exchange_rate_khr', 'o.rate_in_khr', 'o.rate_out_khr'])
        .orderBy(sql`min(o.order_date)`)
        .execute();
      return rows.map((r) => ({
        rate_khr: num(r.rate_khr),
        rate_in_khr: r.rate_in_khr === null ? null : num(r.rate_in_khr),
        rate_out_khr: r.rate_out_khr === null ? null : num(r.rate_out_khr),
        orders: num(r.orders),
      }));
    },

    /** Customers' open balances (now, not of the period): confirmed orders unpaid or partly paid. */
    async customersDue(actor: Actor, f: Filter, limit = 100) {
      let q = db
        .selectFrom('orders as o')
        .innerJoin('customers as c', 'c.id', 'o.customer_id')
        .where('o.status', '=', 'confirmed')
        .where('o.deleted_at', 'is', null)
        .where('o.payment_status', 'in', ['unpaid', 'partially_paid', 'pending']);
      q = inStores(q, actor, 'o.store_id');
      if (f.storeId) q = q.where('o.store_id', '=', f.storeId);
      const rows = await q
        .select([
          'o.customer_id as id',
          sql<string>`max(c.name)`.as('name'),
          sql<string>`max(c.phone)`.as('phone'),
          sql<number>`count(*)`.as('orders'),
          sql<number>`sum(o.total_cents - o.paid_cents)`.as('due_cents'),
        ])
        .groupBy('o.customer_id')
        .orderBy(sql`sum(o.total_cents - o.paid_cents)`, 'desc')
        .limit(limit)
        .execute();
      return numbers(rows, ['orders', 'due_cents']);
    },

    /** Buyers of the period: orders, spending, first and last purchase in it. */
    async customers(actor: Actor, range: Range, f: Filter, limit = 100) {
      if (!f.cashierId) {
        let r = narrow(db.selectFrom('daily_customers as r'), actor, range, f, 'months');
        if (f.customerId) r = r.where('r.customer_id', '=', f.customerId);
        const per = r
          .select([
            'r.customer_id',
            sql<number>`sum(r.orders)`.as('orders'),
            sql<number>`sum(r.net_cents)`.as('net_cents'),
            sql<number>`sum(r.due_cents)`.as('due_cents'),
            sql<string>`max(r.last_at)`.as('last_order'),
          ])
          .groupBy('r.customer_id')
          .having(sql`sum(r.orders)`, '>', 0);
        const rows = await db
          .selectFrom(per.as('t'))
          .innerJoin('customers as c', 'c.id', 't.customer_id')
          .where('c.is_walk_in', '=', 0)
          .select([
            't.customer_id as id',
            'c.name',
            'c.phone',
            't.orders',
            't.net_cents',
            't.due_cents',
            't.last_order',
          ])
          .orderBy('t.net_cents', 'desc')
          .limit(limit)
          .execute();
        return numbers(rows, ['orders', 'net_cents', 'due_cents']).map((r) => ({
          ...r,
          last_order: isoOf(r.last_order),
        }));
      }
      const rows = await orders(actor, range, f)
        .innerJoin('customers as c', 'c.id', 'o.customer_id')
        .where('c.is_walk_in', '=', 0)
        .select([
          'o.customer_id as id',
          sql<string>`max(c.name)`.as('name'),
          sql<string>`max(c.phone)`.as('phone'),
          sql<number>`count(*)`.as('orders'),
          sql<number>`sum(o.subtotal_cents - o.discount_cents)`.as('net_cents'),
          sql<number>`sum(o.total_cents - o.paid_cents)`.as('due_cents'),
          sql<string>`max(o.order_date)`.as('last_order'),
        ])
        .groupBy('o.customer_id')
        .orderBy(sql`sum(o.subtotal_cents - o.discount_cents)`, 'desc')
        .limit(limit)
        .execute();
      return numbers(rows, ['orders', 'net_cents', 'due_cents']).map((r) => ({
        ...r,
        last_order: isoOf(r.last_order),
      }));
    },

    /** Distinct named customers who bought, per local day. */
    async customerDays(actor: Actor, range: Range, f: Filter) {
      if (!f.cashierId) {
        let r = narrow(db.selectFrom('daily_customers as r'), actor, range, f, 'days')
          .innerJoin('customers as c', 'c.id', 'r.customer_id')
          .where('c.is_walk_in', '=', 0)
          .where('r.orders', '>', 0);
        if (f.customerId) r = r.where('r.customer_id', '=', f.customerId);
        const rows = await r
          .select(['r.day', sql<number>`count(distinct r.customer_id)`.as('customers')])
          .groupBy('r.day')
          .execute();
        return rows.map((r) => ({ day: String(r.day), values: { customers: num(r.customers) } }));
      }
      const day = localDay(db, 'o.order_date');
      const rows = await orders(actor, range, f)
        .innerJoin('customers as c', 'c.id', 'o.customer_id')
        .where('c.is_walk_in', '=', 0)
        .select([day.as('day'), sql<number>`count(distinct o.customer_id)`.as('customers')])
        .groupBy(day)
        .execute();
      return rows.map((r) => ({ day: String(r.day), values: { customers: num(r.customers) } }));
    },

    /** Named customers whose last purchase was before the range (within the year before it), none since. */
    async lapsed(actor: Actor, range: Range, f: Filter, limit = 100) {
      const { start } = instants(range.from, range.to);
      // the year before the range and everything since (a sale is never dated after today)
      const today = todayInCambodia();
      const window = { from: addDays(range.from, -365), to: range.to > today ? range.to : today };
      const per = narrow(db.selectFrom('daily_customers as r'), actor, window, f, 'months')
        .select([
          'r.customer_id',
          sql<number>`sum(r.orders)`.as('orders'),
          sql<number>`sum(r.net_cents)`.as('net_cents'),
          sql<string>`max(r.last_at)`.as('last_order'),
        ])
        .groupBy('r.customer_id')
        .having(sql`sum(r.orders)`, '>', 0)
        .having(sql`max(r.last_at)`, '<', start);
      const rows = await db
        .selectFrom(per.as('t'))
        .innerJoin('customers as c', 'c.id', 't.customer_id')
        .where('c.is_walk_in', '=', 0)
        .select(['t.customer_id as id', 'c.name', 'c.phone', 't.orders', 't.net_cents', 't.last_order'])
        .orderBy('t.last_order', 'desc')
        .limit(limit)
        .execute();
      return numbers(rows, ['orders', 'net_cents']).map((r) => ({ ...r, last_order: isoOf(r.last_order) }));
    },

    /** Purchases of the period (not drafts or cancelled): totals, landed costs, VAT. */
    async purchases(actor: Actor, range: Range, f: Filter) {
      let q = db
        .selectFrom('purchases as pu')
        .where('pu.deleted_at', 'is', null)
        .where('pu.status', 'not in', ['draft', 'cancelled'])
        .where('pu.purchase_date', '>=', range.from)
        .where('pu.purchase_date', '<=', range.to);
      q = inStores(q, actor, 'pu.store_id');
      if (f.storeId) q = q.where('pu.store_id', '=', f.storeId);
      const row = await q
        .select([
          sql<number>`count(*)`.as('orders'),
          sql<number>`sum(pu.grand_total_cents)`.as('purchases_cents'),
          sql<number>`sum(pu.shipping_cents)`.as('landed_cents'),
          sql<number>`sum(pu.tax_cents)`.as('purchase_tax_cents'),
        ])
        .executeTakeFirst();
      return {
        purchases_cents: num(row?.purchases_cents),
        landed_cents: num(row?.landed_cents),
        purchase_tax_cents: num(row?.purchase_tax_cents),
      };
    },

    /** Paid to suppliers in the period. */
    async supplierPaid(actor: Actor, range: Range, f: Filter) {
      let q = db
        .selectFrom('purchase_payments as pp')
        .innerJoin('purchases as pu', 'pu.id', 'pp.purchase_id')
        .where('pu.deleted_at', 'is', null)
        .where('pp.paid_at', '>=', range.from)
        .where('pp.paid_at', '<=', range.to);
      q = inStores(q, actor, 'pu.store_id');
      if (f.storeId) q = q.where('pu.store_id', '=', f.storeId);
      const row = await q.select(sql<number>`sum(pp.amount_cents)`.as('paid')).executeTakeFirst();
      return num(row?.paid);
    },

    /** What is still due to suppliers now, per supplier. */
    async suppliersDue(actor: Actor, f: Filter, limit = 100) {
      let q = db
        .selectFrom('purchases as pu')
        .innerJoin('suppliers as s', 's.id', 'pu.supplier_id')
        .where('pu.deleted_at', 'is', null)
        .where('pu.status', 'not in', ['draft', 'cancelled'])
        .where('pu.payment_status', '!=', 'paid');
      q = inStores(q, actor, 'pu.store_id');
      if (f.storeId) q = q.where('pu.store_id', '=', f.storeId);
      const rows = await q
        .select([
          'pu.supplier_id as id',
          sql<string>`max(s.name)`.as('name'),
          sql<number>`count(*)`.as('orders'),
          sql<number>`sum(pu.grand_total_cents - pu.paid_cents)`.as('due_cents'),
        ])
        .groupBy('pu.supplier_id')
        .orderBy(sql`sum(pu.grand_total_cents - pu.paid_cents)`, 'desc')
        .limit(limit)
        .execute();
      return numbers(rows, ['orders', 'due_cents']);
    },

    /** On hand now per store and product, with each product's average cost (valuation ÷ quantity). */
    async onHand(actor: Actor, f: Filter) {
      const q = levels(actor, f).leftJoin('stock_valuations as v', 'v.product_id', 'l.product_id');
      const rows = await q
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
      if (!f.cashierId && !f.customerId) {
        let r = narrow(db.selectFrom('daily_stock as r'), actor, range, f, 'days');
        // the day's total of every product (product 0), or the products of a category or brand
        if (!f.categoryId && !f.brandId) r = r.where('r.product_id', '=', 0);
        else {
          r = r.where('r.product_id', 'in', (sub) => {
            let p = sub.selectFrom('products').select('products.id');
            if (f.categoryId) p = p.where('products.category_id', '=', f.categoryId);
            if (f.brandId) p = p.where('products.brand_id', '=', f.brandId);
            return p;
          });
        }
        const rows = await r
          .select([
            'r.day',
            'r.type',
            sql<number>`sum(r.quantity)`.as('quantity'),
            sql<number>`sum(r.value_cents)`.as('value_cents'),
          ])
          .groupBy(['r.day', 'r.type'])
          .execute();
        return rows.map((r) => ({
          day: String(r.day),
          type: String(r.type),
          quantity: num(r.quantity),
          value_cents: num(r.value_cents),
        }));
      }
      const { start, end } = instants(range.from, range.to);
      const day = localDay(db, 'm.created_at');
      let q = db.selectFrom('stock_movements as m').where('m.created_at', '>=', start).where('m.created_at', '<', end);
      q = inStores(q, actor, 'm.store_id');
      if (f.storeId) q = q.where('m.store_id', '=', f.storeId);
      if (f.categoryId || f.brandId) {
        q = q.where('m.product_id', 'in', (sub) => {
          let p = sub.selectFrom('products').select('products.id');
          if (f.categoryId) p = p.where('products.category_id', '=', f.categoryId);
          if (f.brandId) p = p.where('products.brand_id', '=', f.brandId);
          return p;
        });
      }
      const rows = await q
        .select([
          day.as('day'),
          'm.type',
          sql<number>`sum(m.quantity)`.as('quantity'),
          sql<number>`sum(m.value_cents)`.as('value_cents'),
        ])
        .groupBy([day, 'm.type'])
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
      if (byProducts(f)) {
        const rows = await narrow(db.selectFrom('daily_stock as r'), actor, range, f, 'months')
          .where('r.product_id', '!=', 0)
          .where('r.of_order', '=', 1)
          .where('r.type', 'in', ['sale', 'bundle_consumption', 'return'])
          .select([
            'r.product_id',
            sql<number>`sum(r.quantity)`.as('quantity'),
            sql<string>`max(r.last_at)`.as('last_sold'),
          ])
          .groupBy('r.product_id')
          .execute();
        return new Map(
          rows.map((r) => [num(r.product_id), { sold: -num(r.quantity), last_sold: isoOf(r.last_sold) }] as const),
        );
      }
      const { start, end } = instants(range.from, range.to);
      let q = db
        .selectFrom('stock_movements as m')
        .where('m.document_type', '=', 'order')
        .where('m.type', 'in', ['sale', 'bundle_consumption', 'return'])
        .where('m.created_at', '>=', start)
        .where('m.created_at', '<', end);
      q = inStores(q, actor, 'm.store_id');
      if (f.storeId) q = q.where('m.store_id', '=', f.storeId);
      const rows = await q
        .select([
          'm.product_id',
          sql<number>`sum(m.quantity)`.as('quantity'),
          sql<string>`max(m.created_at)`.as('last_sold'),
        ])
        .groupBy('m.product_id')
        .execute();
      return new Map(
        rows.map((r) => [num(r.product_id), { sold: -num(r.quantity), last_sold: isoOf(r.last_sold) }] as const),
      );
    },

    /** Batches in stock expiring on or before `until` (expired ones included). */
    async expiring(actor: Actor, until: string, f: Filter, limit = 200) {
      let q = db
        .selectFrom('stock_levels as l')
        .innerJoin('stock_batches as b', 'b.id', 'l.batch_id')
        .innerJoin('products as p', 'p.id', 'l.product_id')
        .innerJoin('stores as s', 's.id', 'l.store_id')
        .where('l.quantity', '>', 0)
        .where('b.expiry_date', 'is not', null)
        .where('b.expiry_date', '<=', until);
      q = inStores(q, actor, 'l.store_id');
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

    /** Counts for the dashboard's alerts. */
    async waiting(actor: Actor, today: string, expiringUntil: string) {
      const lowCount = await countLow(db, (q) => inStores(q, actor, 'stock_levels.store_id'));
      const expiring = await inStores(
        db
          .selectFrom('stock_levels as l')
          .innerJoin('stock_batches as b', 'b.id', 'l.batch_id')
          .where('l.quantity', '>', 0)
          .where('b.expiry_date', 'is not', null)
          .where('b.expiry_date', '<=', expiringUntil)
          .select(sql<number>`count(*)`.as('n')),
        actor,
        'l.store_id',
      ).executeTakeFirst();
      const purchases = await inStores(
        db
          .selectFrom('purchases as pu')
          .where('pu.deleted_at', 'is', null)
          .where('pu.status', 'not in', ['draft', 'cancelled'])
          .where('pu.payment_status', '!=', 'paid')
          .select([sql<number>`count(*)`.as('n'), sql<number>`sum(pu.grand_total_cents - pu.paid_cents)`.as('due')]),
        actor,
        'pu.store_id',
      ).executeTakeFirst();
      const unpaid = await inStores(
        db
          .selectFrom('orders as o')
          .where('o.status', '=', 'confirmed')
          .where('o.deleted_at', 'is', null)
          .where('o.payment_status', 'in', ['unpaid', 'partially_paid', 'pending'])
          .select([sql<number>`count(*)`.as('n'), sql<number>`sum(o.total_cents - o.paid_cents)`.as('due')]),
        actor,
        'o.store_id',
      ).executeTakeFirst();
      const deliveries = await inStores(
        db
          .selectFrom('orders as o')
          .where('o.status', '=', 'confirmed')
          .where('o.deleted_at', 'is', null)
          .where('o.delivery_status', 'in', ['preparing', 'preparing_done', 'ready_for_delivery', 'shipping'])
          .select(sql<number>`count(*)`.as('n')),
        actor,
        'o.store_id',
      ).executeTakeFirst();
      // shifts still open that were opened before today began in Cambodia
      const overnight = await inStores(
        db
          .selectFrom('shifts')
          .where('shifts.status', '=', 'open')
          .where('shifts.opened_at', '<', instants(today, today).start)
          .select(sql<number>`count(*)`.as('n')),
        actor,
        'shifts.store_id',
      ).executeTakeFirst();
      return {
        open_overnight: num(overnight?.n),
        low_stock: lowCount,
        expiring: num(expiring?.n),
        purchases_due: num(purchases?.n),
        purchases_due_cents: num(purchases?.due),
        unpaid_orders: num(unpaid?.n),
        unpaid_cents: num(unpaid?.due),
        deliveries: num(deliveries?.n),
      };
    },

    /** A user's open shift, if any (the cashier's dashboard). */
    openShift(userId: number) {
      return db
        .selectFrom('shifts')
        .select(['id', 'number', 'till', 'opened_at'])
        .where('open_user', '=', userId)
        .executeTakeFirst();
    },

    async storeName(id: number) {
      return (await db.selectFrom('stores').select('name').where('id', '=', id).executeTakeFirst())?.name ?? null;
    },

    async categoryNames() {
      const rows = await db.selectFrom('categories').select(['id', 'name_en', 'name_kh']).execute();
      return new Map(rows.map((r) => [r.id, r]));
    },

    async storeNames() {
      const rows = await db.selectFrom('stores').select(['id', 'name']).execute();
      return new Map(rows.map((r) => [r.id, r.name]));
    },
  };
}

/** A timestamp as ISO text, whichever database answered (PostgreSQL gives a Date). */
function isoOf(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  return v instanceof Date ? v.toISOString() : String(v);
}

export type ReportsRepository = ReturnType<typeof reportsRepository>;
