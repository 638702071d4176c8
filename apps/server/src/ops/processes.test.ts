import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database, now } from '../db/database.ts';
import { MIGRATION_NAMES } from '../db/migrate.ts';
import { auditLedger } from '../modules/stock/ledger.ts';
import { ADMIN_PASSWORD, createUser, emptyDatabase, TEST_REDIS_URL, testRedisPrefix } from '../test/harness.ts';
import { type HttpClient, httpClient, productOnSale } from '../test/http.ts';
import { type ServerProcess, spawnServer, stopServer } from '../test/serverProcess.ts';

/**
 * Two server processes on one database and one Redis, as behind a load balancer: they start
 * together on an empty database, then a client's requests go to either.
 */
describe('two server processes on one database and one Redis', () => {
  let servers: ServerProcess[] = [];
  let db: Database;
  let drop: () => Promise<void>;
  let one: HttpClient;
  let two: HttpClient;

  beforeAll(async () => {
    const target = await emptyDatabase();
    drop = target.drop;
    const prefix = testRedisPrefix();
    const env = { REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix };
    const starting = Array.from({ length: 2 }, () => spawnServer({ databaseUrl: target.url, dir: target.dir, env }));
    const started = await Promise.allSettled(starting);
    servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    for (const s of started) if (s.status === 'rejected') throw s.reason;
    db = createDatabase(target.url);
    one = httpClient(servers[0].url);
    two = httpClient(servers[1].url);
  }, 90_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => stopServer(server)));
    await db?.close();
    await drop?.();
  });

  it('started together on an empty database: migrated once, one administrator', async () => {
    const migrations = await db.db
      .selectFrom('kysely_migration' as never)
      .select('name' as never)
      .execute();
    expect(migrations.map((m) => (m as { name: string }).name).sort()).toEqual([...MIGRATION_NAMES]);
    expect(await db.db.selectFrom('users').select('name').execute()).toEqual([{ name: 'admin' }]);
    for (const server of servers) expect((await httpClient(server.url).call('GET', '/api/health')).status).toBe(200);
  });

  it('count failed sign-ins together: the limit is reached with failures spread over both', async () => {
    const user = await createUser(db.db, { name: 'sokha', password: 'sokha-pass-1' });
    // signed in from this address before, so the name's growing delay does not apply here; the
    // default limit is 10 failures of a name from one address: 5 through each process
    expect((await one.call('POST', '/api/login', { name: user.name, password: user.password })).status).toBe(200);
    for (let i = 0; i < 10; i++) {
      const res = await (i % 2 ? two : one).call('POST', '/api/login', { name: user.name, password: 'wrong-pass' });
      expect(res.status).toBe(401);
    }
    for (const client of [one, two]) {
      const res = await client.call('POST', '/api/login', { name: user.name, password: user.password });
      expect(res.status).toBe(429);
      expect(res.body.message).toMatch(/^Too many failed sign-in attempts\. Try again in \d+ seconds\.$/);
    }
  });

  it('enforce a role changed through one on the next request through the other', async () => {
    const clerk = await createUser(db.db, { permissions: ['orders.list'] });
    const signedIn = await one.signIn(clerk.name, clerk.password);
    const throughTwo = httpClient(servers[1].url, signedIn.token);
    // the second process has the role's permissions in its cache now
    expect((await throughTwo.call('GET', '/api/orders')).status).toBe(200);

    // what changing a role does (the roles screens use the same write): its permissions, and its
    // updated_at, which versions every process's cache of them
    const role = await db.db
      .selectFrom('roles')
      .innerJoin('user_roles', 'user_roles.role_id', 'roles.id')
      .select('roles.id')
      .where('user_roles.user_id', '=', clerk.id)
      .executeTakeFirstOrThrow();
    await db.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('role_permissions').where('role_id', '=', role.id).execute();
      await trx.updateTable('roles').set({ updated_at: now() }).where('id', '=', role.id).execute();
    });
    expect((await throughTwo.call('GET', '/api/orders')).status).toBe(403);
    expect((await signedIn.call('GET', '/api/orders')).status).toBe(403);
  });

  it('count a list afresh at once after a write through the other', async () => {
    const adminOne = await one.signIn('admin', ADMIN_PASSWORD);
    const adminTwo = httpClient(servers[1].url, adminOne.token);
    const before = (await adminTwo.call('GET', '/api/brands')).body.meta.total as number;
    await adminOne.made('/api/brands', { name: `Brand ${randomUUID().slice(0, 8)}` });
    expect((await adminTwo.call('GET', '/api/brands')).body.meta.total).toBe(before + 1);
  });

  it('sell across both without overselling; a till retrying through the other process sells once', async () => {
    const adminOne = await one.signIn('admin', ADMIN_PASSWORD);
    const adminTwo = httpClient(servers[1].url, adminOne.token);
    const shop = await productOnSale(adminOne, 20);
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => shop.sell(i % 2 ? adminTwo : adminOne)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(20);
    expect(statuses.filter((s) => s === 409)).toHaveLength(20);
    expect(new Set(answers.filter((a) => a.status === 201).map((a) => a.body.data.number)).size).toBe(20);

    const key = randomUUID();
    const more = await productOnSale(adminOne, 5);
    const first = await more.sell(adminOne, key);
    const retried = await more.sell(adminTwo, key);
    expect(first.status).toBe(201);
    expect(retried.body.data.id).toBe(first.body.data.id);
    const levels = await db.db
      .selectFrom('stock_levels')
      .select(['product_id', 'quantity'])
      .where('product_id', 'in', [shop.product, more.product])
      .orderBy('product_id')
      .execute();
    expect(levels.map((l) => Number(l.quantity))).toEqual([0, 4]);
    expect(await auditLedger(db.db)).toEqual([]);
  });
});
