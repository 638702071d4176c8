import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Permission } from '@depot/contracts';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, expect, inject } from 'vitest';
import { type AppOptions, buildApp } from '../app.ts';
import { createDatabase, type Database, type Db, now } from '../db/database.ts';
import type { ThrottleLimits } from '../modules/auth/login-throttle.ts';
import { hashPassword } from '../modules/auth/passwords.ts';
import { auditLedger } from '../modules/stock/ledger.ts';
import type { RealtimeSettings } from '../realtime/realtime.ts';

import { ADMIN_PASSWORD, prepare } from './constants.ts';

export { ADMIN_PASSWORD };
export const TEST_DB = (process.env.DEPOT_TEST_DB ?? 'sqlite') as 'sqlite' | 'postgres';
const PG_ADMIN_URL = process.env.DATABASE_URL_PG ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * A new database, migrated and seeded like a fresh installation: in-memory SQLite, or a PostgreSQL
 * database dropped by `close`, copied from the run's template (postgres-available.ts).
 */
export async function freshDatabase(): Promise<Database> {
  if (TEST_DB !== 'postgres') {
    const database = createDatabase('sqlite::memory:');
    await prepare(database.db);
    return database;
  }
  const empty = await emptyDatabase({ template: inject('pgTemplate') });
  const database = createDatabase(empty.url, { poolSize: 20 });
  return {
    ...database,
    async close() {
      await database.close();
      await empty.drop();
    },
  };
}

/**
 * The address of a database with nothing in it, not opened, for what opens its own (server
 * processes, a restore): an SQLite file in a new temporary folder, or a new PostgreSQL database
 * (with `template`, a copy of that one: freshDatabase's). `drop` removes it.
 */
export async function emptyDatabase(
  options: { template?: string } = {},
): Promise<{ url: string; dir: string; drop(): Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'depot-db-'));
  const removeDir = () => fs.rmSync(dir, { recursive: true, force: true });
  if (TEST_DB !== 'postgres') {
    return { url: `sqlite:${path.join(dir, 'depot.sqlite')}`, dir, drop: async () => removeDir() };
  }
  const name = `depot_test_${randomBytes(6).toString('hex')}`;
  await pgAdmin(`create database ${name}${options.template ? ` template ${options.template}` : ''}`);
  // a test's database is thrown away: its commits need not wait for the disk (one flush each, most
  // of the PostgreSQL suite's time on the machines here); each connection to it starts so
  await pgAdmin(`alter database ${name} set synchronous_commit = off`);
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    dir,
    async drop() {
      removeDir();
      // connections just closed may still be closing: wait for them rather than cut them off
      for (let attempt = 0; ; attempt++) {
        try {
          await pgAdmin(`drop database if exists ${name}`);
          return;
        } catch (error) {
          if (attempt >= 50) throw error;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    },
  };
}

async function pgAdmin(statement: string) {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export interface TestContext {
  app: FastifyInstance;
  db: Db;
  /** A temporary folder for uploaded pictures, removed after the suite. */
  uploadsDir: string;
}

/**
 * The whole server on a fresh database for the enclosing suite, for `app.inject`. Call it where
 * `describe` bodies run (not inside a hook); the fields are set before the suite's first test.
 */
export function useTestApp(
  options: {
    throttle?: ThrottleLimits;
    webDist?: string;
    realtime?: RealtimeSettings;
    /** The printers' network guard (tests whose fake printers listen on 127.0.0.1 allow the loopback here). */
    printerNetwork?: AppOptions['printerNetwork'];
  } = {},
): TestContext {
  const ctx = {} as TestContext;
  let database: Database | undefined;
  beforeAll(async () => {
    database = await freshDatabase();
    ctx.db = database.db;
    ctx.uploadsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'depot-uploads-'));
    ctx.app = await buildApp({
      db: database.db,
      throttle: options.throttle,
      webDist: options.webDist,
      uploadsDir: ctx.uploadsDir,
      realtime: options.realtime,
      printerNetwork: options.printerNetwork,
    });
  });
  // the stock ledger's invariant after every test: each level is the sum of its movements, none negative
  afterEach(async () => {
    if (ctx.db) expect(await auditLedger(ctx.db)).toEqual([]);
  });
  afterAll(async () => {
    await ctx.app?.close();
    await database?.close();
    if (ctx.uploadsDir) fs.rmSync(ctx.uploadsDir, { recursive: true, force: true });
  });
  return ctx;
}

let serial = 0;

/** A user with the given roles (default role names) or, with `permissions`, a role made for them. */
export async function createUser(
  db: Db,
  options: {
    name?: string;
    password?: string;
    roles?: string[];
    permissions?: Permission[];
    status?: 'active' | 'inactive';
    /** The home store (the first store by default). */
    store?: number;
    /** Stores covered besides the home store. */
    covers?: number[];
  } = {},
) {
  serial += 1;
  const at = now();
  const name = options.name ?? `user${serial}_${randomBytes(3).toString('hex')}`;
  const password = options.password ?? 'password-123';
  const store = options.store
    ? { id: options.store }
    : await db.selectFrom('stores').select('id').orderBy('id').executeTakeFirstOrThrow();
  const user = await db
    .insertInto('users')
    .values({
      name,
      full_name: `Test ${name}`,
      password_hash: await hashPassword(password),
      status: options.status ?? 'active',
      store_id: store.id,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('user_stores')
    .values([...new Set([store.id, ...(options.covers ?? [])])].map((store_id) => ({ user_id: user.id, store_id })))
    .execute();
  const roleIds: number[] = [];
  for (const roleName of options.roles ?? []) {
    const role = await db.selectFrom('roles').select('id').where('name', '=', roleName).executeTakeFirstOrThrow();
    roleIds.push(role.id);
  }
  if (options.permissions) {
    const role = await db
      .insertInto('roles')
      .values({
        name: `role_${name}`,
        group_name: 'test',
        label_en: `Role of ${name}`,
        label_kh: `តួនាទី ${name}`,
        is_system: 0,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    roleIds.push(role.id);
    if (options.permissions.length) {
      const ids = await db.selectFrom('permissions').select('id').where('name', 'in', options.permissions).execute();
      await db
        .insertInto('role_permissions')
        .values(ids.map((p) => ({ role_id: role.id, permission_id: p.id })))
        .execute();
    }
  }
  if (roleIds.length) {
    await db
      .insertInto('user_roles')
      .values(roleIds.map((role_id) => ({ user_id: user.id, role_id })))
      .execute();
  }
  return { id: user.id, name, password };
}

/** A store of its own (active), for tests of coverage: users of the first store do not cover it. */
export async function createStore(db: Db, code: string): Promise<number> {
  const at = now();
  const row = await db
    .insertInto('stores')
    .values({ name: `Store ${code}`, code, status: 'active', created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface LoginResult {
  token: string;
  refresh_token: string;
  permissions: string[];
  roles: string[];
}

export async function login(app: FastifyInstance, name: string, password: string): Promise<LoginResult> {
  const res = await app.inject({ method: 'POST', url: '/api/login', payload: { name, password } });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return res.json();
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The Redis server the tests use (REDIS_URL_TEST, default the local one). */
export const TEST_REDIS_URL = process.env.REDIS_URL_TEST ?? 'redis://127.0.0.1:6379';

/** A key prefix no other suite or run uses, so suites share one Redis server. */
export const testRedisPrefix = () => `depot-test:${randomBytes(6).toString('hex')}:`;
