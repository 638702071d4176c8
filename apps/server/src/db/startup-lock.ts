import { sql } from 'kysely';
import { type Database, SQLITE_BUSY_TIMEOUT_MS } from './database.ts';

/** The advisory lock's key on PostgreSQL: any 64-bit number no other code on the database uses. */
const STARTUP_LOCK = 4_202_611_240_016;
/** How long a start waits for another process's migrations on an SQLite file. */
const SQLITE_STARTUP_WAIT_MS = 15 * 60_000;

/**
 * Runs what a start does before serving (migrations, the seed, the search indexes) while no other
 * process does the same on this database: two servers starting together (machines behind a load
 * balancer, a restart overlapping its predecessor, a CLI command) must not both migrate or both
 * create the first administrator. The second one waits, then finds the work done.
 *
 * PostgreSQL: a session advisory lock, held on a connection of its own and released by the server
 * if this process dies. SQLite: the file's own write lock, which every transaction takes first
 * (`begin immediate`, database.ts), with a longer wait than a request's for the time of the start:
 * migrations run in one transaction and may take minutes on a large file.
 */
export async function withStartupLock<T>(
  database: Database,
  work: () => Promise<T>,
  onWait: (message: string) => void = console.warn,
): Promise<T> {
  if (database.sqlite) {
    database.sqlite.pragma(`busy_timeout = ${SQLITE_STARTUP_WAIT_MS}`);
    try {
      return await work();
    } finally {
      database.sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
    }
  }
  return database.db.connection().execute(async (connection) => {
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${STARTUP_LOCK}) as locked`.execute(
      connection,
    );
    if (!rows[0]?.locked) {
      onWait('another Depot process is starting on this database (migrations, seed): waiting for it');
      await sql`select pg_advisory_lock(${STARTUP_LOCK})`.execute(connection);
    }
    try {
      return await work();
    } finally {
      await sql`select pg_advisory_unlock(${STARTUP_LOCK})`.execute(connection);
    }
  });
}
