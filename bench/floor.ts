/**
 * The database floor of a sale: a bare transaction writing the rows a checkout writes (the order,
 * its lines, payments, invoice, the batches its lines took, the ledger's movements, levels and
 * valuations, the counters, the search terms, the daily rollups, the idempotency key), copied from a
 * sale the server made, with no HTTP, no validation, no pricing. bench/selling.ts measures it in the
 * same run as the checkout, at the same concurrency.
 */
import { randomUUID } from 'node:crypto';
import { todayInCambodia } from '@depot/contracts';
import { PostgresAdapter, sql } from 'kysely';
import { createDatabase, type Db } from '../apps/server/src/db/database.ts';
import { type LastWrite, runTogether } from '../apps/server/src/db/later.ts';
import { lockAndReadStatement } from '../apps/server/src/modules/stock/ledger.ts';

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
  const invoice = await any.selectFrom('invoices').selectAll().where('order_id', '=', orderId).executeTakeFirst();
  return {
    order,
    items,
    payments: await any.selectFrom('order_payments').selectAll().where('order_id', '=', orderId).execute(),
    invoice,
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
    invoiceTerms: await any
      .selectFrom('search_terms')
      .selectAll()
      .where('record_id', '=', invoice?.id ?? 0)
      .where('resource', '=', 'invoices')
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
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  // the floor's own counters (a sale's are per store and year): the same rows locked the same way
  const invoiceKey = `FLOOR-INV:${process.pid}`;
  const orderKey = `FLOOR-ORD:${process.pid}`;
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
      // the invoice under a provisional number, before the stock, as a sale makes it
      const invoice = t.invoice
        ? (
            await trx
              .insertInto('invoices')
              .values({ ...without(t.invoice, 'id'), order_id: id, number: `FLOOR-INV~${process.pid}-${i}` })
              .returning('id')
              .executeTakeFirstOrThrow()
          ).id
        : null;
      // the ledger (modules/stock/ledger.ts issueAll): one upsert locking and reading the
      // valuations in id order, and the levels' read (one statement on PostgreSQL); then, as the sale's last statement
      // (db/later.ts), the levels, movements, valuations, batches, counters, numbers, terms, rollups
      // and the key's result
      const products = [...new Set(t.movements.map((m) => m.product_id as number))].sort((a, b) => a - b);
      const sum = (product: number, column: string) =>
        t.movements.filter((m) => m.product_id === product).reduce((n, m) => n + Number(m[column]), 0);
      const at = new Date().toISOString();
      if (pg) {
        // PostgreSQL: the lock and the levels' read in one statement, as issueAll's lockAndRead
        await lockAndReadStatement([t.order.store_id as number], products, at).execute(trx);
      } else {
        await trx
          .insertInto('stock_valuations')
          .values(products.map((product_id) => ({ product_id, quantity: 0, value_cents: 0, updated_at: at })))
          .onConflict((oc) => oc.column('product_id').doUpdateSet({ updated_at: at }))
          .returning(['product_id', 'quantity', 'value_cents'])
          .execute();
        await trx
          .selectFrom('stock_levels')
          .innerJoin('stock_batches', 'stock_batches.id', 'stock_levels.batch_id')
          .select(['stock_levels.id', 'stock_levels.batch_id', 'stock_levels.quantity'])
          .where('stock_levels.store_id', '=', t.order.store_id as number)
          .where('stock_levels.product_id', 'in', products)
          .where('stock_levels.quantity', '<>', 0)
          .orderBy('stock_batches.expiry_date')
          .orderBy('stock_batches.id')
          .execute();
      }
      const numbers = pg ? sql`numbers` : sql`sequences`;
      const writes: LastWrite[] = [
        {
          query: sql`update stock_levels set quantity = stock_levels.quantity + v.column3, updated_at = ${at}
            from (values ${sql.join(t.movements.map((m) => sql`(cast(${m.store_id} as bigint), cast(${m.batch_id} as bigint), cast(${m.quantity} as bigint))`))}) as v
            where stock_levels.store_id = v.column1 and stock_levels.batch_id = v.column2 returning id`.compile(trx),
          check: {
            rows: new Set(t.movements.map((m) => `${m.store_id}:${m.batch_id}`)).size,
            refused: () => new Error('levels'),
          },
        },
        {
          query: trx
            .insertInto('stock_movements')
            .values(t.movements.map((m) => ({ ...without(m, 'id'), document_id: id })))
            .compile(),
        },
        {
          query: sql`update stock_valuations set quantity = stock_valuations.quantity + v.column2,
              value_cents = stock_valuations.value_cents + v.column3, updated_at = ${at}
            from (values ${sql.join(products.map((p) => sql`(cast(${p} as bigint), cast(${sum(p, 'quantity')} as bigint), cast(${sum(p, 'value_cents')} as bigint))`))}) as v
            where stock_valuations.product_id = v.column1`.compile(trx),
        },
        {
          query: trx
            .insertInto('order_item_batches')
            .values(t.batches.map((b) => ({ ...without(b, 'id'), order_item_id: itemOf.get(b.order_item_id) })))
            .compile(),
        },
        {
          name: 'numbers',
          query: sql`insert into sequences (key, value) values ${sql.join(
            [...(invoice ? [invoiceKey] : []), orderKey].map((k) => sql`(${k}, 1)`),
          )} on conflict (key) do update set value = sequences.value + 1 returning key, value`.compile(trx),
        },
      ];
      if (invoice) {
        writes.push({
          query:
            sql`update invoices set number = ${`FLOOR-INV-${process.pid}-${i}-`} || (select value from ${numbers} where key = ${invoiceKey})
            where id = ${invoice}`.compile(trx),
        });
        if (t.invoiceTerms.length)
          writes.push({
            query: trx
              .insertInto('search_terms')
              .values(t.invoiceTerms.map((term) => ({ ...term, record_id: invoice })))
              .compile(),
          });
      }
      writes.push({
        query:
          sql`update orders set number = ${`FLOOR-${process.pid}-${i}-`} || (select value from ${numbers} where key = ${orderKey})
          where id = ${id}`.compile(trx),
      });
      if (t.terms.length)
        writes.push({
          query: trx
            .insertInto('search_terms')
            .values(t.terms.map((term) => ({ ...term, record_id: id })))
            .compile(),
        });
      // the same rollup rows a sale adds to (today's and this month's), in the same order
      for (const [table, column] of rollupSums) {
        writes.push({
          query:
            sql`update ${sql.table(table)} set ${sql.ref(column)} = ${sql.ref(column)} + 0 where day in (${sql.join(days)})`.compile(
              trx,
            ),
        });
      }
      writes.push({
        query: trx
          .updateTable('idempotency_keys')
          .set({ result: JSON.stringify(id) })
          .where('key', '=', key)
          .compile(),
      });
      await runTogether(trxDb, writes);
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
