import { addDays, todayInCambodia } from '@depot/contracts';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { type Actor, inStores } from '../../policies/policy.ts';
import { type Filter, isoOf, numbers, type Range, type ReportQuery } from './reports.query.ts';
import { instants, num } from './reports.sql.ts';

/** Confirmed orders unpaid or partly paid, narrowed to the actor's stores and a store. */
export function ordersDue(db: Db, actor: Actor, f: Filter = {}) {
  let q = db
    .selectFrom('orders as o')
    .where('o.status', '=', 'confirmed')
    .where('o.deleted_at', 'is', null)
    .where('o.payment_status', 'in', ['unpaid', 'partially_paid', 'pending']);
  q = inStores(q, actor, 'o.store_id');
  if (f.storeId) q = q.where('o.store_id', '=', f.storeId);
  return q;
}

/** The customer report's queries: buyers, their days, their dues, those who stopped buying. */
export function customerQueries(db: Db, rq: ReportQuery) {
  return {
    /** Customers' open balances (now, not of the period): confirmed orders unpaid or partly paid. */
    async customersDue(actor: Actor, f: Filter, limit = 100) {
      const rows = await ordersDue(db, actor, f)
        .innerJoin('customers as c', 'c.id', 'o.customer_id')
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
      const s = rq.buyerFigures(actor, range, f, 'months');
      const per = s.q
        .select([
          sql.ref(s.customer).as('customer_id'),
          s.orders.as('orders'),
          s.net_cents.as('net_cents'),
          s.due_cents.as('due_cents'),
          s.last.as('last_order'),
        ])
        .groupBy(s.customer)
        .having(s.orders, '>', 0);
      const rows = await db
        .selectFrom(per.as('t'))
        .innerJoin('customers as c', 'c.id', 't.customer_id')
        .where('c.is_walk_in', '=', 0)
        .select(['t.customer_id as id', 'c.name', 'c.phone', 't.orders', 't.net_cents', 't.due_cents', 't.last_order'])
        .orderBy('t.net_cents', 'desc')
        .limit(limit)
        .execute();
      return numbers(rows, ['orders', 'net_cents', 'due_cents']).map((r) => ({
        ...r,
        last_order: isoOf(r.last_order),
      }));
    },

    /** Distinct named customers who bought, per local day. */
    async customerDays(actor: Actor, range: Range, f: Filter) {
      const s = rq.buyerFigures(actor, range, f, 'days');
      const rows = await s
        .bought(s.q)
        .innerJoin('customers as c', 'c.id', s.customer)
        .where('c.is_walk_in', '=', 0)
        .select([s.day.as('day'), sql<number>`count(distinct ${sql.ref(s.customer)})`.as('customers')])
        .groupBy(s.day)
        .execute();
      return rows.map((r) => ({ day: String(r.day), values: { customers: num(r.customers) } }));
    },

    /** Named customers whose last purchase was before the range (within the year before it), none since. */
    async lapsed(actor: Actor, range: Range, f: Filter, limit = 100) {
      const { start } = instants(range.from, range.to);
      // the year before the range and everything since (a sale is never dated after today)
      const today = todayInCambodia();
      const window = { from: addDays(range.from, -365), to: range.to > today ? range.to : today };
      const per = rq
        .narrow(db.selectFrom('daily_customers as r'), actor, window, f, 'months')
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
  };
}
