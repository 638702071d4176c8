import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterEach, describe, expect, it } from 'vitest';
import { emptyDatabase, TEST_DB } from '../test/harness.ts';
import { createDatabase, type Database } from './database.ts';
import { migrateToLatest } from './migrate.ts';
import { seed } from './seed.ts';
import { withStartupLock } from './startup-lock.ts';

const opened: Database[] = [];
const drops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const database of opened.splice(0)) await database.close();
  for (const drop of drops.splice(0)) await drop();
});

async function empty() {
  const target = await emptyDatabase();
  drops.push(target.drop);
  return target;
}

function open(url: string) {
  const database = createDatabase(url);
  opened.push(database);
  return database;
}

describe('starting on one database', () => {
  // Two SQLite connections in one process would wait for each other's lock on the one event loop:
  // SQLite's side is the two-process test (ops/processes.test.ts).
  it.runIf(TEST_DB === 'postgres')(
    'two processes starting at once migrate once and seed one administrator',
    async () => {
      const { url } = await empty();
      const starts = [open(url), open(url)].map((database) =>
        withStartupLock(
          database,
          async () => {
            const migrated = await migrateToLatest(database.db);
            const seeded = await seed(database.db, {});
            return { migrated: migrated.length, createdAdmin: seeded.createdAdmin };
          },
          () => {},
        ),
      );
      const results = await Promise.all(starts);
      // one did the work, the other waited and found it done
      expect(results.map((r) => r.createdAdmin).sort()).toEqual([false, true]);
      expect(results.map((r) => r.migrated > 0).sort()).toEqual([false, true]);
      const { db } = opened[0];
      expect(await db.selectFrom('users').select('name').execute()).toEqual([{ name: 'admin' }]);
      const roles = await db.selectFrom('roles').select('name').execute();
      expect(new Set(roles.map((r) => r.name)).size).toBe(roles.length);
    },
  );

  it('a failed migration leaves nothing of itself behind', async () => {
    const { url } = await empty();
    const { db } = open(url);
    const migrator = new Migrator({
      db,
      provider: {
        getMigrations: async () => ({
          '0001_half': {
            async up(trx) {
              await trx.schema.createTable('half_done').addColumn('id', 'integer').execute();
              throw new Error('the second statement failed');
            },
          },
        }),
      },
    });
    const { error } = await migrator.migrateToLatest();
    expect(String(error)).toContain('the second statement failed');
    const tables = await db.introspection.getTables();
    expect(tables.map((t) => t.name)).not.toContain('half_done');
  });

  it.runIf(TEST_DB === 'sqlite')('an SQLite transaction takes the write lock before it reads', async () => {
    const { url } = await empty();
    const database = open(url);
    await migrateToLatest(database.db);
    const other = new SQLite(url.slice('sqlite:'.length), { timeout: 0 });
    try {
      await database.db.transaction().execute(async (trx) => {
        await trx.selectFrom('users').select('id').execute();
        // another process's writer cannot slip in between this read and this transaction's writes
        expect(() => other.exec('begin immediate')).toThrow(/database is locked/);
        await sql`select 1`.execute(trx);
      });
      other.exec('begin immediate');
      other.exec('rollback');
    } finally {
      other.close();
    }
  });
});
