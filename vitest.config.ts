import { defineConfig } from 'vitest/config';

const serverTests = ['apps/server/src/**/*.test.ts'];
// The server suites import the whole gazetteer and run real transactions on a machine that also runs
// the other suites: a slow test is a benchmark's business (bench/), not a failure here.
const serverTimeouts = { testTimeout: 30_000, hookTimeout: 30_000 };
// One module graph for each worker's server files, not one for each file: every server file imports
// the whole app, and importing it again per file was most of the suite's time. The
// server's modules keep no state between files (a suite has its own database and app), the suites
// mock no modules, and the one that fakes timers restores them in a finally.
// setup.ts: passwords hashed at a test's cost (modules/auth/passwords.ts says why)
const serverShared = { ...serverTimeouts, isolate: false, setupFiles: ['apps/server/src/test/setup.ts'] };

/**
 * One run, every tier: contracts unit tests, the server suite on SQLite and again on PostgreSQL
 * (DATABASE_URL_PG, default the local server), and the web app's component tests.
 */
export default defineConfig({
  test: {
    // vitest's default is one worker fewer than the cores: one, on the 2-core machines here. The
    // server suites wait on PostgreSQL and on files half the time, so two workers keep both cores busy.
    maxWorkers: 2,
    projects: [
      // property tests (fast-check) run their cases on a machine that also runs the other suites
      { test: { name: 'contracts', include: ['packages/contracts/src/**/*.test.ts'], testTimeout: 30_000 } },
      { test: { name: 'server-sqlite', include: serverTests, env: { DEPOT_TEST_DB: 'sqlite' }, ...serverShared } },
      {
        test: {
          name: 'server-postgres',
          include: serverTests,
          env: { DEPOT_TEST_DB: 'postgres' },
          ...serverShared,
          globalSetup: ['apps/server/src/test/postgres-available.ts'],
        },
      },
      'apps/web/vite.config.ts',
    ],
  },
});
