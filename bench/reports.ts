/**
 * Reports at scale: a year of a busy depot (1,000,000 order lines by default: ~250,000 sales of
 * 4 lines in 3 stores, 500 products, each line with its ledger movement and each sale its payment)
 * written straight into the SQLite file the server runs on, then each report and the dashboard
 * timed for a month and for a year, against the HTTP floor (GET /api/health) of the same run.
 *
 *   npm run bench:reports                        # 1,000,000 lines
 *   npm run bench:reports -- --lines 50000       # a quick run
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { addDays, todayInCambodia } from '@depot/contracts';
import Database from 'better-sqlite3';
import { signIn, startServer } from './server.ts';

const { values } = parseArgs({
  options: {
    lines: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '5' },
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
  const file = path.join(dir, 'bench.sqlite');
  let server = await startServer({ adminPassword: password, dir });
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
  const customers = (await call<{ data: { id: number }[] }>('GET', '/customers?per_page=10')).data.map((c) => c.id);
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

  // the year's sales, written straight into the file while no server runs
  const started = performance.now();
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  const batchOf = db.prepare('select id from stock_batches where product_id = ? limit 1');
  const batchIds = new Map<number, number>();
  const insertBatch = db.prepare(
    "insert into stock_batches (product_id, lot, expiry_date, batch_key, created_at) values (?, null, null, '', ?) returning id",
  );
  for (const p of products) {
    const row = batchOf.get(p) as { id: number } | undefined;
    batchIds.set(p, row ? row.id : (insertBatch.get(p, new Date().toISOString()) as { id: number }).id);
  }
  const order =
    db.prepare(`insert into orders (number, store_id, cashier_id, customer_id, order_date, status, payment_status,
    subtotal_cents, discount_cents, tax_cents, delivery_fee_cents, total_cents, paid_cents, change_cents, change_khr,
    exchange_rate_khr, khr_step, total_khr, vat_rate_bp, items_count, created_at, updated_at)
    values (?, ?, 1, ?, ?, 'confirmed', 'paid', ?, 0, ?, 0, ?, ?, 0, 0, 4100, 100, 0, 1000, ?, ?, ?) returning id`);
  const item =
    db.prepare(`insert into order_items (order_id, kind, product_id, name_en, name_kh, sku, unit_id, factor, quantity,
    unit_price_cents, line_discount_cents, order_discount_cents, net_cents, tax_cents, total_cents, taxable, returned_quantity)
    values (?, 'product', ?, ?, ?, ?, ?, 1, ?, ?, 0, 0, ?, ?, ?, ?, 0)`);
  const move =
    db.prepare(`insert into stock_movements (type, store_id, product_id, batch_id, quantity, value_cents, balance,
    document_type, document_id, user_id, created_at) values ('sale', ?, ?, ?, ?, ?, 0, 'order', ?, 1, ?)`);
  const pay =
    db.prepare(`insert into order_payments (order_id, kind, method, amount, amount_cents, received_by, created_at)
    values (?, 'payment', ?, ?, ?, 1, ?)`);
  const orders = Math.ceil(LINES / PER_ORDER);
  const yearStart = Date.parse(`${addDays(todayInCambodia(), -364)}T01:00:00Z`);
  const span = 364 * 86_400_000 + 12 * 3_600_000;
  let seed = 42;
  const rand = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const write = db.transaction((from: number, to: number) => {
    for (let o = from; o < to; o++) {
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
      const { id } = order.get(
        `B-${o}`,
        store,
        customers[o % customers.length],
        at,
        subtotal,
        tax,
        subtotal + tax,
        subtotal + tax,
        PER_ORDER,
        at,
        at,
      ) as { id: number };
      for (const l of lines) {
        const product = products[l.p];
        item.run(
          id,
          product,
          `Product ${l.p}`,
          `ផលិតផល ${l.p}`,
          `BR-${l.p}`,
          unit,
          l.quantity,
          l.price,
          l.net,
          l.tax,
          l.net + l.tax,
          l.p % 2 === 0 ? 1 : 0,
        );
        move.run(store, product, batchIds.get(product), -l.quantity, -Math.round(l.net * 0.6), id, at);
      }
      pay.run(id, o % 3 === 0 ? 'cash_khr' : 'cash_usd', subtotal + tax, subtotal + tax, at);
    }
  });
  for (let o = 0; o < orders; o += 10_000) write(o, Math.min(orders, o + 10_000));
  db.exec('analyze');
  db.close();
  console.log(
    `wrote ${orders * PER_ORDER} order lines (${orders} sales) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  server = await startServer({ adminPassword: password, dir });
  try {
    const { auth } = await signIn(server, password);
    const time = async (url: string) => {
      const ms: number[] = [];
      for (let i = 0; i < RUNS; i++) {
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
      { case: 'GET /api/dashboard', 'month ms': (await time('/api/dashboard')).toFixed(0), 'year ms': '' },
    ];
    for (const name of ['sales', 'financial', 'inventory', 'customer']) {
      rows.push({
        case: `GET /api/reports/${name}`,
        'month ms': (await time(`/api/reports/${name}?${month}`)).toFixed(0),
        'year ms': (await time(`/api/reports/${name}?${year}&group=month`)).toFixed(0),
      });
    }
    console.log(`\nReports: sqlite, ${orders * PER_ORDER} order lines, median of ${RUNS} sequential requests`);
    console.table(rows);
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
