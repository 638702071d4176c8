import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyDatabase, TEST_DB } from '../test/harness.ts';
import { createDatabase, type Database } from './database.ts';
import { dataVersion, rememberedWhileUnchanged } from './dataVersion.ts';

// two handles on one database, as the server and a CLI command (or a second server process) are
let place: Awaited<ReturnType<typeof emptyDatabase>>;
let server: Database;
let other: Database;

beforeAll(async () => {
  place = await emptyDatabase();
  server = createDatabase(place.url);
  other = createDatabase(place.url);
  await sql`create table counted (id integer primary key, n integer not null)`.execute(server.db);
  await sql`insert into counted (id, n) values (1, 0)`.execute(server.db);
});

afterAll(async () => {
  await server.close();
  await other.close();
  await place.drop();
});

const count = async () => Number((await sql<{ n: number }>`select n from counted`.execute(server.db)).rows[0].n);

describe('the data version', () => {
  it('changes with every committed write, from this connection or another', async () => {
    const start = await dataVersion(server.db);
    await sql`update counted set n = n + 1`.execute(server.db);
    const afterOwn = await dataVersion(server.db);
    expect(afterOwn).not.toBe(start);
    await sql`update counted set n = n + 1`.execute(other.db);
    const afterOther = await dataVersion(server.db);
    expect(afterOther).not.toBe(afterOwn);
    if (TEST_DB === 'sqlite') {
      // nothing written: the same (PostgreSQL's changes with any work on the server: other tests')
      await sql`select n from counted`.execute(other.db);
      expect(await dataVersion(server.db)).toBe(afterOther);
    }
  });

  it('keeps an answer until the data or the objects it was made for change', async () => {
    const remember = rememberedWhileUnchanged<number>(server.db);
    const permissions = new Set(['a']);
    let computed = 0;
    const ask = (of: unknown[] = [permissions]) =>
      remember('key', of, async () => {
        computed += 1;
        return count();
      });
    const first = await ask();
    if (TEST_DB === 'sqlite') {
      expect(await ask()).toBe(first);
      expect(computed).toBe(1);
    }
    // another connection's write: answered again, with it
    await sql`update counted set n = n + 1`.execute(other.db);
    expect(await ask()).toBe(first + 1);
    // new permissions (a role changed): answered again
    const before = computed;
    await ask([new Set(['a'])]);
    expect(computed).toBe(before + 1);
  });
});
