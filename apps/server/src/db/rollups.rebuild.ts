import { type Kysely, sql } from 'kysely';
import { isPostgres } from './database.ts';
import { ROLLUP_TABLES } from './rollups.ts';

/**
 * The reports' daily rollups recomputed from the documents and the ledger (db/rollups.ts keeps them
 * one change at a time): the migration's backfill, the sample loader after it dates its documents
 * and after it removes them, and the bench after it writes straight into the file. rollups.test.ts
 * checks both ways give the same rows.
 */

// biome-ignore lint/suspicious/noExplicitAny: any database's handle (the migration's is untyped)
function dialect(db: Kysely<any>) {
  const pg = isPostgres(db);
  const day = (column: string) =>
    pg
      ? sql`to_char(${sql.ref(column)} at time zone 'Asia/Phnom_Penh', 'YYYY-MM-DD')`
      : sql`substr(datetime(${sql.ref(column)}, '+7 hours'), 1, 10)`;
  const hour = (column: string) =>
    pg
      ? sql`cast(extract(hour from ${sql.ref(column)} at time zone 'Asia/Phnom_Penh') as integer)`
      : sql`cast(substr(datetime(${sql.ref(column)}, '+7 hours'), 12, 2) as integer)`;
  return { day, hour };
}

/**
 * Recomputes the five rollups from the documents and the ledger, in the caller's transaction
 * (`transaction(db, rebuildRollups)`, or a migration's). The same figures the writers add up one
 * change at a time.
 */
// biome-ignore lint/suspicious/noExplicitAny: any database's handle (the migration's is untyped)
export async function rebuildRollups(trx: Kysely<any>): Promise<void> {
  if (!trx.isTransaction) throw new Error('rebuildRollups runs in a transaction: transaction(db, rebuildRollups)');
  const { day, hour } = dialect(trx);
  for (const table of ROLLUP_TABLES) await sql`delete from ${sql.table(table)}`.execute(trx);
  await sql`insert into daily_customers (day, store_id, customer_id, orders, net_cents, due_cents, last_at)
      select ${day('o.order_date')}, o.store_id, o.customer_id, count(*), sum(o.subtotal_cents - o.discount_cents),
        sum(o.total_cents - o.paid_cents), max(o.order_date)
      from orders o
      where o.status = 'confirmed' and o.deleted_at is null
      group by 1, 2, 3`.execute(trx);
  await sql`insert into daily_customers (day, store_id, customer_id, orders, net_cents, due_cents, last_at)
      select substr(day, 1, 7), store_id, customer_id, sum(orders), sum(net_cents), sum(due_cents), max(last_at)
      from daily_customers
      group by 1, 2, 3`.execute(trx);
  await sql`insert into daily_sales (day, store_id, kind, item_id, quantity, returned_quantity, gross_cents,
        discount_cents, net_cents, tax_cents)
      select ${day('o.order_date')}, o.store_id, i.kind, coalesce(i.product_id, i.combo_id), sum(i.quantity),
        sum(i.returned_quantity), sum(i.net_cents + i.line_discount_cents + i.order_discount_cents),
        sum(i.line_discount_cents + i.order_discount_cents), sum(i.net_cents), sum(i.tax_cents)
      from orders o inner join order_items i on i.order_id = o.id
      where o.status = 'confirmed' and o.deleted_at is null
      group by 1, 2, 3, 4`.execute(trx);
  await sql`insert into daily_sales (day, store_id, kind, item_id, quantity, returned_quantity, gross_cents,
        discount_cents, net_cents, tax_cents)
      select substr(day, 1, 7), store_id, kind, item_id, sum(quantity), sum(returned_quantity), sum(gross_cents),
        sum(discount_cents), sum(net_cents), sum(tax_cents)
      from daily_sales
      group by 1, 2, 3, 4`.execute(trx);
  await sql`insert into daily_orders (day, hour, store_id, cashier_id, orders, gross_cents, discount_cents,
        tax_cents, total_cents, change_cents, change_khr)
      select ${day('o.order_date')}, ${hour('o.order_date')}, o.store_id, coalesce(o.cashier_id, 0), count(*),
        sum(o.subtotal_cents), sum(o.discount_cents), sum(o.tax_cents), sum(o.total_cents), sum(o.change_given_cents),
        sum(o.change_given_khr)
      from orders o
      where o.status = 'confirmed' and o.deleted_at is null
      group by 1, 2, 3, 4`.execute(trx);
  await sql`insert into daily_payments (day, store_id, cashier_id, method, kind, payments, amount, amount_cents)
      select ${day('p.created_at')}, o.store_id, coalesce(o.cashier_id, 0), p.method, p.kind, count(*),
        sum(p.amount), sum(p.amount_cents)
      from order_payments p inner join orders o on o.id = p.order_id
      where o.deleted_at is null
      group by 1, 2, 3, 4, 5`.execute(trx);
  await sql`insert into daily_stock (day, store_id, product_id, type, of_order, quantity, value_cents, last_at)
      select ${day('m.created_at')}, m.store_id, m.product_id, m.type,
        case when m.document_type = 'order' then 1 else 0 end, sum(m.quantity), sum(m.value_cents),
        max(m.created_at)
      from stock_movements m
      group by 1, 2, 3, 4, 5`.execute(trx);
  await sql`insert into daily_stock (day, store_id, product_id, type, of_order, quantity, value_cents, last_at)
      select substr(day, 1, 7), store_id, product_id, type, of_order, sum(quantity), sum(value_cents), max(last_at)
      from daily_stock
      group by 1, 2, 3, 4, 5`.execute(trx);
  await sql`insert into daily_stock (day, store_id, product_id, type, of_order, quantity, value_cents, last_at)
      select day, store_id, 0, type, of_order, sum(quantity), sum(value_cents), max(last_at)
      from daily_stock
      where length(day) = 10
      group by 1, 2, 3, 4, 5`.execute(trx);
}
