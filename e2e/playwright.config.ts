import { defineConfig } from '@playwright/test';

export const PORT = Number(process.env.E2E_PORT ?? 3210);
export const ADMIN_PASSWORD = 'e2e-admin-pass';
export const CASHIER = { name: 'dara', password: 'dara-pass-123', fullName: 'Sok Dara' };
export const NOBODY = { name: 'visitor', password: 'visitor-pass-1' };

const cli = 'node --import tsx apps/server/src/cli.ts';

/**
 * The real server on a fresh SQLite database, serving the built web app (`npm run build` first),
 * driven in Debian's Chromium: Playwright cannot download a browser here.
 */
export default defineConfig({
  testDir: '.',
  outputDir: '../test-results',
  fullyParallel: false,
  workers: 1,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    screenshot: 'only-on-failure',
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
  webServer: {
    cwd: '..',
    command: [
      'rm -rf e2e/.data',
      `${cli} user:create --name ${CASHIER.name} --password ${CASHIER.password} --role cashier --full-name '${CASHIER.fullName}'`,
      `${cli} user:create --name ${NOBODY.name} --password ${NOBODY.password}`,
      `${cli} gazetteer:import`,
      'node --import tsx apps/server/src/main.ts',
    ].join(' && '),
    url: `http://127.0.0.1:${PORT}/api/health`,
    reuseExistingServer: false,
    timeout: 240_000, // the start-up imports the gazetteer: slow on a busy machine
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATABASE_URL: 'sqlite:e2e/.data/e2e.sqlite',
      DEPOT_ADMIN_PASSWORD: ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
    },
  },
});
