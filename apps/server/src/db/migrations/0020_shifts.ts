import type { Kysely } from 'kysely';
import { columnTypes, withId, withTimestamps } from './helpers.ts';

/**
 * Cash drawer shifts. A shift is opened by a cashier at a till (a store and the till's name) with a
 * float counted by denomination in dollars and in riel (the counts kept as JSON text); its pay-ins
 * and pay-outs are `shift_movements`; a sale checked out while its cashier's shift is open at its
 * store carries `orders.shift_id`. The close records, per currency, what was expected, counted and
 * the difference, and the manager who approved a difference beyond the threshold.
 *
 * One open shift per till and one per user: `open_till` (store id and the till's name, lower case)
 * and `open_user` are set while open and cleared at the close, under unique indexes (NULLs never
 * collide, on both databases).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp } = columnTypes(db);
  await withTimestamps(
    db,
    withId(db, db.schema.createTable('shifts'))
      .addColumn('number', 'varchar(30)', (c) => c.notNull().unique())
      .addColumn('store_id', 'integer', (c) => c.notNull().references('stores.id'))
      .addColumn('till', 'varchar(30)', (c) => c.notNull())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('status', 'varchar(10)', (c) => c.notNull())
      .addColumn('open_till', 'varchar(50)', (c) => c.unique())
      .addColumn('open_user', 'integer', (c) => c.unique())
      .addColumn('opened_at', timestamp, (c) => c.notNull())
      .addColumn('closed_at', timestamp)
      .addColumn('note', 'varchar(255)')
      .addColumn('close_note', 'varchar(255)')
      .addColumn('float_count', 'varchar(2000)', (c) => c.notNull())
      .addColumn('float_usd_cents', 'bigint', (c) => c.notNull())
      .addColumn('float_khr', 'bigint', (c) => c.notNull())
      .addColumn('counted_count', 'varchar(2000)')
      // what the drawer held by the figures, frozen at the close (later refunds of its sales are not its)
      .addColumn('closing', 'varchar(2000)')
      .addColumn('expected_usd_cents', 'bigint')
      .addColumn('expected_khr', 'bigint')
      .addColumn('counted_usd_cents', 'bigint')
      .addColumn('counted_khr', 'bigint')
      .addColumn('difference_usd_cents', 'bigint')
      .addColumn('difference_khr', 'bigint')
      .addColumn('closed_by', 'integer', (c) => c.references('users.id'))
      .addColumn('approved_by', 'integer', (c) => c.references('users.id')),
    { softDelete: true },
  ).execute();
  await db.schema.createIndex('shifts_store_opened').on('shifts').columns(['store_id', 'opened_at']).execute();
  await db.schema.createIndex('shifts_user_opened').on('shifts').columns(['user_id', 'opened_at']).execute();

  await withId(db, db.schema.createTable('shift_movements'))
    .addColumn('shift_id', 'integer', (c) => c.notNull().references('shifts.id'))
    .addColumn('kind', 'varchar(10)', (c) => c.notNull())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('reason', 'varchar(255)', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('users.id'))
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('shift_movements_shift').on('shift_movements').column('shift_id').execute();

  await db.schema
    .alterTable('orders')
    .addColumn('shift_id', 'integer', (c) => c.references('shifts.id'))
    .execute();
  await db.schema.createIndex('orders_shift').on('orders').column('shift_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('orders_shift').execute();
  await db.schema.alterTable('orders').dropColumn('shift_id').execute();
  await db.schema.dropTable('shift_movements').execute();
  await db.schema.dropTable('shifts').execute();
}
