/**
 * Reports at scale: a year of a busy depot (1,000,000 order lines by default: ~250,000 sales of
 * 4 lines in 3 stores, 500 products, 200 named customers and the walk-in one, each line with its
 * ledger movement and each sale its payment)
 * written straight into the database the server runs on (then its daily rollups rebuilt as
 * migration 0022 fills them, db/rollups.ts), then each report and the dashboard timed for a month
 * and for a year, against the HTTP floor (GET /api/health) of the same run.
 *
 *   npm run bench:reports                        # 1,000,000 lines, SQLite
 *   npm run bench:reports -- --lines 50000       # a quick run
 *   npm run bench:reports -- --db postgres       # PostgreSQL (DATABASE_URL_PG or the local server)
 *   npm run bench:reports -- --keep              # keeps the database, to look into a query
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { addDays, todayInCambodia } from '@depot/contracts';
import { sql } from 'kysely';
import { createDatabase } from '../apps/server/src/db/database.ts';
import { rebuildRollups } from '../apps/server/src/db/rollups.rebuild.ts';
import { transaction } from '../apps/server/src/db/transaction.ts';
import { createPostgresDatabase, signIn, startServer } from './server.ts';

const { values } = parseArgs({
  options: {
    lines: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '5' },
    db: { type: 'string', default: 'sqlite' },
    keep: { type: 'boolean', default: false },
  },
});
const LINES = Number(values.lines);
const RUNS = Number(values.runs);
const PER_ORDER = 4;
const PRODUCTS = 500;
const password = 'bench-password-1';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'depot-bench-reports-'));
  const pgDb = values.db === 'postgres' ? await createPostgresDatabase() : undefined;
  const databaseUrl = pgDb?.url ?? `sqlite:${path.join(dir, 'bench.sqlite')}`;
  let server = await startServer({ databaseUrl: pgDb?.url, adminPassword: password, dir });
  const { call } = await signIn(server, password);
  const category = (await call<{ data: { id: number } }>('POST', '/categories', { name_en: 'General', name_kh: 'ទូទៅ' }))
    .data.id;
  const unit = (
    await call<{ data: { id: number } }>('POST', '/units', { name_en: 'Piece', name_kh: 'ដុំ', short_name: 'pc' })
  ).data.id;
  const stores = [(await call<{ data: { id: number }[] }>('GET', '/stores?per_page=10')).data[0].id];
  for (const code of ['B2', 'B3']) {
    stores.push((await call<{ data: { id: number } }>('POST', '/stores', { name: `Store ${code}`, code })).data.id);
  }
  // the walk-in customer buys one sale in four; 200 named customers the rest
  const customers = (await call<{ data: { id: number }[] }>('GET', '/customers?per_page=10')).data.map((c) => c.id);
  for (let i = 0; i < 200; i++) {
    customers.push((await call<{ data: { id: number } }>('POST', '/customers', { name: `Customer ${i}` })).data.id);
  }
  const products: number[] = [];
  for (let i = 0; i < PRODUCTS; i++) {
    products.push(
      (
        await call<{ data: { id: number } }>('POST', '/products', {
          name_en: `Product ${i}`,
          name_kh: `ផលិតផល ${i}`,
          sku: `BR-${i}`,
          category_id: category,
          unit_id: unit,
          price_usd_cents: 100 + (i % 50) * 25,
          taxable: i % 2 === 0,
        })
      ).data.id,
    );
  }
  for (const store of stores) {
    await call('POST', '/stocks/adjustments', {
      store_id: store,
      reason: 'found',
      items: products.slice(0, 100).map((product_id) => ({ product_id, quantity: 1000 })),
    });
  }
  await server.stop().catch(() => undefined);

  // the year's sales, written straight into the database while no server runs
  const started = performance.now();
  const orders = Math.ceil(LINES / PER_ORDER);
  const yearStart = Date.parse(`${addDays(todayInCambodia(), -364)}T01:00:00Z`);
  const span = 364 * 86_400_000 + 12 * 3_600_000;
  let seed = 42;
  const rand = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  /** One generated sale: its order row, lines, movements and payment (the order id filled in later). */
  const sale = (o: number) => {
    const at = new Date(yearStart + Math.floor((o / orders) * span)).toISOString();
    const store = stores[o % stores.length];
    const lines = Array.from({ length: PER_ORDER }, () => {
      const p = Math.floor(rand() * PRODUCTS);
      const quantity = 1 + Math.floor(rand() * 3);
      const price = 100 + (p % 50) * 25;
      const net = price * quantity;
      const tax = p % 2 === 0 ? Math.round(net / 10) : 0;
      return { p, quantity, price, net, tax };
    });
    const subtotal = lines.reduce((a, l) => a + l.net, 0);
    const tax = lines.reduce((a, l) => a + l.tax, 0);
    return { o, at, store, lines, subtotal, tax };
  };
  const database = createDatabase(databaseUrl);
  const db = database.db;
  const batchIds = new Map<number, number>();
  for (const p of products) {
    const row = await db.selectFrom('stock_batches').select('id').where('product_id', '=', p).executeTakeFirst();
    batchIds.set(
      p,
      row
        ? row.id
        : (
            await db
              .insertInto('stock_batches')
              .values({
                product_id: p,
                lot: null,
                expiry_date: null,
                batch_key: '',
                created_at: new Date().toISOString(),
              })
              .returning('id')
              .executeTakeFirstOrThrow()
          ).id,
    );
  }
  const CHUNK = 500;
  for (let from = 0; from < orders; from += CHUNK) {
    const sales = Array.from({ length: Math.min(CHUNK, orders - from) }, (_, k) => sale(from + k));
    await db.transaction().execute(async (trx) => {
      const made = await trx
        .insertInto('orders')
        .values(
          sales.map((s) => ({
            number: `B-${s.o}`,
            store_id: s.store,
            cashier_id: 1,
            customer_id: s.o % 4 === 0 ? customers[0] : customers[1 + (s.o % (customers.length - 1))],
            order_date: s.at,
            status: 'confirmed' as const,
            payment_status: 'paid' as const,
            subtotal_cents: s.subtotal,
            discount_cents: 0,
            tax_cents: s.tax,
            delivery_fee_cents: 0,
            total_cents: s.subtotal + s.tax,
            paid_cents: s.subtotal + s.tax,
            change_cents: 0,
            change_khr: 0,
            exchange_rate_khr: 4100,
            khr_step: 100,
            total_khr: 0,
            vat_rate_bp: 1000,
            items_count: PER_ORDER,
            created_at: s.at,
            updated_at: s.at,
          })),
        )
        .returning('id')
        .execute();
      // one statement numbers its rows in the order given; RETURNING's own order is not promised
      const ids = made.map((m) => m.id).sort((a, b) => a - b);
      const items = sales.flatMap((s, k) =>
        s.lines.map((l) => ({
          order_id: ids[k],
          kind: 'product' as const,
          product_id: products[l.p],
          name_en: `Product ${l.p}`,
          name_kh: `ផលិតផល ${l.p}`,
          sku: `BR-${l.p}`,
          unit_id: unit,
          factor: 1,
          quantity: l.quantity,
          unit_price_cents: l.price,
          line_discount_cents: 0,
          order_discount_cents: 0,
          net_cents: l.net,
          tax_cents: l.tax,
          total_cents: l.net + l.tax,
          taxable: l.p % 2 === 0 ? 1 : 0,
          returned_quantity: 0,
        })),
      );
      const moves = sales.flatMap((s, k) =>
        s.lines.map((l) => ({
          type: 'sale',
          store_id: s.store,
          product_id: products[l.p],
          batch_id: batchIds.get(products[l.p]) as number,
          quantity: -l.quantity,
          value_cents: -Math.round(l.net * 0.6),
          balance: 0,
          document_type: 'order',
          document_id: ids[k],
          user_id: 1,
          created_at: s.at,
        })),
      );
      const payments = sales.map((s, k) => ({
        order_id: ids[k],
        kind: 'payment' as const,
        method: s.o % 3 === 0 ? 'cash_khr' : 'cash_usd',
        amount: s.subtotal + s.tax,
        amount_cents: s.subtotal + s.tax,
        received_by: 1,
        created_at: s.at,
      }));
      for (let i = 0; i < items.length; i += 1000)
        await trx
          .insertInto('order_items')
          .values(items.slice(i, i + 1000))
          .execute();
      for (let i = 0; i < moves.length; i += 1000)
        await trx
          .insertInto('stock_movements')
          .values(moves.slice(i, i + 1000))
          .execute();
      await trx.insertInto('order_payments').values(payments).execute();
    });
  }
  const wrote = performance.now();
  // the reports' rollups, as migration 0022 fills them for an existing depot (db/rollups.ts)
  await transaction(db, rebuildRollups);
  await sql`analyze`.execute(db);
  await database.close();
  console.log(
    `wrote ${orders * PER_ORDER} order lines (${orders} sales) in ${((wrote - started) / 1000).toFixed(1)} s; ` +
      `rollups rebuilt in ${((performance.now() - wrote) / 1000).toFixed(1)} s`,
  );

  server = await startServer({ databaseUrl: pgDb?.url, adminPassword: password, dir });
  try {
    const { auth } = await signIn(server, password);
    const time = async (url: string, runs = RUNS) => {
      const ms: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t = performance.now();
        const res = await fetch(`${server.url}${url}`, { headers: auth });
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`${url}: ${res.status}`);
        ms.push(performance.now() - t);
      }
      return median(ms);
    };
    const floorMs: number[] = [];
    for (let i = 0; i < 200; i++) {
      const t = performance.now();
      await (await fetch(`${server.url}/api/health`)).arrayBuffer();
      floorMs.push(performance.now() - t);
    }
    const today = todayInCambodia();
    const month = `from=${addDays(today, -29)}&to=${today}`;
    const year = `from=${addDays(today, -364)}&to=${today}`;
    const rows: Record<string, string | number>[] = [
      { case: 'GET /api/health (floor)', 'month ms': median(floorMs).toFixed(1), 'year ms': '' },
      // the first read computes it; the next ones, nothing having changed, are the remembered answer
      {
        case: 'GET /api/dashboard, first read',
        'month ms': (await time('/api/dashboard', 1)).toFixed(0),
        'year ms': '',
      },
      { case: 'GET /api/dashboard, again', 'month ms': (await time('/api/dashboard')).toFixed(0), 'year ms': '' },
    ];
    for (const name of ['sales', 'financial', 'inventory', 'customer']) {
      rows.push({
        case: `GET /api/reports/${name}`,
        'month ms': (await time(`/api/reports/${name}?${month}`)).toFixed(0),
        'year ms': (await time(`/api/reports/${name}?${year}&group=month`)).toFixed(0),
      });
    }
    console.log(
      `\nReports: ${pgDb ? 'postgres' : 'sqlite'}, ${orders * PER_ORDER} order lines, median of ${RUNS} sequential requests`,
    );
    console.table(rows);
  } finally {
    await server.stop();
    if (values.keep) console.log(`kept: ${databaseUrl}`);
    else {
      await pgDb?.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
