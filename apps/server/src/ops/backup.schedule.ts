import { sql } from 'kysely';
import type { Database } from '../db/database.ts';
import { createBackup, newestBackupAt, pruneBackups } from './backup.ts';

const HOUR_MS = 3_600_000;
/** A backup that is due (none yet, or the last one too old) starts this long after the start. */
const OVERDUE_DELAY_MS = 60_000;
/** Only one process of several on one PostgreSQL database dumps it at a time. */
const BACKUP_LOCK = 4_202_611_240_017;

export interface BackupSchedule {
  dir: string;
  uploadsDir: string;
  keep: number;
  /** Every so many hours, counted from the newest backup in `dir` (so restarts do not put it off)… */
  intervalHours?: number;
  /** …or every day at this time ('HH:MM', the server's time zone). */
  at?: string;
}

interface Log {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** When the next backup is due, from the newest one in the folder and the time now. */
export function nextBackupAt(schedule: BackupSchedule, now: Date, newest: Date | undefined): Date {
  if (schedule.at) {
    const [hours, minutes] = schedule.at.split(':').map(Number);
    const next = new Date(now);
    next.setHours(hours, minutes, 0, 0);
    if (next <= now) next.setDate(next.getDate() + 1);
    return next;
  }
  const interval = (schedule.intervalHours ?? 24) * HOUR_MS;
  // (a newest backup "from the future", the clock having been set back, delays it one interval at most)
  const due = newest ? Math.min(newest.getTime(), now.getTime()) + interval : 0;
  return new Date(Math.max(due, now.getTime() + OVERDUE_DELAY_MS));
}

/**
 * Scheduled backups inside the server process. SQLite is copied through the server's own
 * connection in small steps (sales go on between them); PostgreSQL by pg_dump in its own process.
 * Each outcome is logged; a failure is logged and the schedule goes on. `stop` waits for a backup
 * under way, so the database is not closed beneath it.
 */
export function scheduleBackups(database: Database, schedule: BackupSchedule, log: Log) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  async function backUp() {
    const started = performance.now();
    try {
      const made = await oneAtATime(database, () =>
        createBackup(database, { dir: schedule.dir, uploadsDir: schedule.uploadsDir }),
      );
      if (!made) {
        log.info({ dir: schedule.dir }, 'scheduled backup skipped: another process is making one');
        return;
      }
      const removed = pruneBackups(schedule.dir, schedule.keep);
      log.info(
        {
          backup: made.path,
          migration: made.manifest.migration,
          files: made.manifest.files.length,
          bytes: made.manifest.files.reduce((sum, f) => sum + f.bytes, 0),
          ms: Math.round(performance.now() - started),
          removed,
        },
        'scheduled backup made',
      );
    } catch (error) {
      log.error({ err: error, dir: schedule.dir }, 'scheduled backup failed');
    }
  }

  function plan() {
    if (stopped) return;
    const now = new Date();
    const at = nextBackupAt(schedule, now, newestBackupAt(schedule.dir));
    timer = setTimeout(() => {
      running = backUp().finally(() => {
        running = undefined;
        plan();
      });
    }, at.getTime() - now.getTime());
    // the schedule alone does not keep the process alive
    timer.unref();
    log.info({ dir: schedule.dir, next: at.toISOString() }, 'next scheduled backup');
  }

  plan();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

/** Runs `work` unless another process on the same PostgreSQL database is backing it up. */
async function oneAtATime<T>(database: Database, work: () => Promise<T>): Promise<T | undefined> {
  if (database.dialect !== 'postgres') return work();
  return database.db.connection().execute(async (connection) => {
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${BACKUP_LOCK}) as locked`.execute(
      connection,
    );
    if (!rows[0]?.locked) return undefined;
    try {
      return await work();
    } finally {
      await sql`select pg_advisory_unlock(${BACKUP_LOCK})`.execute(connection);
    }
  });
}
