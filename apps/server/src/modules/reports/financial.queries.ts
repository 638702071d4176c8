import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { type Actor, inStores } from '../../policies/policy.ts';
import { type Filter, numbers, type Range, type ReportQuery } from './reports.query.ts';
import { num } from './reports.sql.ts';

/** The purchases not yet paid for (not drafts or cancelled), narrowed to the actor's stores and a store. */
export function purchasesDue(db: Db, actor: Actor, f: Filter = {}) {
  let q = db
    .selectFrom('purchases as pu')
    .where('pu.deleted_at', 'is', null)
    .where('pu.status', 'not in', ['draft', 'cancelled'])
    .where('pu.payment_status', '!=', 'paid');
  q = inStores(q, actor, 'pu.store_id');
  if (f.storeId) q = q.where('pu.store_id', '=', f.storeId);
  return q;
}

/** The financial report's queries: payments and change, rates, purchases and suppliers. */
export function financialQueries(db: Db, rq: ReportQuery) {
  return {
    /** Payments and refunds of the period by method: the amount in its currency (riel for cash_khr) and in cents. */
    async byPayment(actor: Actor, range: Range, f: Filter) {
      const s = rq.paymentFigures(actor, range, f);
      const rows = await s.q
        .select([
          sql.ref(s.method).as('method'),
          sql.ref(s.kind).as('kind'),
          s.count.as('orders'),
          s.amount.as('amount'),
          s.cents.as('amount_cents'),
        ])
        .groupBy([s.method, s.kind])
        .orderBy(s.method)
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
      const s = rq.orderFigures(actor, range, f);
      const row = await s.q
        .select([s.change_cents.as('change_cents'), s.change_khr.as('change_khr')])
        .executeTakeFirst();
      return { change_cents: num(row?.change_cents), change_khr: num(row?.change_khr) };
    },

    /** The rates the period's sales were settled at, and how many sales each. */
    async rates(actor: Actor, range: Range, f: Filter) {
      const rows = await rq
        .orders(actor, range, f)
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
      const rows = await purchasesDue(db, actor, f)
        .innerJoin('suppliers as s', 's.id', 'pu.supplier_id')
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
  };
}
