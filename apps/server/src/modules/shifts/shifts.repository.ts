import { type Insertable, sql, type Updateable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { ShiftMovementsTable, ShiftsTable } from '../../db/schema.ts';

/** The Kysely queries of shifts: the rules and their order are in shifts.service.ts. */

/** One row per shift as the API lists it (and the head of its detail). */
export function shiftRows(db: Db) {
  return db
    .selectFrom('shifts')
    .innerJoin('stores', 'stores.id', 'shifts.store_id')
    .leftJoin('users', 'users.id', 'shifts.user_id')
    .leftJoin('users as approver', 'approver.id', 'shifts.approved_by')
    .select([
      'shifts.id',
      'shifts.number',
      'shifts.store_id',
      'stores.name as store_name',
      'shifts.till',
      'shifts.user_id',
      sql<string | null>`coalesce(users.full_name, users.name)`.as('user_name'),
      'shifts.status',
      'shifts.opened_at',
      'shifts.closed_at',
      'shifts.difference_usd_cents',
      'shifts.difference_khr',
      sql<string | null>`coalesce(approver.full_name, approver.name)`.as('approved_by_name'),
      'shifts.created_at',
      'shifts.updated_at',
      'shifts.deleted_at',
    ]);
}

/** A shift's whole row. */
export function shiftRow(db: Db, id: number) {
  return db.selectFrom('shifts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/**
 * The cash a drawer took and gave back, by kind and method: the payments in `methods` given the
 * shift, up to its close when it has closed.
 */
export function drawerPayments(db: Db, shiftId: number, closedAt: string | null, methods: readonly string[]) {
  let payments = db
    .selectFrom('order_payments')
    .select(['order_payments.kind', 'order_payments.method', sql<number>`sum(order_payments.amount)`.as('amount')])
    .where('order_payments.shift_id', '=', shiftId)
    .where('order_payments.method', 'in', methods)
    .groupBy(['order_payments.kind', 'order_payments.method']);
  if (closedAt) payments = payments.where('order_payments.created_at', '<=', closedAt);
  return payments.execute();
}

/** The change that left a drawer, in each currency. */
export function drawerChange(db: Db, shiftId: number) {
  return db
    .selectFrom('orders')
    .select([
      sql<number>`coalesce(sum(change_given_cents), 0)`.as('usd'),
      sql<number>`coalesce(sum(change_given_khr), 0)`.as('khr'),
    ])
    .where('change_shift_id', '=', shiftId)
    .executeTakeFirst();
}

/** A shift's pay-ins and pay-outs, summed by kind and currency. */
export function movementTotals(db: Db, shiftId: number) {
  return db
    .selectFrom('shift_movements')
    .select(['kind', 'currency', sql<number>`sum(amount)`.as('amount')])
    .where('shift_id', '=', shiftId)
    .groupBy(['kind', 'currency'])
    .execute();
}

/** How many sales a shift made and their total. */
export function shiftSales(db: Db, shiftId: number) {
  return db
    .selectFrom('orders')
    .select([sql<number>`count(*)`.as('n'), sql<number>`coalesce(sum(total_cents), 0)`.as('total')])
    .where('shift_id', '=', shiftId)
    .where('status', '=', 'confirmed')
    .executeTakeFirstOrThrow();
}

/** What a shift took, by tender. */
export function shiftTenders(db: Db, shiftId: number) {
  return db
    .selectFrom('order_payments')
    .select(['order_payments.method', sql<number>`sum(order_payments.amount)`.as('amount')])
    .where('order_payments.shift_id', '=', shiftId)
    .where('order_payments.kind', '=', 'payment')
    .groupBy('order_payments.method')
    .orderBy('order_payments.method')
    .execute();
}

/** A shift's pay-ins and pay-outs, each with who made it, in the order made. */
export function shiftMovements(db: Db, shiftId: number) {
  return db
    .selectFrom('shift_movements')
    .leftJoin('users', 'users.id', 'shift_movements.created_by')
    .select([
      'shift_movements.id',
      'shift_movements.kind',
      'shift_movements.currency',
      'shift_movements.amount',
      'shift_movements.reason',
      sql<string | null>`coalesce(users.full_name, users.name)`.as('created_by_name'),
      'shift_movements.created_at',
    ])
    .where('shift_movements.shift_id', '=', shiftId)
    .orderBy('shift_movements.id')
    .execute();
}

/** The shift a user has open (at one store, when named), or nothing. */
export function openShiftOf(db: Db, userId: number, storeId?: number) {
  let query = db.selectFrom('shifts').select(['id', 'number']).where('open_user', '=', userId);
  if (storeId !== undefined) query = query.where('store_id', '=', storeId);
  return query.executeTakeFirst();
}

/** The shift open at a till (its key: store and till), or nothing. */
export function openShiftAt(db: Db, tillKey: string) {
  return db.selectFrom('shifts').select('number').where('open_till', '=', tillKey).executeTakeFirst();
}

/** A sale's shift. */
export async function attachOrder(db: Db, orderId: number, shiftId: number): Promise<void> {
  await db.updateTable('orders').set({ shift_id: shiftId }).where('id', '=', orderId).execute();
}

/** A new shift; answers its id. */
export async function insertShift(db: Db, values: Insertable<ShiftsTable>): Promise<number> {
  const { id } = await db.insertInto('shifts').values(values).returning('id').executeTakeFirstOrThrow();
  return id;
}

/** A pay-in or pay-out. */
export async function insertMovement(db: Db, values: Insertable<ShiftMovementsTable>): Promise<void> {
  await db.insertInto('shift_movements').values(values).execute();
}

/** Sets some of a shift's columns. */
export async function updateShift(db: Db, id: number, set: Updateable<ShiftsTable>): Promise<void> {
  await db.updateTable('shifts').set(set).where('id', '=', id).execute();
}
