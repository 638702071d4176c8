import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, bearer, login, useTestApp } from '../../test/harness.ts';
import { lockProducts, receive } from '../stock/ledger.ts';

/**
 * The till's offline queue as the server sees it (issue 13): the same keyed sales sent again and
 * again, out of order, two tabs at once. Each sale is recorded once, with the stock it took.
 */
const ctx = useTestApp();
let headers: Record<string, string>;
const ids: Record<string, number> = {};

async function send(method: 'GET' | 'POST', url: string, payload?: object, extra: Record<string, string> = {}) {
  const res = await ctx.app.inject({ method, url, headers: { ...headers, ...extra }, payload });
  return { status: res.statusCode, body: res.json() };
}

async function onHand(productId: number): Promise<number> {
  const res = await send('GET', `/api/stocks/levels?filter[store_id]=${ids.store}&per_page=100`);
  return res.body.data.find((l: { product_id: number }) => l.product_id === productId)?.quantity ?? 0;
}

beforeAll(async () => {
  headers = { ...bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token), 'x-localization': 'en' };
  const post = async (url: string, body: object) => {
    const res = await send('POST', url, body);
    if (res.status !== 201) throw new Error(`${url}: ${JSON.stringify(res.body)}`);
    return res.body.data.id as number;
  };
  ids.store = (await ctx.db.selectFrom('stores').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
  ids.walkIn = (
    await ctx.db.selectFrom('customers').select('id').where('is_walk_in', '=', 1).executeTakeFirstOrThrow()
  ).id;
  ids.grain = await post('/api/categories', { name_en: 'Grain', name_kh: 'គ្រាប់ធញ្ញជាតិ' });
  ids.bag = await post('/api/units', { name_en: 'Bag', name_kh: 'បាវ', short_name: 'bag' });
  ids.rice = await post('/api/products', {
    name_en: 'Jasmine rice 5kg',
    name_kh: 'អង្ករម្លិះ ៥គក',
    sku: 'RICE-OFF',
    category_id: ids.grain,
    unit_id: ids.bag,
    price_usd_cents: 1000,
    taxable: false,
  });
  await ctx.db.transaction().execute(async (trx) => {
    await lockProducts(trx, [ids.rice]);
    await receive(trx, {
      storeId: ids.store,
      productId: ids.rice,
      type: 'purchase_receipt',
      batch: { lot: null, expiryDate: null },
      quantity: 20,
      valueCents: 14_000,
      document: null,
      userId: null,
    });
  });
});

describe('replaying an offline queue', () => {
  it('duplicates, out-of-order retries and two tabs at once: each sale is recorded once', async () => {
    const before = await onHand(ids.rice);
    const ordersBefore = (await send('GET', '/api/orders?per_page=10')).body.meta.total as number;
    // five sales kept offline, each with its key; 1, 2 and 3 rice bags… paid in dollars or riel
    const queue = [1, 2, 1, 3, 1].map((quantity, i) => ({
      key: randomUUID(),
      body: {
        customer_id: ids.walkIn,
        items: [{ product_id: ids.rice, quantity }],
        payments: [
          i % 2 ? { method: 'cash_khr', amount: 41_000 * quantity } : { method: 'cash_usd', amount: 1000 * quantity },
        ],
      },
    }));
    const post = (sale: (typeof queue)[number]) =>
      send('POST', '/api/orders', sale.body, { 'idempotency-key': sale.key });

    // the first tab sends the first two, then its answers are lost
    const first = await Promise.all(queue.slice(0, 2).map(post));
    // a reload sends the whole queue again, out of order, while a second tab sends it in order
    const shuffled = [queue[3], queue[1], queue[4], queue[0], queue[2]];
    const [again, other] = await Promise.all([
      Promise.all(shuffled.map(post)),
      (async () => {
        const answers = [];
        for (const sale of queue) answers.push(await post(sale));
        return answers;
      })(),
    ]);
    // and once more, every key twice at once
    const twice = await Promise.all([...queue, ...queue].map(post));

    for (const answer of [...first, ...again, ...other, ...twice]) expect(answer.status).toBe(201);
    const byKey = new Map<string, number>();
    const record = (sale: (typeof queue)[number], answer: { body: { data: { id: number } } }) => {
      const seen = byKey.get(sale.key);
      if (seen !== undefined) expect(answer.body.data.id).toBe(seen);
      else byKey.set(sale.key, answer.body.data.id);
    };
    for (const [i, answer] of first.entries()) record(queue[i], answer);
    for (const [i, answer] of again.entries()) record(shuffled[i], answer);
    for (const [i, answer] of other.entries()) record(queue[i], answer);
    for (const [i, answer] of twice.entries()) record(queue[i % queue.length], answer);

    expect(new Set(byKey.values()).size).toBe(5);
    const ordersAfter = (await send('GET', '/api/orders?per_page=10')).body.meta.total as number;
    expect(ordersAfter - ordersBefore).toBe(5);
    expect(await onHand(ids.rice)).toBe(before - 8);
  });
});
