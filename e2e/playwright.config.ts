import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { FAKE_CLIENT } from '../apps/server/src/test/fake-caminvoice.ts';

/** The first server's port; worker n talks to its own server on PORT + n. */
export const PORT = Number(process.env.E2E_PORT ?? 3210);
/**
 * Two workers, each with its own server and database: the specs wait on the server, on antd's
 * motion and on the network half of the time, so two keep both cores of the machines here busy
 * (E2E_WORKERS=1 for one). A spec file runs in one worker, its tests in order, against the server
 * of that worker only, so no spec sees another's records appear in the middle of it.
 */
const WORKERS = Number(process.env.E2E_WORKERS ?? 2);
/**
 * This process's server: Playwright loads this file in each worker too, with its index in
 * TEST_PARALLEL_INDEX (0 in the runner, which only starts the servers).
 */
const OWN = Number(process.env.TEST_PARALLEL_INDEX ?? 0);
if (OWN >= WORKERS) {
  // `--workers N` past E2E_WORKERS would send this worker to a port no server listens on
  throw new Error(`e2e worker ${OWN} has no server: set E2E_WORKERS (${WORKERS}), not --workers`);
}
const OWN_PORT = PORT + OWN;
const databaseOf = (n: number) => `e2e/.data/${n}/e2e.sqlite`;
/** This worker's server's SQLite database, from the repository's root (a spec may write to it). */
export const OWN_DATABASE = databaseOf(OWN);
/**
 * Where each server's Bakong is: a fake one (apps/server/src/test/fakeBakong.ts) that a spec
 * starts on this port when it needs Bakong's answers; until then the server finds it unreachable.
 */
const bakongPortOf = (n: number) => PORT + 100 + n;
export const OWN_BAKONG_PORT = bakongPortOf(OWN);
export const BAKONG_TOKEN = 'e2e-bakong-token';
export const ADMIN_PASSWORD = 'e2e-admin-pass';
export const CASHIER = { name: 'dara', password: 'dara-pass-123', fullName: 'Sok Dara' };
export const NOBODY = { name: 'visitor', password: 'visitor-pass-1' };

// the built server (`npm run build` first, as for the web app): what ships, and no TypeScript to
// compile at each of the five starts a worker makes (some 3 s of CPU each)
const cli = 'node apps/server/dist/cli.js';
/** Where each worker's fake CamInvoice listens (einvoice.spec.ts starts it). */
export const caminvoicePort = (n: number) => PORT + 40 + n;
export const OWN_CAMINVOICE_PORT = caminvoicePort(OWN);
export const E2E_WEBHOOK_SECRET = 'e2e-webhook-secret-0123456789abcdef';

/**
 * The real server, one for each worker, each on a fresh SQLite database, serving the built web app
 * (`npm run build` first), driven in Debian's Chromium: Playwright cannot download a browser here.
 */
export default defineConfig({
  testDir: '.',
  outputDir: '../test-results',
  fullyParallel: false,
  workers: WORKERS,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${OWN_PORT}`,
    screenshot: 'only-on-failure',
    // as a device set to reduce motion: no fades or slides to wait for (the till's own spec,
    // selling.spec.ts, keeps them, as most devices have them)
    reducedMotion: 'reduce',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: Array.from({ length: WORKERS }, (_, n) => ({
    cwd: '..',
    command: [
      `rm -rf ${path.dirname(databaseOf(n))}`,
      `${cli} user:create --name ${CASHIER.name} --password ${CASHIER.password} --role cashier --full-name '${CASHIER.fullName}'`,
      `${cli} user:create --name ${NOBODY.name} --password ${NOBODY.password}`,
      `${cli} gazetteer:import`,
      'node --enable-source-maps apps/server/dist/main.js',
    ].join(' && '),
    url: `http://127.0.0.1:${PORT + n}/api/health`,
    reuseExistingServer: false,
    timeout: 240_000, // the start-up imports the gazetteer: slow on a busy machine
    env: {
      PORT: String(PORT + n),
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${databaseOf(n)}`,
      DEPOT_UPLOADS_DIR: `${path.dirname(databaseOf(n))}/uploads`,
      DEPOT_ADMIN_PASSWORD: ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      // the specs' fake receipt printers listen on 127.0.0.1, on a free port
      PRINTER_ALLOW_LOOPBACK: 'true',
      PRINTER_PORTS: '1024-65535',
      BAKONG_API_TOKEN: BAKONG_TOKEN,
      BAKONG_API_URL: `http://127.0.0.1:${bakongPortOf(n)}`,
      BAKONG_TIMEOUT_MS: '2000',
      // CamInvoice: the fake platform einvoice.spec.ts starts on its worker's port + 40
      CAMINVOICE_CLIENT_ID: FAKE_CLIENT.id,
      CAMINVOICE_CLIENT_SECRET: FAKE_CLIENT.secret,
      CAMINVOICE_BASE_URL: `http://127.0.0.1:${caminvoicePort(n)}`,
      CAMINVOICE_WEBHOOK_SECRET: E2E_WEBHOOK_SECRET,
      CAMINVOICE_POLL_SECONDS: '5',
    },
  })),
});
