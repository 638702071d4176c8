import { type Kysely, sql } from 'kysely';

/**
 * Every riel in a drawer: a payment, a refund and the change given belong to the shift
 * open by whoever handled the cash, not to the shift of the order. `order_payments.shift_id` is the
 * drawer each tender or refund went into or came out of; `orders.change_shift_id` the drawer the
 * change of its settling payment left. Rows written before are the order's shift's, as the drawers
 * read them until now (up to the shift's close; what came later was in no drawer and stays so).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('order_payments')
    .addColumn('shift_id', 'integer', (c) => c.references('shifts.id'))
    .execute();
  await db.schema
    .alterTable('orders')
    .addColumn('change_shift_id', 'integer', (c) => c.references('shifts.id'))
    .execute();
  await sql`
    update order_payments
    set shift_id = (select o.shift_id from orders o where o.id = order_payments.order_id)
    where exists (
      select 1 from orders o join shifts s on s.id = o.shift_id
      where o.id = order_payments.order_id and (s.closed_at is null or order_payments.created_at <= s.closed_at)
    )
  `.execute(db);
  await sql`update orders set change_shift_id = shift_id where shift_id is not null`.execute(db);
  await db.schema.createIndex('order_payments_shift').on('order_payments').column('shift_id').execute();
  await db.schema.createIndex('orders_change_shift').on('orders').column('change_shift_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('orders_change_shift').execute();
  await db.schema.dropIndex('order_payments_shift').execute();
  await db.schema.alterTable('orders').dropColumn('change_shift_id').execute();
  await db.schema.alterTable('order_payments').dropColumn('shift_id').execute();
}
