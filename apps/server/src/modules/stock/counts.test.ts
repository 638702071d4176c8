import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventBus } from '../../events/bus.ts';
import type { DomainEvent } from '../../events/events.ts';
import { routesOf } from '../../realtime/domain.ts';
import { stockIn } from '../../test/factories.ts';
import { ADMIN_PASSWORD, bearer, createStore, createUser, login, useTestApp } from '../../test/harness.ts';
import { sellableProduct } from '../../test/selling.ts';

const ctx = useTestApp();
let admin: Record<string, string>;
let counter: Record<string, string>;
let manager: Record<string, string>;
let cashier: Record<string, string>;
let product: number;
let storeId: number;
let sell: Awaited<ReturnType<typeof sellableProduct>>['sell'];
let sku: string;

async function send(as: Record<string, string>, method: 'GET' | 'POST', url: string, payload?: object, key?: string) {
  const headers = { ...as, ...(key ? { 'idempotency-key': key } : {}) };
  const res = await ctx.app.inject({ method, url, headers, payload });
  return { status: res.statusCode, body: res.json() };
}

async function onHand(productId: number): Promise<number> {
  const res = await send(admin, 'GET', `/api/stocks/levels?filter[store_id]=${storeId}&per_page=100`);
  return res.body.data.find((l: { product_id: number }) => l.product_id === productId)?.quantity ?? 0;
}

const as = async (roles: string[]) => {
  const user = await createUser(ctx.db, { roles });
  return { ...bearer((await login(ctx.app, user.name, user.password)).token), 'x-localization': 'en' };
};

async function newCount(zone = 'Aisle 3') {
  const res = await send(counter, 'POST', '/api/stock-counts', { store_id: storeId, zone }, randomUUID());
  expect(res.status).toBe(201);
  return res.body.data.id as number;
}

beforeAll(async () => {
  admin = { ...bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token), 'x-localization': 'en' };
  ({ product, storeId, sell } = await sellableProduct(ctx.app, ctx.db, admin, 200));
  sku = (await ctx.db.selectFrom('products').select('sku').where('id', '=', product).executeTakeFirstOrThrow()).sku;
  counter = await as(['stock_keeper']);
  manager = await as(['manager']);
  cashier = await as(['cashier']);
});

describe('a blind count', () => {
  it('counts what was on the shelf at each scan, hides the expected figure from counters, and posts counted − expected on approval', async () => {
    const id = await newCount();
    // 1000 on the shelf when the line is first scanned
    const first = await send(
      counter,
      'POST',
      `/api/stock-counts/${id}/scans`,
      { code: sku.toLowerCase() },
      randomUUID(),
    );
    expect(first.status).toBe(200);
    expect(first.body.message).toMatch(/: 1 counted\.$/);
    const line = first.body.data.lines[0];
    expect(line).toMatchObject({ product_id: product, counted: 1 });
    // blind: the counter is never sent what the store expects
    expect(line).not.toHaveProperty('expected');
    expect(line).not.toHaveProperty('difference');
    expect(first.body.data).not.toHaveProperty('difference_value_cents');

    // 10 are sold while the count goes on; the counter counts 989 more on the shelf (990 in all)
    await sell(10);
    const more = await send(
      counter,
      'POST',
      `/api/stock-counts/${id}/scans`,
      { product_id: product, quantity: 989 },
      randomUUID(),
    );
    expect(more.body.data.lines[0].counted).toBe(990);
    expect(JSON.stringify(more.body)).not.toContain('"expected"');

    // a cashier helps counting, blind too, but cannot approve
    const help = await send(cashier, 'POST', `/api/stock-counts/${id}/scans`, { code: sku }, randomUUID());
    expect(help.body.data.lines[0].counted).toBe(991);
    expect(help.body.data.abilities.approve).not.toBe(true);

    const submitted = await send(counter, 'POST', `/api/stock-counts/${id}/submit`, undefined, randomUUID());
    expect(submitted.status).toBe(200);
    expect(submitted.body.data.status).toBe('submitted');
    const refused = await send(counter, 'POST', `/api/stock-counts/${id}/approve`, undefined, randomUUID());
    expect(refused.status).toBe(403);

    // the manager sees expected 1000, counted 991: 9 missing, at the average cost of $1.00
    const review = await send(manager, 'GET', `/api/stock-counts/${id}`);
    expect(review.body.data.lines[0]).toMatchObject({
      expected: 1000,
      counted: 991,
      difference: -9,
      difference_value_cents: -900,
    });
    expect(review.body.data.difference_value_cents).toBe(-900);
    expect(review.body.data.abilities.approve).toBe(true);

    const key = randomUUID();
    const approved = await send(manager, 'POST', `/api/stock-counts/${id}/approve`, undefined, key);
    expect(approved.status).toBe(200);
    expect(approved.body.message).toBe('Count approved: the differences are posted to the stock.');
    expect(approved.body.data).toMatchObject({ status: 'approved', adjustment_id: expect.any(Number) });
    // 1000 − 10 sold − 9 missing: the sale is not counted twice
    expect(await onHand(product)).toBe(981);
    // the retried approval replays; a second one is refused by the count's state; nothing moves again
    expect((await send(manager, 'POST', `/api/stock-counts/${id}/approve`, undefined, key)).status).toBe(200);
    const again = await send(manager, 'POST', `/api/stock-counts/${id}/approve`, undefined, randomUUID());
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/is approved: it cannot be approved/);
    expect(await onHand(product)).toBe(981);

    const moves = await send(
      admin,
      'GET',
      `/api/stocks/movements?filter[document_type]=adjustment&filter[document_id]=${approved.body.data.adjustment_id}`,
    );
    expect(moves.body.data).toMatchObject([{ type: 'adjustment', reason: 'count', quantity: -9, value_cents: -900 }]);
  });

  it('adds found units at the average cost, and scans made at once all count', async () => {
    const id = await newCount('Back room');
    const before = await onHand(product);
    await send(counter, 'POST', `/api/stock-counts/${id}/scans`, { code: sku, quantity: before }, randomUUID());
    // twenty more found by counters scanning at once: none is lost
    const scans = await Promise.all(
      Array.from({ length: 20 }, () =>
        send(counter, 'POST', `/api/stock-counts/${id}/scans`, { code: sku }, randomUUID()),
      ),
    );
    expect(scans.map((s) => s.status)).toEqual(Array(20).fill(200));
    // a retried scan (same key) counts once
    const key = randomUUID();
    await send(counter, 'POST', `/api/stock-counts/${id}/scans`, { code: sku, quantity: 5 }, key);
    await send(counter, 'POST', `/api/stock-counts/${id}/scans`, { code: sku, quantity: 5 }, key);
    const seen = await send(manager, 'GET', `/api/stock-counts/${id}`);
    expect(seen.body.data.lines).toHaveLength(1);
    expect(seen.body.data.lines[0]).toMatchObject({ counted: before + 25, expected: before, difference: 25 });
    await send(counter, 'POST', `/api/stock-counts/${id}/submit`, undefined, randomUUID());
    await send(manager, 'POST', `/api/stock-counts/${id}/approve`, undefined, randomUUID());
    expect(await onHand(product)).toBe(before + 25);
  });

  it('refuses what is not the counter’s to do, with a clear message, and changes nothing', async () => {
    const id = await newCount();
    const unknown = await send(counter, 'POST', `/api/stock-counts/${id}/scans`, { code: 'NO-SUCH' }, randomUUID());
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual({ code: ['No product has the barcode or SKU “NO-SUCH”.'] });
    const kh = await send(
      { ...counter, 'x-localization': 'kh' },
      'POST',
      `/api/stock-counts/${id}/scans`,
      { code: 'NO-SUCH' },
      randomUUID(),
    );
    expect(kh.body.errors.code[0]).toContain('គ្មានផលិតផលណាមានបាកូដ');
    await send(counter, 'POST', `/api/stock-counts/${id}/scans`, { code: sku, quantity: 999_999_999 }, randomUUID());
    const over = await send(counter, 'POST', `/api/stock-counts/${id}/scans`, { code: sku, quantity: 2 }, randomUUID());
    expect(over.status).toBe(422);
    expect(over.body.errors).toEqual({ quantity: ['Must be at most 1000000000.'] });
    const zero = await send(counter, 'POST', `/api/stock-counts/${id}/scans`, { code: sku, quantity: 0 }, randomUUID());
    expect(zero.status).toBe(422);
    expect(zero.body.errors).toEqual({ quantity: ['Count at least one.'] });
    // a cashier cannot start a count; nobody counts in a store they do not cover
    expect((await send(cashier, 'POST', '/api/stock-counts', { store_id: storeId }, randomUUID())).status).toBe(403);
    const elsewhere = await createStore(ctx.db, 'FAR-01');
    const far = await send(counter, 'POST', '/api/stock-counts', { store_id: elsewhere }, randomUUID());
    expect(far.status).toBe(422);
    const outsider = await createUser(ctx.db, { roles: ['stock_keeper'], store: elsewhere });
    const them = { ...bearer((await login(ctx.app, outsider.name, outsider.password)).token), 'x-localization': 'en' };
    expect((await send(them, 'GET', `/api/stock-counts/${id}`)).status).toBe(404);
    expect((await send(them, 'POST', `/api/stock-counts/${id}/scans`, { code: sku }, randomUUID())).status).toBe(404);
    const list = await send(them, 'GET', '/api/stock-counts');
    expect(list.body.data).toEqual([]);
    // a cancelled count takes no more scans
    expect((await send(counter, 'POST', `/api/stock-counts/${id}/cancel`, undefined, randomUUID())).status).toBe(403);
    expect((await send(manager, 'POST', `/api/stock-counts/${id}/cancel`, undefined, randomUUID())).status).toBe(200);
    const late = await send(counter, 'POST', `/api/stock-counts/${id}/scans`, { code: sku }, randomUUID());
    expect(late.status).toBe(409);
    expect(late.body.message).toMatch(/is cancelled: it cannot be counted/);
  });

  it('a manager sends a count back; the lines stay and counting goes on', async () => {
    const id = await newCount();
    await send(counter, 'POST', `/api/stock-counts/${id}/scans`, { code: sku, quantity: 3 }, randomUUID());
    await send(counter, 'POST', `/api/stock-counts/${id}/submit`, undefined, randomUUID());
    const back = await send(manager, 'POST', `/api/stock-counts/${id}/reopen`, undefined, randomUUID());
    expect(back.body.data.status).toBe('open');
    const set = await send(
      counter,
      'POST',
      `/api/stock-counts/${id}/scans`,
      { code: sku, quantity: 7, mode: 'set' },
      randomUUID(),
    );
    expect(set.body.data.lines[0].counted).toBe(7);
    const listed = await send(counter, 'GET', `/api/stock-counts?filter[status]=open&search=${id ? 'SC' : ''}`);
    expect(listed.body.data.some((c: { id: number; lines_count: number }) => c.id === id && c.lines_count === 1)).toBe(
      true,
    );

    // while this count has the product, another count of the store may not count it too: each would
    // post its own difference against the same shelf
    const other = await newCount('Aisle 9');
    const twice = await send(
      counter,
      'POST',
      `/api/stock-counts/${other}/scans`,
      { code: sku, quantity: 2 },
      randomUUID(),
    );
    expect(twice.status).toBe(422);
    expect(twice.body.errors.code).toEqual([
      `This product is already on count ${back.body.data.number} of this store: count it there, or finish that count first.`,
    ]);
    const detail = await send(manager, 'GET', `/api/stock-counts/${other}`);
    expect(detail.body.data.lines).toEqual([]);
    // once that count is over, the product is free to count
    expect((await send(manager, 'POST', `/api/stock-counts/${id}/cancel`, undefined, randomUUID())).status).toBe(200);
    const now = await send(
      counter,
      'POST',
      `/api/stock-counts/${other}/scans`,
      { code: sku, quantity: 2 },
      randomUUID(),
    );
    expect(now.status).toBe(200);
    expect((await send(manager, 'POST', `/api/stock-counts/${other}/cancel`, undefined, randomUUID())).status).toBe(
      200,
    );
  });
});

describe('a count heard elsewhere', () => {
  it('each scan and step is announced on the count’s store channel once committed; a refused one is not', async () => {
    const heard: DomainEvent[] = [];
    const stop = eventBus(ctx.db).subscribe((event) => {
      if (event.name === 'StockCountChanged') heard.push(event);
    });
    try {
      const id = await newCount();
      await send(counter, 'POST', `/api/stock-counts/${id}/scans`, { code: sku }, randomUUID());
      await send(counter, 'POST', `/api/stock-counts/${id}/scans`, { code: 'NO-SUCH' }, randomUUID());
      await send(counter, 'POST', `/api/stock-counts/${id}/submit`, undefined, randomUUID());
      expect(heard.map((e) => e.payload)).toEqual([
        { id, store_id: storeId, status: 'open' },
        { id, store_id: storeId, status: 'open' },
        { id, store_id: storeId, status: 'submitted' },
      ]);
      expect(routesOf(heard[1])).toEqual([
        { channels: [`private-stores.${storeId}`], payload: { id, store_id: storeId, status: 'open' } },
      ]);
      // over, so the product is free for the next count
      await send(manager, 'POST', `/api/stock-counts/${id}/cancel`, undefined, randomUUID());
    } finally {
      stop();
    }
  });
});

describe('stock counted while nothing else moves', () => {
  it('stock brought in by hand is expected at the next scan', async () => {
    await stockIn(ctx.db, { store: storeId, product, quantity: 4, valueCents: 400 });
    const before = await onHand(product);
    const id = await newCount();
    const scanned = await send(
      manager,
      'POST',
      `/api/stock-counts/${id}/scans`,
      { code: sku, quantity: before },
      randomUUID(),
    );
    expect(scanned.body.data.lines[0]).toMatchObject({ expected: before, difference: 0, difference_value_cents: 0 });
    await send(manager, 'POST', `/api/stock-counts/${id}/submit`, undefined, randomUUID());
    const approved = await send(manager, 'POST', `/api/stock-counts/${id}/approve`, undefined, randomUUID());
    // nothing differed: nothing is posted
    expect(approved.body.data.adjustment_id).toBeNull();
    expect(await onHand(product)).toBe(before);
  });
});
