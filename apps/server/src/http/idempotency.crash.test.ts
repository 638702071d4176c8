import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../db/database.ts';
import { auditLedger } from '../modules/stock/ledger.ts';
import { ADMIN_PASSWORD, emptyDatabase, TEST_DB } from '../test/harness.ts';
import { type ServerProcess, spawnServer, stopServer } from '../test/serverProcess.ts';

/** Keyed checkouts sent, how many at once, and how many acknowledged sales before the kill. */
const SALES = 240;
const AT_ONCE = 24;
const KILL_AFTER = 60;

async function call(
  server: ServerProcess,
  token: string | null,
  method: string,
  url: string,
  body?: unknown,
  key?: string,
) {
  const res = await fetch(`${server.url}${url}`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(key ? { 'idempotency-key': key } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { data?: { id: number }; code?: string; token?: string } };
}

async function signIn(server: ServerProcess): Promise<string> {
  const res = await call(server, null, 'POST', '/api/login', { name: 'admin', password: ADMIN_PASSWORD });
  if (!res.body.token) throw new Error(`sign-in: ${res.status}`);
  return res.body.token;
}

/**
 * DESIGN.md 4b: an idempotency key is claimed in the transaction of the work it guards. The real
 * server process is killed (SIGKILL) while keyed checkouts are in flight, started again on the same
 * database, and every key is sent again until it has a final answer: each key made exactly one sale,
 * a sale acknowledged before the crash is the one its retry answers, no key stays "in flight", and
 * the stock ledger still adds up.
 */
describe(`a crash in the middle of keyed checkouts (${TEST_DB})`, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'depot-crash-'));
  let database: Awaited<ReturnType<typeof emptyDatabase>> | undefined;
  let server: ServerProcess | undefined;

  afterAll(async () => {
    await stopServer(server, 'SIGKILL');
    await database?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps every acknowledged sale, doubles none and leaves no key stuck', { timeout: 60_000 }, async () => {
    database = await emptyDatabase();
    server = await spawnServer({ databaseUrl: database.url, dir, env: { LOG_LEVEL: 'fatal' } });
    let token = await signIn(server);
    const post = async (url: string, body: object) => {
      const res = await call(server as ServerProcess, token, 'POST', url, body);
      if (res.status !== 201) throw new Error(`${url}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data?.id as number;
    };
    const category = await post('/api/categories', { name_en: 'Crash', name_kh: 'គាំង' });
    const unit = await post('/api/units', { name_en: 'Piece', name_kh: 'ដុំ', short_name: 'pc' });
    const product = await post('/api/products', {
      name_en: 'Crash water',
      name_kh: 'ទឹកគាំង',
      sku: 'CRASH-1',
      category_id: category,
      unit_id: unit,
      price_usd_cents: 100,
      taxable: false,
    });
    const stores = await call(server, token, 'GET', '/api/stores?per_page=10');
    const store = (stores.body as unknown as { data: { id: number }[] }).data[0].id;
    await post('/api/stocks/adjustments', {
      store_id: store,
      reason: 'found',
      items: [{ product_id: product, quantity: 1_000_000 }],
    });
    const customers = await call(server, token, 'GET', '/api/customers?per_page=10');
    const walkIn = (customers.body as unknown as { data: { id: number; is_walk_in: boolean }[] }).data.find(
      (c) => c.is_walk_in,
    )?.id;
    // the key is the sale's note too: the orders table says which key made which sale
    const sale = (key: string) => ({
      customer_id: walkIn,
      note: key,
      items: [{ product_id: product, quantity: 1 }],
      payments: [{ method: 'cash_usd', amount: 100 }],
    });

    const keys = Array.from({ length: SALES }, () => randomUUID());
    const acknowledged = new Map<string, number>();
    let next = 0;
    let killed = false;
    let sentBeforeKill = 0;
    const running = server;
    const worker = async () => {
      while (!killed && next < keys.length) {
        const key = keys[next++];
        sentBeforeKill++;
        try {
          const res = await call(running, token, 'POST', '/api/orders', sale(key), key);
          if (res.status === 201 && !killed) acknowledged.set(key, res.body.data?.id as number);
        } catch {
          // the connection died with the server: the answer is unknown, the retry will tell
        }
        if (!killed && acknowledged.size >= KILL_AFTER) {
          killed = true;
          running.process.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: AT_ONCE }, worker));
    await running.exited;
    expect(killed).toBe(true);

    server = await spawnServer({ databaseUrl: database.url, dir, env: { LOG_LEVEL: 'fatal' } });
    token = await signIn(server);
    const final = new Map<string, { status: number; id?: number }>();
    const stuck: string[] = [];
    let retried = 0;
    const again = async () => {
      while (retried < keys.length) {
        const key = keys[retried++];
        for (let attempt = 0; ; attempt++) {
          const res = await call(server as ServerProcess, token, 'POST', '/api/orders', sale(key), key);
          if (res.status === 409 && res.body.code === 'idempotency_in_flight') {
            if (attempt < 10) {
              await new Promise((resolve) => setTimeout(resolve, 50));
              continue;
            }
            stuck.push(key);
          }
          final.set(key, { status: res.status, id: res.body.data?.id });
          break;
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, again));
    await stopServer(server);

    const db = createDatabase(database.url);
    try {
      const sales = await db.db
        .selectFrom('orders')
        .select(['note', 'id', sql<number>`count(*) over (partition by note)`.as('n')])
        .execute();
      const byKey = new Map(sales.map((s) => [s.note as string, { id: s.id, n: Number(s.n) }]));
      const counts = {
        keys: keys.length,
        sentBeforeKill,
        acknowledgedBeforeKill: acknowledged.size,
        finalCreated: [...final.values()].filter((f) => f.status === 201).length,
        stuck: stuck.length,
        sales: sales.length,
      };
      console.info(`crash test (${TEST_DB}): ${JSON.stringify(counts)}`);
      expect(stuck).toEqual([]);
      expect([...final.values()].filter((f) => f.status !== 201)).toEqual([]);
      // one sale per key, the one its retry names; an acknowledged sale is the same sale
      expect(sales).toHaveLength(keys.length);
      for (const key of keys) {
        expect(byKey.get(key)?.n, key).toBe(1);
        expect(final.get(key)?.id, key).toBe(byKey.get(key)?.id);
        if (acknowledged.has(key)) expect(acknowledged.get(key), key).toBe(byKey.get(key)?.id);
      }
      expect(await auditLedger(db.db)).toEqual([]);
    } finally {
      await db.close();
    }
  });
});
