import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface RunningServer {
  url: string;
  port: number;
  /** CPU time the server process has used so far, in milliseconds (user + system). */
  cpuMs(): number;
  /** Resident memory of the server process, in kB. */
  rssKb(): number;
  /** SIGTERM: a clean shutdown; SIGKILL: a crash. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** The administrator signed in: the bearer header, and a JSON call that throws on any refusal. */
export async function signIn(server: RunningServer, password: string) {
  const res = await fetch(`${server.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'admin', password }),
  });
  if (!res.ok) throw new Error(`sign-in: ${res.status}`);
  const { token } = (await res.json()) as { token: string };
  const auth = { authorization: `Bearer ${token}` };
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const answer = await fetch(`${server.url}/api${path}`, {
      method,
      headers: { ...auth, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await answer.json()) as T;
    if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(json)}`);
    return json;
  }
  return { auth, call };
}

/** The fields of /proc/<pid>/stat after the command's name (state, ppid, …), or null once it is gone. */
function statOf(pid: number | string): string[] | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/**
 * A process's CPU time so far (user + system, ms), its live child processes' included (the server
 * processes of DEPOT_WORKERS), and its resident memory (kB), from /proc.
 */
export function processStats(pid: number) {
  const ticksPerSecond = 100; // Linux USER_HZ
  const cpuOf = (fields: string[] | null) => (fields ? Number(fields[11]) + Number(fields[12]) : 0);
  return {
    cpuMs() {
      let ticks = cpuOf(statOf(pid));
      for (const name of fs.readdirSync('/proc')) {
        if (!/^\d+$/.test(name)) continue;
        const fields = statOf(name);
        if (fields && Number(fields[1]) === pid) ticks += cpuOf(fields);
      }
      return (ticks * 1000) / ticksPerSecond;
    },
    rssKb() {
      return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    },
  };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/**
 * Starts Depot as its own process (as `npm start` would, without the web build), on a fresh
 * database, so the load generator in this process does not share its event loop.
 */
export async function startServer(options: {
  databaseUrl?: string;
  adminPassword: string;
  /** Prepared beforehand (an SQLite file already filled); otherwise a fresh one in a temporary folder. */
  dir?: string;
  /** More environment (the real-time driver, Redis). */
  env?: Record<string, string>;
}): Promise<RunningServer> {
  const port = await freePort();
  const dir = options.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'depot-bench-'));
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: options.databaseUrl ?? `sqlite:${path.join(dir, 'bench.sqlite')}`,
    DEPOT_ADMIN_PASSWORD: options.adminPassword,
    LOG_LEVEL: 'warn',
    ...options.env,
  };
  // BENCH_CPU_PROF=<folder>: the server writes a V8 CPU profile there when it stops (open it in Chrome's DevTools)
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child: ChildProcess = spawn(process.execPath, [...profile, '--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server did not start in 60 s')), 60_000);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('Depot is running')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return {
    url,
    port,
    ...processStats(child.pid as number),
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill(signal);
        await exited;
      }
      // a folder the caller prepared is the caller's to remove (it may start the server on it again)
      if (!options.dir) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A new PostgreSQL database for one run (DATABASE_URL_PG or the local server), and how to drop it. */
/**
 * A new PostgreSQL database; with `keep` (a name), that database, made if missing, and
 * `existed` says whether it was there already (a bench fills it once and reuses it).
 */
export async function createPostgresDatabase(
  keep?: string,
): Promise<{ url: string; existed: boolean; drop(): Promise<void> }> {
  const admin = process.env.DATABASE_URL_PG ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = keep ? `depot_bench_${keep.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}` : `depot_bench_${Date.now()}`;
  const run = async (statement: string, parameters: unknown[] = []) => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    const result = await client.query(statement, parameters);
    await client.end();
    return result.rowCount ?? 0;
  };
  const existed = keep ? (await run('select 1 from pg_database where datname = $1', [name])) > 0 : false;
  if (!existed) await run(`create database ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    existed,
    drop: async () => {
      await run(`drop database if exists ${name} with (force)`);
    },
  };
}
