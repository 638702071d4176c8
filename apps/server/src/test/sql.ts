import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import type { Db } from '../db/database.ts';
import type { DB } from '../db/schema.ts';

/** A database of one dialect that runs nothing (no rows) and keeps the SQL of every query sent. */
function recordingDb(dialect: 'sqlite' | 'postgres') {
  const sent: string[] = [];
  const pg = dialect === 'postgres';
  const db = new Kysely<DB>({
    dialect: {
      createAdapter: () => (pg ? new PostgresAdapter() : new SqliteAdapter()),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => (pg ? new PostgresIntrospector(db) : new SqliteIntrospector(db)),
      createQueryCompiler: () => (pg ? new PostgresQueryCompiler() : new SqliteQueryCompiler()),
    },
    log: (event) => {
      if (event.level === 'query') sent.push(event.query.sql);
    },
  });
  return { db, sent };
}

/**
 * The SQL each read sends on SQLite and on PostgreSQL, as one text: a repository's test keeps it
 * as a committed `.sql` snapshot (`toMatchFileSnapshot`), so a review shows a query's change. No
 * row comes back: a read that needs one throws after it has sent its query, and that is kept.
 */
export async function readsSql(reads: Record<string, (db: Db) => Promise<unknown>>): Promise<string> {
  const parts: string[] = [];
  for (const [name, read] of Object.entries(reads)) {
    for (const dialect of ['sqlite', 'postgres'] as const) {
      const { db, sent } = recordingDb(dialect);
      await read(db).catch(() => undefined);
      parts.push(`-- ${name} (${dialect})\n${sent.map((q) => `${q};`).join('\n')}\n`);
    }
  }
  return parts.join('\n');
}
