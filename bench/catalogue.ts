/**
 * Product search at catalogue scale: 100,000 products by default (Khmer and English names),
 * searched by name prefix, by a common word with a number ("Noodles 50010": a twelfth of the
 * catalogue is noodles), by a common word alone, by Khmer (as typed: ្ត for ្ដ, a zero-width
 * space), by SKU and by barcode, and a list page with its total, each against the HTTP floor
 * measured in the same run, with p99.
 *
 *   npm run bench:catalogue                  # SQLite
 *   npm run bench:catalogue -- --db postgres
 *   npm run bench:catalogue -- --products 1000000 --keep /tmp/cat1m   # keep the filled file (SQLite) or
 *     database (PostgreSQL: depot_bench_keep_cat1m) and reuse it next time
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { barcodeOf, englishWords, fillCatalogue, khmerWords, refreshCatalogue } from './catalogueFill.ts';
import { createPostgresDatabase, type RunningServer, signIn, startServer } from './server.ts';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    products: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    /** SQLite: a folder to fill once and reuse (the file stays); PostgreSQL: the database is not dropped. */
    keep: { type: 'string' },
    /** Only the cases whose name contains one of these (comma-separated): `--cases Khmer,list`. */
    cases: { type: 'string' },
    /** Server processes (DEPOT_WORKERS), with the local Redis (REDIS_URL, default redis://127.0.0.1:6379). */
    workers: { type: 'string', default: '1' },
  },
});
const count = Number(values.products);
const duration = Number(values.duration);
const connections = Number(values.connections);
const password = 'bench-password-1';

let server: RunningServer;
const wanted = values.cases?.split(',').map((c) => c.trim().toLowerCase());

async function measure(name: string, path: string, headers: Record<string, string>) {
  if (wanted && !name.startsWith('GET /api/health') && !wanted.some((c) => name.toLowerCase().includes(c))) return null;
  const options = { url: `${server.url}${path}`, connections, headers };
  await autocannon({ ...options, duration: 2 });
  const cpu = server.cpuMs();
  const r = await autocannon({ ...options, duration });
  const cpuMs = server.cpuMs() - cpu;
  // requests autocannon gave up on are still queued in the server: the next case waits for them
  await fetch(`${server.url}/api/health`);
  return {
    case: name,
    'req/s': Math.round(r.requests.average),
    'p50 ms': r.latency.p50,
    'p99 ms': r.latency.p99,
    'server CPU µs/req': Math.round((cpuMs * 1000) / Math.max(1, r.requests.total)),
    errors: r.errors + r.non2xx + r.timeouts,
  };
}

async function main() {
  const dir = values.keep ?? fs.mkdtempSync(path.join(os.tmpdir(), 'depot-bench-catalogue-'));
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'bench.sqlite');
  let reuse = values.db !== 'postgres' && values.keep !== undefined && fs.existsSync(file);
  let databaseUrl = `sqlite:${file}`;
  let drop: (() => Promise<void>) | undefined;
  if (values.db === 'postgres') {
    // with --keep NAME: the database depot_bench_NAME, filled once and reused
    const created = await createPostgresDatabase(values.keep === undefined ? undefined : `keep_${path.basename(dir)}`);
    databaseUrl = created.url;
    drop = created.drop;
    reuse = created.existed;
  }
  const started = performance.now();
  // rules of search changed since the fill: rebuild the index here, not in the server's start-up
  if (reuse) await refreshCatalogue(databaseUrl);
  else await fillCatalogue(databaseUrl, count, password);
  console.log(`filled ${count} products in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const workers = Number(values.workers);
  const env =
    workers > 1
      ? {
          DEPOT_WORKERS: String(workers),
          REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
          REDIS_PREFIX: `depot-bench-${process.pid}:`,
          BROADCAST_DRIVER: 'redis',
        }
      : undefined;
  server = await startServer({ databaseUrl, adminPassword: password, dir, env });
  // every process serving before the first case (each one tells it is running)
  if (workers > 1) await new Promise((resolve) => setTimeout(resolve, 5000));
  try {
    const { auth } = await signIn(server, password);
    const middle = Math.floor(count / 2);
    const search = (text: string) => `/api/products?search=${encodeURIComponent(text)}`;
    const measured = [
      await measure('GET /api/health (floor)', '/api/health', {}),
      // a twelfth of the products are noodles (83,333 at 1,000,000): a page of them, "more than 1,000"
      await measure('common English word alone', search(englishWords[6]), auth),
      await measure('common word prefix ("Nood")', search(englishWords[6].slice(0, 4)), auth),
      // 50010 begins 111 numbers at 1,000,000
      await measure('common word with a number', search(`${englishWords[6]} 50010`), auth),
      await measure('name with its number', search(`${englishWords[middle % englishWords.length]} ${middle}`), auth),
      await measure('Khmer word alone (common)', search(khmerWords[6]), auth),
      await measure('Khmer prefix', search(khmerWords[1].slice(0, 4)), auth),
      await measure('Khmer name with its number', search(`${khmerWords[middle % khmerWords.length]} ${middle}`), auth),
      await measure(
        'Khmer as typed (្ត, zero-width space)',
        search(`${khmerWords[(7 * 1001) % 12]}\u200b ក្តា ${7 * 1001}`),
        auth,
      ),
      await measure('search by SKU', search(`SKU-${String(middle).padStart(6, '0')}`), auth),
      await measure('search by barcode', search(barcodeOf(middle)), auth),
      await measure('rare word (a number)', search(String(middle + 3)), auth),
      await measure('list page 20 with total', '/api/products?page=50&per_page=20', auth),
      await measure('GET /api/health (floor, again)', '/api/health', {}),
    ];
    const rows = measured.filter((row) => row !== null);
    const floor = rows[0]['req/s'];
    const load = os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ');
    console.log(
      `\nProducts: ${count}, ${values.db}, ${workers} process(es), ${connections} connections, ${duration} s a case, load average ${load} (${os.cpus().length} cores)`,
    );
    console.table(rows.map((r) => ({ ...r, 'of floor': `${((r['req/s'] / floor) * 100).toFixed(1)} %` })));
  } finally {
    await server.stop();
    if (values.keep && drop) console.log(`kept ${databaseUrl}`);
    else await drop?.();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
