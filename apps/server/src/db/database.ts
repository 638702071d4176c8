import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, type SqliteDatabase, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { DB } from './schema.ts';

export type Db = Kysely<DB>;
export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  db: Db;
  dialect: Dialect;
  close(): Promise<void>;
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

/** `sqlite:<path>` (or `sqlite::memory:`) or `postgres://…`: the one place the dialect is chosen. */
export function createDatabase(url: string, options: { poolSize?: number } = {}): Database {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length) || ':memory:';
    if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    const sqlite = new SQLite(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
    return { db, dialect: 'sqlite', close: () => db.destroy() };
  }
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10, types: pgTypes });
  // An idle connection the server closed (a restart, a failover) is an 'error' on the pool; without
  // a listener Node would exit. The pool replaces it at the next query.
  pool.on('error', (error) => console.warn(`database connection lost: ${error.message}`));
  pool.on('connect', preparedStatements);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', close: () => db.destroy() };
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
