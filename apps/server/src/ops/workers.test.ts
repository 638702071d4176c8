import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../paths.ts';
import { ADMIN_PASSWORD, emptyDatabase, TEST_REDIS_URL, testRedisPrefix } from '../test/harness.ts';
import { httpClient } from '../test/http.ts';

/** The processes whose parent is `pid` (Linux's /proc). */
function childrenOf(pid: number): number[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number)
    .filter((child) => fs.readFileSync(`/proc/${child}/cmdline`, 'utf8').includes('main.ts'));
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
  const output: string[] = [];
  let server: ReturnType<typeof spawn>;
  let exited: Promise<number | null>;
  let drop: () => Promise<void>;
  let url: string;

  beforeAll(async () => {
    const target = await emptyDatabase();
    drop = target.drop;
    server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: target.url,
        DEPOT_UPLOADS_DIR: path.join(target.dir, 'uploads'),
        DEPOT_WEB_DIST: path.join(target.dir, 'no-web-build'),
        DEPOT_ADMIN_PASSWORD: ADMIN_PASSWORD,
        REDIS_URL: TEST_REDIS_URL,
        REDIS_PREFIX: testRedisPrefix(),
        BROADCAST_DRIVER: 'redis',
        DEPOT_WORKERS: '2',
        LOG_LEVEL: 'error',
      },
    });
    exited = new Promise((resolve) => server.once('exit', resolve));
    const take = (chunk: Buffer) => output.push(chunk.toString());
    server.stdout?.on('data', take);
    server.stderr?.on('data', take);
    const started = await until(() => {
      const all = [...output.join('').matchAll(/Depot is running at (http:\/\/\S+)/g)];
      return all.length >= 2 ? all.map((m) => m[1]) : undefined;
    }, 60);
    // both on the one port (PORT=0: the first one's, shared)
    expect(new Set(started).size).toBe(1);
    url = started[0].replace('localhost', '127.0.0.1');
  }, 90_000);

  afterAll(async () => {
    if (server?.exitCode === null) {
      server.kill('SIGTERM');
      await exited;
    }
    await drop?.();
  });

  it('serves from two processes, starts one again when it dies, and stops them all on SIGTERM', async () => {
    const workers = childrenOf(server.pid as number);
    expect(workers).toHaveLength(2);
    const admin = await httpClient(url).signIn('admin', ADMIN_PASSWORD);
    for (let i = 0; i < 6; i++) expect((await admin.call('GET', '/api/products?search=rice')).status).toBe(200);

    process.kill(workers[0], 'SIGKILL');
    const replaced = await until(() => {
      const now = childrenOf(server.pid as number);
      return now.length === 2 && !now.includes(workers[0]) ? now : undefined;
    });
    expect(replaced).toContain(workers[1]);
    await until(() => (output.join('').match(/Depot is running at/g)?.length === 3 ? true : undefined));
    expect(output.join('')).toMatch(/Depot process 0 stopped \(SIGKILL\): starting it again/);
    for (let i = 0; i < 6; i++) expect((await admin.call('GET', '/api/me')).status).toBe(200);

    server.kill('SIGTERM');
    expect(await exited).toBe(0);
    for (const worker of replaced) expect(fs.existsSync(`/proc/${worker}/stat`)).toBe(false);
  }, 60_000);
});
