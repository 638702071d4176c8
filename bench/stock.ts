/**
 * Stock writes: receiving a 50-line purchase, and sending then receiving a 10-line transfer, each
 * request a different document prepared beforehand, against the HTTP floor of the same run. The
 * ledger writes one movement per line (and per batch), all in one transaction per request.
 *
 *   npm run bench:stock                  # SQLite
 *   npm run bench:stock -- --db postgres
 */
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createPostgresDatabase, type RunningServer, signIn, startServer } from './server.ts';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    documents: { type: 'string', default: '300' },
    connections: { type: 'string', default: '8' },
  },
});
const documents = Number(values.documents);
const connections = Number(values.connections);
const password = 'bench-password-1';
const LINES = 50;

let server: RunningServer;
let auth: Record<string, string>;
let call: Awaited<ReturnType<typeof signIn>>['call'];

/** Each request of a case takes the next path from `paths`: a document is received or sent once. */
async function measure(name: string, method: 'GET' | 'POST', paths: string[], body?: (i: number) => unknown) {
  let next = 0;
  const cpu = server.cpuMs();
  const started = performance.now();
  const result = await autocannon({
    url: server.url,
    connections,
    amount: paths.length,
    headers: { ...auth, 'content-type': 'application/json' },
    requests: [
      {
        method,
        setupRequest: (request) => {
          const i = next++;
          return { ...request, path: paths[i % paths.length], body: body ? JSON.stringify(body(i)) : undefined };
        },
      },
    ],
  });
  return {
    case: name,
    // counted over the run's own time: a case of a few hundred requests lasts about a second
    'req/s': Math.round(result.requests.total / ((performance.now() - started) / 1000)),
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    'server CPU µs/req': Math.round(((server.cpuMs() - cpu) * 1000) / Math.max(1, result.requests.total)),
    errors: result.errors + result.non2xx,
  };
}

async function main() {
  const pgDb = values.db === 'postgres' ? await createPostgresDatabase() : undefined;
  server = await startServer({ databaseUrl: pgDb?.url, adminPassword: password });
  try {
    const session = await signIn(server, password);
    auth = session.auth;
    call = session.call;

    const category = (
      await call<{ data: { id: number } }>('POST', '/categories', { name_en: 'General', name_kh: 'ទូទៅ' })
    ).data.id;
    const unit = (
      await call<{ data: { id: number } }>('POST', '/units', { name_en: 'Piece', name_kh: 'ដុំ', short_name: 'pc' })
    ).data.id;
    const supplier = (
      await call<{ data: { id: number } }>('POST', '/suppliers', { name: 'Bench supplier', type: 'company' })
    ).data.id;
    const main = (await call<{ data: { id: number }[] }>('GET', '/stores?per_page=10')).data[0].id;
    const other = (await call<{ data: { id: number } }>('POST', '/stores', { name: 'Second store', code: 'BENCH-2' }))
      .data.id;
    const productIds: number[] = [];
    for (let i = 0; i < LINES; i++) {
      const made = await call<{ data: { id: number } }>('POST', '/products', {
        name_en: `Bench product ${i}`,
        name_kh: `ផលិតផល ${i}`,
        sku: `BENCH-${i}`,
        category_id: category,
        unit_id: unit,
        price_usd_cents: 250,
      });
      productIds.push(made.data.id);
    }

    const started = performance.now();
    const purchases: number[] = [];
    for (let d = 0; d < documents; d++) {
      const made = await call<{ data: { id: number } }>('POST', '/purchases', {
        supplier_id: supplier,
        store_id: main,
        purchase_date: '2026-11-01',
        shipping_cents: 1234,
        items: productIds.map((product_id, i) => ({
          product_id,
          unit_id: unit,
          quantity: 100,
          unit_price_cents: 100 + i,
          lot: `L${d % 3}`,
          expiry_date: `2027-0${1 + (d % 9)}-15`,
        })),
      });
      purchases.push(made.data.id);
    }
    const transfers: number[] = [];
    for (let d = 0; d < documents; d++) {
      const made = await call<{ data: { id: number } }>('POST', '/stock-transfers', {
        from_store_id: main,
        to_store_id: other,
        items: productIds.slice(0, 10).map((product_id) => ({ product_id, unit_id: unit, quantity: 3 })),
      });
      transfers.push(made.data.id);
    }
    console.log(
      `prepared ${documents} purchases of ${LINES} lines and ${documents} transfers of 10 lines in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    const details = new Map<number, number[]>();
    for (const id of purchases) {
      const detail = await call<{ data: { items: { id: number }[] } }>('GET', `/purchases/${id}`);
      details.set(
        id,
        detail.data.items.map((item) => item.id),
      );
    }

    const floor = await measure(
      'GET /api/health (floor)',
      'GET',
      Array.from({ length: 20_000 }, () => '/api/health'),
    );
    const rows = [
      floor,
      await measure(
        `receive a ${LINES}-line purchase`,
        'POST',
        purchases.map((id) => `/api/purchases/${id}/receive`),
        (i) => ({ items: (details.get(purchases[i]) ?? []).map((item_id) => ({ item_id, quantity: 100 })) }),
      ),
      await measure(
        'send a 10-line transfer',
        'POST',
        transfers.map((id) => `/api/stock-transfers/${id}/send`),
      ),
      await measure(
        'receive a 10-line transfer',
        'POST',
        transfers.map((id) => `/api/stock-transfers/${id}/receive`),
      ),
    ];
    console.log(`\nStock writes: ${values.db}, ${connections} connections, ${documents} documents a case`);
    console.table(rows.map((r) => ({ ...r, 'of floor': `${((r['req/s'] / floor['req/s']) * 100).toFixed(1)} %` })));
  } finally {
    await server.stop();
    await pgDb?.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
