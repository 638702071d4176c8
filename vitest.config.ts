import { defineConfig } from 'vitest/config';

const serverTests = ['apps/server/src/**/*.test.ts'];

/**
 * One run, every tier: contracts unit tests, the server suite on SQLite and again on PostgreSQL
 * (DATABASE_URL_PG, default the local server), and the web app's component tests.
 */
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'contracts', include: ['packages/contracts/src/**/*.test.ts'] } },
      { test: { name: 'server-sqlite', include: serverTests, env: { DEPOT_TEST_DB: 'sqlite' } } },
      {
        test: {
          name: 'server-postgres',
          include: serverTests,
          env: { DEPOT_TEST_DB: 'postgres' },
          globalSetup: ['apps/server/src/test/postgres-available.ts'],
        },
      },
      'apps/web/vite.config.ts',
    ],
  },
});
