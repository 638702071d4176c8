import cluster from 'node:cluster';
import { buildApp } from './app.ts';
import { type Config, loadConfig } from './config.ts';
import { createDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { seed } from './db/seed.ts';
import { withStartupLock } from './db/startup-lock.ts';
import { closePdfBrowser } from './kit/pdf.ts';
import { connectRedis } from './kit/redis.ts';
import { tokenExpiry } from './modules/khqr/bakong.ts';
import { scheduleRateFeed } from './modules/tax/tax.feed.ts';
import { scheduleBackups } from './ops/backup.schedule.ts';
import { realtimeSettings } from './realtime/realtime.ts';

async function main(config: Config) {
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
      sessionMaxDays: config.DEPOT_SESSION_MAX_DAYS,
      shared: redis && { redis, prefix: config.REDIS_PREFIX },
      rateFeed: config.DEPOT_RATE_FEED_URL
        ? { url: config.DEPOT_RATE_FEED_URL, hours: config.DEPOT_RATE_FEED_HOURS }
        : null,
      bakong: config.BAKONG_API_TOKEN
        ? {
            token: config.BAKONG_API_TOKEN,
            url: config.BAKONG_API_URL,
            relayUrl: config.BAKONG_RELAY_URL ?? null,
            timeoutMs: config.BAKONG_TIMEOUT_MS,
          }
        : null,
      khqrMinutes: config.BAKONG_QR_MINUTES,
      printerTimeoutMs: config.PRINTER_TIMEOUT_MS,
      printerNetwork: { ports: config.PRINTER_PORTS, allowLoopback: config.PRINTER_ALLOW_LOOPBACK },
      realtime: realtimeSettings(config),
      expiryCheckHours: 6,
      einvoice: {
        caminvoice:
          config.CAMINVOICE_CLIENT_ID && config.CAMINVOICE_CLIENT_SECRET
            ? {
                clientId: config.CAMINVOICE_CLIENT_ID,
                clientSecret: config.CAMINVOICE_CLIENT_SECRET,
                baseUrl: config.CAMINVOICE_BASE_URL,
              }
            : null,
        secretKey: config.DEPOT_SECRET_KEY ?? null,
        webhookSecret: config.CAMINVOICE_WEBHOOK_SECRET ?? null,
        pollSeconds: config.CAMINVOICE_POLL_SECONDS,
      },
    });
    return { app, seeded };
  });
  log = app.log;
  // Bakong's tokens last about 90 days: say so before payments stop being checked
  const expires = config.BAKONG_API_TOKEN ? tokenExpiry(config.BAKONG_API_TOKEN) : null;
  if (expires && expires.getTime() - Date.now() < 14 * 86_400_000) {
    app.log.warn(`BAKONG_API_TOKEN expires ${expires.toISOString()}: renew it (docs/OPERATIONS.md)`);
  }

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

  // with several processes, the first one makes the scheduled backups
  const backups =
    config.DEPOT_BACKUP_DIR && (cluster.isPrimary || process.env.DEPOT_WORKER_INDEX === '0')
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

  // the NBC's rate, fetched by the first process only (one row a publication)
  const rateFeed =
    config.DEPOT_RATE_FEED_URL && (cluster.isPrimary || process.env.DEPOT_WORKER_INDEX === '0')
      ? scheduleRateFeed(database.db, { url: config.DEPOT_RATE_FEED_URL, hours: config.DEPOT_RATE_FEED_HOURS }, app.log)
      : undefined;

  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    rateFeed?.stop();
    await app.close();
    await closePdfBrowser();
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

/**
 * DEPOT_WORKERS > 1: this process only starts that many server processes (node:cluster), each a
 * whole Depot on the shared port, and starts again one that dies after it served; one that fails
 * before it serves stops them all. SIGTERM or SIGINT stops them, then this process.
 */
function primary(config: Config) {
  let stopping = false;
  const fork = (index: number) => {
    const worker = cluster.fork({ DEPOT_WORKER_INDEX: String(index) });
    let serving = false;
    worker.once('listening', () => {
      serving = true;
    });
    worker.once('exit', (code, signal) => {
      if (stopping) return;
      if (!serving) {
        console.error(`Depot process ${index} stopped before it served (${signal ?? code}): stopping`);
        stop('SIGTERM', 1);
        return;
      }
      console.error(`Depot process ${index} stopped (${signal ?? code}): starting it again`);
      fork(index);
    });
  };
  const stop = (signal: NodeJS.Signals, code = 0) => {
    stopping = true;
    const workers = Object.values(cluster.workers ?? {});
    if (!workers.length) process.exit(code);
    for (const worker of workers) worker?.process.kill(signal);
    cluster.on('exit', () => {
      if (!Object.keys(cluster.workers ?? {}).length) process.exit(code);
    });
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  for (let index = 0; index < config.DEPOT_WORKERS; index++) fork(index);
}

try {
  const config = loadConfig();
  if (config.DEPOT_WORKERS > 1 && cluster.isPrimary) primary(config);
  else
    main(config).catch((error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    });
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
