import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from '../paths.ts';
import { ADMIN_PASSWORD } from './harness.ts';

export interface ServerProcess {
  /** Where the first process said it runs (127.0.0.1, not localhost). */
  url: string;
  process: ChildProcess;
  /** Everything it printed so far, stdout and stderr together. */
  output: string[];
  /** Its exit code (null when killed by a signal). */
  exited: Promise<number | null>;
}

const RUNNING = /Depot is running at (http:\/\/\S+)/g;

/**
 * The real server process, as `npm run serve` starts it (from source), on a port the system picks,
 * with its own uploads folder and no web build. Resolves once `ready` processes have said they run
 * (DEPOT_WORKERS starts several); rejects with what it printed if it exits or takes too long.
 */
export function spawnServer(options: {
  databaseUrl: string;
  dir: string;
  env?: Record<string, string>;
  ready?: number;
  timeoutMs?: number;
}): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: options.databaseUrl,
      DEPOT_UPLOADS_DIR: path.join(options.dir, 'uploads'),
      DEPOT_WEB_DIST: path.join(options.dir, 'no-web-build'),
      DEPOT_ADMIN_PASSWORD: ADMIN_PASSWORD,
      LOG_LEVEL: 'error',
      ...options.env,
    },
  });
  const output: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return new Promise((resolve, reject) => {
    // one that does not start is stopped, not left running after the test (and its processes with it)
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`the server did not start:\n${output.join('')}`));
    }, options.timeoutMs ?? 60_000);
    const take = (chunk: Buffer) => {
      output.push(chunk.toString());
      const started = [...output.join('').matchAll(RUNNING)];
      if (started.length >= (options.ready ?? 1)) {
        clearTimeout(timer);
        resolve({ url: started[0][1].replace('localhost', '127.0.0.1'), process: child, output, exited });
      }
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code}:\n${output.join('')}`));
    });
  });
}

/** SIGTERM (or the signal given) and wait for it to exit; nothing if it is not running. */
export async function stopServer(server: ServerProcess | undefined, signal: NodeJS.Signals = 'SIGTERM') {
  if (!server || server.process.exitCode !== null || server.process.signalCode !== null) return;
  server.process.kill(signal);
  await server.exited;
}
