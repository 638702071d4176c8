import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { type Actor, inStores } from '../../policies/policy.ts';
import { countLow } from '../stock/low.ts';
import { ordersDue } from './customer.queries.ts';
import { purchasesDue } from './financial.queries.ts';
import { expiringLevels } from './inventory.queries.ts';
import { instants, num } from './reports.sql.ts';

/** The dashboard's own queries (its figures of sales are the sales report's). */
export function dashboardQueries(db: Db) {
  return {
    /** Counts for the dashboard's alerts, each the length of the list it links to. */
    async waiting(actor: Actor, today: string, expiringUntil: string) {
      const count = sql<number>`count(*)`.as('n');
      const [low, expiring, purchases, unpaid, deliveries, overnight] = await Promise.all([
        countLow(db, (q) => inStores(q, actor, 'stock_levels.store_id')),
        expiringLevels(db, actor, expiringUntil).select(count).executeTakeFirst(),
        purchasesDue(db, actor)
          .select([count, sql<number>`sum(pu.grand_total_cents - pu.paid_cents)`.as('due')])
          .executeTakeFirst(),
        ordersDue(db, actor)
          .select([count, sql<number>`sum(o.total_cents - o.paid_cents)`.as('due')])
          .executeTakeFirst(),
        inStores(
          db
            .selectFrom('orders as o')
            .where('o.status', '=', 'confirmed')
            .where('o.deleted_at', 'is', null)
            .where('o.delivery_status', 'in', ['preparing', 'preparing_done', 'ready_for_delivery', 'shipping'])
            .select(count),
          actor,
          'o.store_id',
        ).executeTakeFirst(),
        // shifts still open that were opened before today began in Cambodia
        inStores(
          db
            .selectFrom('shifts')
            .where('shifts.status', '=', 'open')
            .where('shifts.opened_at', '<', instants(today, today).start)
            .select(count),
          actor,
          'shifts.store_id',
        ).executeTakeFirst(),
      ]);
      return {
        open_overnight: num(overnight?.n),
        low_stock: low,
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
  };
}
