import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { createDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { seed } from './db/seed.ts';
import { realtimeSettings } from './realtime/realtime.ts';

async function main() {
  const config = loadConfig();
  const database = createDatabase(config.DATABASE_URL);
  await migrateToLatest(database.db);
  const seeded = await seed(database.db, { adminPassword: config.DEPOT_ADMIN_PASSWORD });
  const app = await buildApp({
    db: database.db,
    webDist: config.DEPOT_WEB_DIST,
    uploadsDir: config.DEPOT_UPLOADS_DIR,
    logLevel: config.LOG_LEVEL,
    trustProxy: config.TRUST_PROXY,
    realtime: realtimeSettings(config),
  });

  if (seeded.generatedAdminPassword) {
    console.log(
      [
        '',
        '  ┌──────────────────────────────────────────────────────────┐',
        '  │ First administrator created. This is shown only once.    │',
        `  │   name:     admin                                        │`,
        `  │   password: ${seeded.generatedAdminPassword.padEnd(45)}│`,
        '  └──────────────────────────────────────────────────────────┘',
        '',
      ].join('\n'),
    );
  }

  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  const address = await app.listen({ port: config.PORT, host: config.HOST });
  console.log(`Depot is running at ${address.replace('127.0.0.1', 'localhost')} (database: ${database.dialect})`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
