/**
 * Start-up: how long Depot takes from the process's start to its first `/api/health` answer, and
 * its resident memory then and after a second of rest. Each run starts the command on the same
 * database (prepared by a first, uncounted start: migrations and the seed are not start-up's
 * usual work), then stops it. Prints medians; asserts nothing.
 *
 *   npm run bench:startup                                   # the built server (npm run build first)
 *   npm run bench:startup -- --runs 10 -- node --import tsx apps/server/src/main.ts
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { freePort } from './server.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { runs: { type: 'string', default: '7' }, db: { type: 'string' } },
});
const command = positionals.length ? positionals : ['node', '--enable-source-maps', 'apps/server/dist/main.js'];

function rssMb(pid: number): number {
  const line = fs
    .readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line?.split(/\s+/)[1] ?? 0) / 1024;
}

/** One start: milliseconds to the first health answer, and the memory then and a second later. */
async function startOnce(databaseUrl: string, dir: string) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(command[0], command.slice(1), {
    cwd: root,
    stdio: 'ignore',
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      DEPOT_UPLOADS_DIR: path.join(dir, 'uploads'),
      DEPOT_ADMIN_PASSWORD: 'startup-bench-1',
      LOG_LEVEL: 'warn',
    },
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${command.join(' ')} exited with ${child.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (performance.now() - started > 60_000) throw new Error('no health answer in 60 s');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const ms = performance.now() - started;
    const pid = child.pid as number;
    const atStart = rssMb(pid);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    return { ms, atStart, rested: rssMb(pid) };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'depot-startup-'));
  const databaseUrl = values.db ?? `sqlite:${path.join(dir, 'depot.sqlite')}`;
  try {
    await startOnce(databaseUrl, dir);
    const runs = [];
    for (let i = 0; i < Number(values.runs); i++) runs.push(await startOnce(databaseUrl, dir));
    console.log(`${command.join(' ')}: ${runs.length} starts`);
    console.table({
      'to first /api/health (ms)': median(runs.map((r) => Math.round(r.ms))),
      'RSS at that answer (MB)': Math.round(median(runs.map((r) => r.atStart))),
      'RSS a second later (MB)': Math.round(median(runs.map((r) => r.rested))),
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
