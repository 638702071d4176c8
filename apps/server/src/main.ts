import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { createDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { seed } from './db/seed.ts';
import { withStartupLock } from './db/startup-lock.ts';
import { connectRedis } from './kit/redis.ts';
import { scheduleBackups } from './ops/backup.schedule.ts';
import { realtimeSettings } from './realtime/realtime.ts';

async function main() {
  const config = loadConfig();
  const database = createDatabase(config.DATABASE_URL);
  // Redis's outages are told in the server's log once it has one
  let log: { warn(details: object, message: string): void; info(details: object, message: string): void } = {
    warn: (details, message) => console.warn(message, details),
    info: (details, message) => console.info(message, details),
  };
  const redis = config.REDIS_URL
    ? await connectRedis(config.REDIS_URL, {
        warn: (details, message) => log.warn(details, message),
        info: (details, message) => log.info(details, message),
      })
    : undefined;
  // building the app includes the search indexes' upkeep: under the lock too
  const { app, seeded } = await withStartupLock(database, async () => {
    const migrated = await migrateToLatest(database.db);
    if (migrated.length) console.log(`Database migrated: ${migrated.join(', ')}`);
    const seeded = await seed(database.db, { adminPassword: config.DEPOT_ADMIN_PASSWORD });
    const app = await buildApp({
      db: database.db,
      webDist: config.DEPOT_WEB_DIST,
      uploadsDir: config.DEPOT_UPLOADS_DIR,
      logLevel: config.LOG_LEVEL,
      trustProxy: config.TRUST_PROXY,
      shared: redis && { redis, prefix: config.REDIS_PREFIX },
      bakong: config.BAKONG_API_TOKEN ? { token: config.BAKONG_API_TOKEN, url: config.BAKONG_API_URL } : null,
      printerTimeoutMs: config.PRINTER_TIMEOUT_MS,
      realtime: realtimeSettings(config),
      expiryCheckHours: 6,
    });
    return { app, seeded };
  });
  log = app.log;

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

  const backups = config.DEPOT_BACKUP_DIR
    ? scheduleBackups(
        database,
        {
          dir: config.DEPOT_BACKUP_DIR,
          uploadsDir: config.DEPOT_UPLOADS_DIR,
          keep: config.DEPOT_BACKUP_KEEP,
          intervalHours: config.DEPOT_BACKUP_INTERVAL_HOURS,
          at: config.DEPOT_BACKUP_AT,
        },
        app.log,
      )
    : undefined;

  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await backups?.stop();
    await database.close();
    await redis?.quit();
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
