/**
 * Depot's HTTP benchmarks. Each figure is read against the HTTP floor (GET /api/health: routing
 * and serialization, no authentication, no database) measured in the same run on the same machine,
 * so the ratio means something wherever it runs. Prints figures; asserts nothing.
 *
 *   npm run bench                         # SQLite, 32 connections, 10 s a case
 *   npm run bench -- --db postgres        # PostgreSQL (DATABASE_URL_PG or the local server)
 *   npm run bench -- --duration 5 --connections 16
 */
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createPostgresDatabase, type RunningServer, signIn, startServer } from './server.ts';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
  },
});
const duration = Number(values.duration);
const connections = Number(values.connections);
const password = 'bench-password-1';

interface Figure {
  name: string;
  rps: number;
  /** Server CPU per request: unlike req/s, not skewed by the load generator sharing the cores. */
  cpuUs: number;
  p50: number;
  p99: number;
  errors: number;
}

let server: RunningServer;

async function measure(name: string, url: string, headers: Record<string, string> = {}): Promise<Figure> {
  // a short warm-up so JIT and caches are in the same state for every case
  await autocannon({ url, connections, duration: 2, headers });
  const cpuBefore = server.cpuMs();
  const result = await autocannon({ url, connections, duration, headers });
  const cpuMs = server.cpuMs() - cpuBefore;
  return {
    name,
    rps: result.requests.average,
    cpuUs: (cpuMs * 1000) / Math.max(1, result.requests.total),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

async function main() {
  const pgDb = values.db === 'postgres' ? await createPostgresDatabase() : undefined;
  server = await startServer({ databaseUrl: pgDb?.url, adminPassword: password });
  try {
    const auth = { ...(await signIn(server, password)).auth, 'x-localization': 'kh' };

    const floor = await measure('GET /api/health (floor)', `${server.url}/api/health`);
    const cases = [
      await measure('GET /api/me', `${server.url}/api/me`, auth),
      await measure('GET /api/dashboard', `${server.url}/api/dashboard`, auth),
    ];

    console.log(`\nDepot HTTP benchmark: ${values.db}, ${connections} connections, ${duration} s a case\n`);
    const rows = [floor, ...cases].map((f) => ({
      case: f.name,
      'req/s': Math.round(f.rps),
      'p50 ms': f.p50,
      'p99 ms': f.p99,
      'of floor': `${((f.rps / floor.rps) * 100).toFixed(1)} %`,
      'server CPU µs/req': Math.round(f.cpuUs),
      errors: f.errors,
    }));
    console.table(rows);
  } finally {
    await server.stop();
    await pgDb?.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
