import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, emptyDatabase, TEST_REDIS_URL, testRedisPrefix } from '../test/harness.ts';
import { httpClient } from '../test/http.ts';
import { type ServerProcess, spawnServer, stopServer } from '../test/serverProcess.ts';

/** The processes whose parent is `pid` (Linux's /proc). */
function childrenOf(pid: number): number[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      // a process may end between any two reads (the one killed, the one replaced): gone, not ours
      try {
        const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
        if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== pid) return false;
        return fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('main.ts');
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function until<T>(check: () => T | undefined | Promise<T | undefined>, seconds = 30): Promise<T> {
  const end = Date.now() + seconds * 1000;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * DEPOT_WORKERS=2: one command starts two server processes on one port (node:cluster), each a whole
 * Depot sharing the database and Redis as several machines would; one that dies is started again.
 */
describe('DEPOT_WORKERS: several server processes on one port', () => {
  let server: ServerProcess;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const target = await emptyDatabase();
    drop = target.drop;
    server = await spawnServer({
      databaseUrl: target.url,
      dir: target.dir,
      env: {
        REDIS_URL: TEST_REDIS_URL,
        REDIS_PREFIX: testRedisPrefix(),
        BROADCAST_DRIVER: 'redis',
        DEPOT_WORKERS: '2',
      },
      ready: 2,
    });
    // both on the one port (PORT=0: the first one's, shared)
    const started = [...server.output.join('').matchAll(/Depot is running at (http:\/\/\S+)/g)].map((m) => m[1]);
    expect(new Set(started).size).toBe(1);
  }, 90_000);

  afterAll(async () => {
    await stopServer(server);
    await drop?.();
  });

  it('serves from two processes, starts one again when it dies, and stops them all on SIGTERM', async () => {
    const workers = childrenOf(server.process.pid as number);
    expect(workers).toHaveLength(2);
    const admin = await httpClient(server.url).signIn('admin', ADMIN_PASSWORD);
    for (let i = 0; i < 6; i++) expect((await admin.call('GET', '/api/products?search=rice')).status).toBe(200);

    process.kill(workers[0], 'SIGKILL');
    const replaced = await until(() => {
      const now = childrenOf(server.process.pid as number);
      return now.length === 2 && !now.includes(workers[0]) ? now : undefined;
    });
    expect(replaced).toContain(workers[1]);
    await until(() => (server.output.join('').match(/Depot is running at/g)?.length === 3 ? true : undefined));
    expect(server.output.join('')).toMatch(/Depot process 0 stopped \(SIGKILL\): starting it again/);
    for (let i = 0; i < 6; i++) expect((await admin.call('GET', '/api/me')).status).toBe(200);

    server.process.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    for (const worker of replaced) expect(fs.existsSync(`/proc/${worker}/stat`)).toBe(false);
  }, 60_000);
});
