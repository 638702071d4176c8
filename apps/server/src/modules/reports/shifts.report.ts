import type { ShiftDifferenceRow, ShiftReportQuery } from '@depot/contracts';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { type Actor, assertStoreInput, inStores } from '../../policies/policy.ts';
import { instants, localDay } from './reports.sql.ts';

/**
 * The shifts report: the differences of closed shifts per cashier and Cambodian day (by the
 * close), in both currencies, narrowed to the actor's stores (reports.view; managers see their
 * stores' cashiers). Read from the shifts as they are, like every report.
 */
export async function shiftDifferences(db: Db, actor: Actor, q: ShiftReportQuery): Promise<ShiftDifferenceRow[]> {
  if (q.store_id) assertStoreInput(actor, 'store_id', q.store_id);
  const { start, end } = instants(q.from, q.to);
  const day = localDay(db, 'shifts.closed_at');
  let query = db
    .selectFrom('shifts')
    .leftJoin('users', 'users.id', 'shifts.user_id')
    .where('shifts.status', '=', 'closed')
    .where('shifts.deleted_at', 'is', null)
    .where('shifts.closed_at', '>=', start)
    .where('shifts.closed_at', '<', end);
  query = inStores(query, actor, 'shifts.store_id');
  if (q.store_id) query = query.where('shifts.store_id', '=', q.store_id);
  const rows = await query
    .select([
      'shifts.user_id',
      sql<string | null>`max(coalesce(users.full_name, users.name))`.as('user_name'),
      day.as('day'),
      sql<number>`count(*)`.as('shifts'),
      sql<number>`sum(shifts.difference_usd_cents)`.as('usd'),
      sql<number>`sum(shifts.difference_khr)`.as('khr'),
    ])
    .groupBy(['shifts.user_id', day])
    .orderBy(day, 'desc')
    .orderBy('shifts.user_id')
    .execute();
  return rows.map((r) => ({
    user_id: r.user_id,
    user_name: r.user_name,
    day: String(r.day),
    shifts: Number(r.shifts),
    difference_usd_cents: Number(r.usd),
    difference_khr: Number(r.khr),
  }));
}
