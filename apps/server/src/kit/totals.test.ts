import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database, now } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { emptyDatabase, TEST_REDIS_URL, testRedisPrefix } from '../test/harness.ts';
import { connectRedis, type Shared } from './redis.ts';
import { countOf, shareTotals, tableChanged } from './totals.ts';

describe('list totals shared through Redis', () => {
  // two processes on one database: two connections of their own, one Redis
  let one: Database;
  let two: Database;
  let shared: Shared;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const target = await emptyDatabase();
    drop = target.drop;
    one = createDatabase(target.url);
    two = createDatabase(target.url);
    await migrateToLatest(one.db);
    shared = { redis: await connectRedis(TEST_REDIS_URL), prefix: testRedisPrefix() };
    shareTotals(one.db, shared);
    shareTotals(two.db, shared);
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await shared?.redis.quit();
    await drop?.();
  });

  const brands = (database: Database) =>
    countOf(database.db, 'brands', database.db.selectFrom('brands').select(sql<number>`count(*)`.as('n')));
  const addBrand = (database: Database, name: string) =>
    database.db.insertInto('brands').values({ name, status: 'active', created_at: now(), updated_at: now() }).execute();

  it('a write through one process is counted at once by the other', async () => {
    expect(await brands(two)).toBe(0);
    await addBrand(one, 'Angkor');
    // remembered: the table has not been said to change
    expect(await brands(two)).toBe(0);
    await tableChanged(one.db, 'brands');
    expect(await brands(two)).toBe(1);
    expect(await brands(one)).toBe(1);
  });
});
