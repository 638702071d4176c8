/**
 * The database floor of a sale: a bare transaction writing the rows a checkout writes (the order,
 * its lines, payments, invoice, the batches its lines took, the ledger's movements, levels and
 * valuations, the counters, the search terms, the daily rollups, the idempotency key), copied from a
 * sale the server made, with no HTTP, no validation, no pricing. bench/selling.ts measures it in the
 * same run as the checkout, at the same concurrency.
 */
import { randomUUID } from 'node:crypto';
import { todayInCambodia } from '@depot/contracts';
import { sql } from 'kysely';
import { createDatabase, type Db } from '../apps/server/src/db/database.ts';

type Row = Record<string, unknown>;
// a column of each rollup, rewritten in its rows of the day and the month: the rows a sale adds to
const rollupSums = [
  ['daily_customers', 'orders'],
  ['daily_orders', 'orders'],
  ['daily_payments', 'payments'],
  ['daily_sales', 'quantity'],
  ['daily_stock', 'quantity'],
] as const;
const without = (row: Row, ...keys: string[]) =>
  Object.fromEntries(Object.entries(row).filter(([k]) => !keys.includes(k)));

/** What one sale wrote, read back from the database. */
async function template(db: Db, orderId: number) {
  const any = db as unknown as import('kysely').Kysely<Record<string, Row>>;
  const order = await any.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
  const items = await any.selectFrom('order_items').selectAll().where('order_id', '=', orderId).orderBy('id').execute();
  const itemIds = items.map((i) => i.id as number);
  return {
    order,
    items,
    payments: await any.selectFrom('order_payments').selectAll().where('order_id', '=', orderId).execute(),
    invoice: await any.selectFrom('invoices').selectAll().where('order_id', '=', orderId).executeTakeFirst(),
    batches: await any.selectFrom('order_item_batches').selectAll().where('order_item_id', 'in', itemIds).execute(),
    movements: await any
      .selectFrom('stock_movements')
      .selectAll()
      .where('document_type', '=', 'order')
      .where('document_id', '=', orderId)
      .execute(),
    terms: await any
      .selectFrom('search_terms')
      .selectAll()
      .where('record_id', '=', orderId)
      .where('resource', '=', 'orders')
      .execute(),
  };
}

/** The floor at `connections` concurrent transactions for `seconds`: per second, p99, this process's CPU per sale. */
export async function databaseFloor(url: string, orderId: number, connections: number, seconds: number) {
  const database = createDatabase(url, { poolSize: connections });
  const db = database.db;
  const t = await template(db, orderId);
  const day = todayInCambodia();
  const days = [day, day.slice(0, 7)];
  let n = 0;
  const sale = () =>
    db.transaction().execute(async (trxDb) => {
      const trx = trxDb as unknown as import('kysely').Kysely<Record<string, Row>>;
      const i = n++;
      const key = randomUUID();
      await trx
        .insertInto('idempotency_keys')
        .values({
          key,
          user_id: t.order.cashier_id,
          route: 'POST /orders',
          request_hash: key,
          created_at: new Date().toISOString(),
        })
        .execute();
      const { id } = await trx
        .insertInto('orders')
        .values({ ...without(t.order, 'id'), number: `FLOOR-${process.pid}-${i}` })
        .returning('id')
        .executeTakeFirstOrThrow();
      const items = await trx
        .insertInto('order_items')
        .values(t.items.map((item) => ({ ...without(item, 'id'), order_id: id })))
        .returning('id')
        .execute();
      const itemOf = new Map(t.items.map((item, k) => [item.id, items[k].id]));
      await trx
        .insertInto('order_payments')
        .values(t.payments.map((p) => ({ ...without(p, 'id'), order_id: id })))
        .execute();
      // the ledger: levels, movements and valuations of the same products, written as the ledger
      // writes them (modules/stock/ledger.ts issueAll): one upsert locking and reading the valuations
      // in id order, one update of the levels, one insert of the movements, one update of the valuations
      const products = [...new Set(t.movements.map((m) => m.product_id as number))].sort((a, b) => a - b);
      const sum = (product: number, column: string) =>
        t.movements.filter((m) => m.product_id === product).reduce((n, m) => n + Number(m[column]), 0);
      const at = new Date().toISOString();
      await trx
        .insertInto('stock_valuations')
        .values(products.map((product_id) => ({ product_id, quantity: 0, value_cents: 0, updated_at: at })))
        .onConflict((oc) => oc.column('product_id').doUpdateSet({ updated_at: at }))
        .returning(['product_id', 'quantity', 'value_cents'])
        .execute();
      await sql`update stock_levels set quantity = stock_levels.quantity + v.column3, updated_at = ${at}
        from (values ${sql.join(t.movements.map((m) => sql`(cast(${m.store_id} as bigint), cast(${m.batch_id} as bigint), cast(${m.quantity} as bigint))`))}) as v
        where stock_levels.store_id = v.column1 and stock_levels.batch_id = v.column2`.execute(trx);
      await sql`update stock_valuations set quantity = stock_valuations.quantity + v.column2,
          value_cents = stock_valuations.value_cents + v.column3, updated_at = ${at}
        from (values ${sql.join(products.map((p) => sql`(cast(${p} as bigint), cast(${sum(p, 'quantity')} as bigint), cast(${sum(p, 'value_cents')} as bigint))`))}) as v
        where stock_valuations.product_id = v.column1`.execute(trx);
      await trx
        .insertInto('stock_movements')
        .values(t.movements.map((m) => ({ ...without(m, 'id'), document_id: id })))
        .execute();
      await trx
        .insertInto('order_item_batches')
        .values(t.batches.map((b) => ({ ...without(b, 'id'), order_item_id: itemOf.get(b.order_item_id) })))
        .execute();
      // the counters, the invoice, the search terms
      await sql`update sequences set value = value + 1 where key like 'INV-%'`.execute(trx);
      if (t.invoice) {
        await trx
          .insertInto('invoices')
          .values({ ...without(t.invoice, 'id'), order_id: id, number: `FLOOR-INV-${process.pid}-${i}` })
          .execute();
      }
      await sql`update sequences set value = value + 1 where key like 'ORD:%'`.execute(trx);
      if (t.terms.length) {
        await trx
          .insertInto('search_terms')
          .values(t.terms.map((term) => ({ ...term, record_id: id })))
          .execute();
      }
      // the same rollup rows a sale adds to (today's and this month's), in the same order
      for (const [table, column] of rollupSums) {
        await sql`update ${sql.table(table)} set ${sql.ref(column)} = ${sql.ref(column)} + 0 where day in (${sql.join(days)})`.execute(
          trx,
        );
      }
      await trx
        .updateTable('idempotency_keys')
        .set({ result: JSON.stringify(id) })
        .where('key', '=', key)
        .execute();
    });
  await sale(); // warm
  const latencies: number[] = [];
  const cpu = process.cpuUsage();
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        await sale();
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  await database.close();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]);
  return {
    case: 'database floor: the same writes, bare',
    'req/s': Math.round(latencies.length / elapsed),
    'p50 ms': at(0.5),
    'p99 ms': at(0.99),
    // the bench process's own CPU (the driver's share): the database's is in its own processes, as for the server
    'server CPU µs/req': Math.round((used.user + used.system) / latencies.length),
    errors: 0,
  };
}
