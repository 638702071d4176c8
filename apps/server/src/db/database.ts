import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  Kysely,
  PostgresAdapter,
  PostgresDialect,
  SqliteAdapter,
  type SqliteDatabase,
  SqliteDialect,
  SqliteDriver,
} from 'kysely';
import pg from 'pg';
import type { DB } from './schema.ts';

export type Db = Kysely<DB>;
export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  db: Db;
  dialect: Dialect;
  /** The DATABASE_URL it was opened with (pg_dump reads it for a backup). */
  url: string;
  /** SQLite's own handle, for its online backup: the copy follows this connection's writes. */
  sqlite?: SQLite.Database;
  close(): Promise<void>;
}

/** How long a write waits for another process's write lock on an SQLite file before it fails. */
export const SQLITE_BUSY_TIMEOUT_MS = 5000;

/**
 * SQLite as Depot uses it, where other processes may write the same file (a CLI command beside the
 * server, a second server starting):
 * - every transaction begins IMMEDIATE, taking the write lock first. A deferred one that has read
 *   and then writes after another process committed fails at once with SQLITE_BUSY (its snapshot
 *   is stale; the busy timeout does not help); an immediate one waits for the lock and then reads
 *   fresh. Within one process nothing changes: Kysely runs one transaction at a time on the one
 *   connection.
 * - migrations run in one transaction (SQLite's DDL is transactional; Kysely assumes it is not and
 *   runs each statement on its own), so a failed upgrade leaves nothing half done, and a second
 *   process starting at the same time waits on the write lock, then finds nothing left to do.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  async beginTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class TransactionalSqliteAdapter extends SqliteAdapter {
  get supportsTransactionalDdl() {
    return true;
  }
}

class DepotSqliteDialect extends SqliteDialect {
  readonly #database: SqliteDatabase;
  constructor(database: SqliteDatabase) {
    super({ database });
    this.#database = database;
  }
  createDriver() {
    return new ImmediateSqliteDriver({ database: this.#database });
  }
  createAdapter() {
    return new TransactionalSqliteAdapter();
  }
}

// PostgreSQL answers in the same shapes as SQLite: timestamps as ISO strings, dates as
// 'YYYY-MM-DD', 64-bit integers (count(*)) as numbers.
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    const builtin = pg.types.builtins;
    if (oid === builtin.TIMESTAMPTZ || oid === builtin.TIMESTAMP) {
      const parse = pg.types.getTypeParser(oid, 'text');
      return (value: string) => (parse(value) as Date).toISOString();
    }
    if (oid === builtin.DATE) return (value: string) => value;
    if (oid === builtin.INT8) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

/** The dialect a DATABASE_URL names: `sqlite:<path>` (or `sqlite::memory:`) or `postgres://…`. */
export function dialectOf(url: string): Dialect {
  return url.startsWith('sqlite:') ? 'sqlite' : 'postgres';
}

/**
 * Whether a handle (the app's, a transaction, a migration's untyped one) speaks PostgreSQL: the one
 * place code asks (a test keeps it so). Most SQL is written once for both; this picks the rest.
 */
export function isPostgres<T>(db: Kysely<T>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Opens the database a DATABASE_URL names (`dialectOf`): the one place the dialect is chosen. */
export function createDatabase(url: string, options: { poolSize?: number } = {}): Database {
  if (dialectOf(url) === 'sqlite') {
    const file = url.slice('sqlite:'.length) || ':memory:';
    if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    const sqlite = new SQLite(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
    const db = new Kysely<DB>({ dialect: new DepotSqliteDialect(withStatementCache(sqlite)) });
    return { db, dialect: 'sqlite', url, sqlite, close: () => db.destroy() };
  }
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10, types: pgTypes });
  // An idle connection the server closed (a restart, a failover) is an 'error' on the pool; without
  // a listener Node would exit. The pool replaces it at the next query.
  pool.on('error', (error) => console.warn(`database connection lost: ${error.message}`));
  pool.on('connect', preparedStatements);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', url, close: () => db.destroy() };
}

/**
 * Kysely asks better-sqlite3 to prepare every query it runs, and preparing costs more than running
 * a simple query. Queries are parameterized, so their texts are few: keep each prepared statement.
 * (The Kysely connection runs one query at a time, so a kept statement is never busy.)
 */
function withStatementCache(sqlite: SQLite.Database, max = 1000): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = sqlite.prepare(sql);
        if (statements.size >= max) statements.delete(statements.keys().next().value as string);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

/**
 * PostgreSQL's counterpart of the SQLite statement cache: each query text is a named prepared
 * statement on its connection, so it is parsed once and, after a few runs, planned once (planning a
 * list page's joins took longer than running it). Texts with many parameters (an `in` list of ids)
 * vary with their length and stay unnamed, so a connection keeps a bounded set.
 */
function preparedStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const names = new Map<string, string>();
  (client as { query: unknown }).query = (config: unknown, values?: unknown, callback?: unknown) => {
    if (typeof config !== 'string' || !Array.isArray(values) || values.length > 100 || typeof callback === 'function') {
      return query(config, values, callback);
    }
    let name = names.get(config);
    if (!name) {
      name = `s${names.size + 1}`;
      names.set(config, name);
    }
    return query({ name, text: config, values });
  };
}

export function now(): string {
  return new Date().toISOString();
}
