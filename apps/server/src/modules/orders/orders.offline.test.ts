import { randomUUID } from 'node:crypto';
import { todayInCambodia } from '@depot/contracts';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { firstStore, stockIn, walkIn } from '../../test/factories.ts';
import { ADMIN_PASSWORD, bearer, createUser, login, useTestApp } from '../../test/harness.ts';

/**
 * The till's offline queue as the server sees it: the same keyed sales sent again and
 * again, out of order, two tabs at once. Each sale is recorded once, with the stock it took.
 */
const ctx = useTestApp();
let headers: Record<string, string>;
const ids: Record<string, number> = {};

async function send(method: 'GET' | 'POST', url: string, payload?: object, extra: Record<string, string> = {}) {
  const res = await ctx.app.inject({
    method,
    url,
    headers: extra.authorization ? extra : { ...headers, ...extra },
    payload,
  });
  return { status: res.statusCode, body: res.json() };
}

async function onHand(productId: number): Promise<number> {
  const res = await send('GET', `/api/stocks/levels?filter[store_id]=${ids.store}&per_page=100`);
  // every batch of the product in the store, together
  return res.body.data
    .filter((l: { product_id: number }) => l.product_id === productId)
    .reduce((sum: number, l: { quantity: number }) => sum + l.quantity, 0);
}

beforeAll(async () => {
  headers = { ...bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token), 'x-localization': 'en' };
  const post = async (url: string, body: object) => {
    const res = await send('POST', url, body);
    if (res.status !== 201) throw new Error(`${url}: ${JSON.stringify(res.body)}`);
    return res.body.data.id as number;
  };
  ids.store = await firstStore(ctx.db);
  ids.walkIn = await walkIn(ctx.db);
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
  await stockIn(ctx.db, { store: ids.store, product: ids.rice, quantity: 20, valueCents: 14_000 });
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

describe('an offline sale beyond the stock (issue "offline till")', () => {
  const oilStock = (quantity: number, valueCents: number, batch: { lot?: string; expiryDate?: string } = {}) =>
    stockIn(ctx.db, { store: ids.store, product: ids.oil, quantity, valueCents, ...batch });
  const offline = (n: string, soldAt = new Date(Date.now() - 3_600_000).toISOString()) => ({
    sold_at: soldAt,
    device_receipt_no: `OFF-AB12-${n}`,
  });
  const oilSale = (quantity: number, extra: object = {}) => ({
    customer_id: ids.walkIn,
    items: [{ product_id: ids.oil, quantity }],
    payments: [{ method: 'cash_usd', amount: 800 * quantity }],
    ...extra,
  });
  const told = async (userId: number) =>
    ctx.db
      .selectFrom('notifications')
      .select(['type', 'data'])
      .where('notifiable_id', '=', userId)
      .where('type', '=', 'offline_oversold')
      .execute();

  beforeAll(async () => {
    const res = await send('POST', '/api/products', {
      name_en: 'Palm oil 1L',
      name_kh: 'ប្រេងដូង ១លីត្រ',
      sku: 'OIL-OFF',
      category_id: ids.grain,
      unit_id: ids.bag,
      price_usd_cents: 800,
      cost_usd_cents: 500,
      taxable: false,
    });
    ids.oil = res.body.data.id;
    await oilStock(2, 1000);
  });

  it('is recorded beyond the stock, once, with the lines it oversold, and the managers are told once', async () => {
    const cashier = await createUser(ctx.db, { roles: ['cashier'] });
    const manager = await createUser(ctx.db, { permissions: ['orders.approve', 'orders.view'] });
    const clerk = await createUser(ctx.db, { permissions: ['orders.view'] });
    const as = { ...bearer((await login(ctx.app, cashier.name, cashier.password)).token), 'x-localization': 'en' };
    const admin = (await ctx.db.selectFrom('users').select('id').where('name', '=', 'admin').executeTakeFirstOrThrow())
      .id;

    // online, 5 bottles of the 2 in stock: refused, as always
    const online = await send('POST', '/api/orders', oilSale(5), as);
    expect(online.status).toBe(409);
    expect(online.body.message).toContain('Palm oil 1L');

    // the same sale made offline, sent later by its queue (the body names another cashier: ignored)
    const key = randomUUID();
    const body = oilSale(5, { offline: offline('0001'), cashier_id: admin });
    const first = await send('POST', '/api/orders', body, { ...as, 'idempotency-key': key });
    expect(first.status).toBe(201);
    const order = first.body.data;
    expect(order).toMatchObject({ offline_receipt_no: 'OFF-AB12-0001', oversold: true, cashier_id: cashier.id });
    expect(order.offline_sold_at).not.toBeNull();
    expect(order.items[0]).toMatchObject({ quantity: 5, oversold: 3 });
    expect(await onHand(ids.oil)).toBe(-3);

    // replayed (a lost answer, a second tab): the same order, nothing taken again
    const again = await send('POST', '/api/orders', body, { ...as, 'idempotency-key': key });
    expect(again.body.data.id).toBe(order.id);
    expect(await onHand(ids.oil)).toBe(-3);
    const listed = await send('GET', '/api/orders?filter[oversold]=1&per_page=50');
    expect(listed.body.data.map((o: { id: number }) => o.id)).toEqual([order.id]);

    await vi.waitFor(async () => expect(await told(manager.id)).toHaveLength(1));
    const [note] = await told(manager.id);
    const data = typeof note.data === 'string' ? JSON.parse(note.data) : note.data;
    expect(data).toMatchObject({ order_id: order.id, number: order.number, link: `/orders?view=${order.id}` });
    expect(await told(clerk.id)).toHaveLength(0);
    const audit = await ctx.db
      .selectFrom('audit_log')
      .select('user_id')
      .where('action', '=', 'order.sold_offline_beyond_stock')
      .execute();
    expect(audit).toEqual([{ user_id: cashier.id }]);

    // stock below zero: an online sale is still refused, and the reports stand
    expect((await send('POST', '/api/orders', oilSale(1))).status).toBe(409);
    const today = todayInCambodia();
    const report = await send('GET', `/api/reports/inventory?from=${today}&to=${today}&store_id=${ids.store}`);
    expect(report.status).toBe(200);
    expect((await send('GET', `/api/stocks/low?filter[store_id]=${ids.store}`)).status).toBe(200);
    expect(await told(manager.id)).toHaveLength(1);
  });

  it('an offline sale within the stock takes it as usual; a claim is bounded and only for a new sale', async () => {
    await oilStock(4, 2000);
    expect(await onHand(ids.oil)).toBe(1);
    const within = await send('POST', '/api/orders', oilSale(1, { offline: offline('0002') }));
    expect(within.status).toBe(201);
    expect(within.body.data).toMatchObject({ oversold: false, items: [{ oversold: 0 }] });
    const future = await send('POST', '/api/orders', oilSale(1, { offline: offline('0003', '2099-01-01T00:00:00Z') }));
    expect(future.status).toBe(422);
    expect(future.body.errors['offline.sold_at']).toBeDefined();
    const old = new Date(Date.now() - 40 * 86_400_000).toISOString();
    expect((await send('POST', '/api/orders', oilSale(1, { offline: offline('0004', old) }))).status).toBe(422);
    expect(
      (await send('POST', '/api/orders', oilSale(1, { offline: { ...offline('1'), device_receipt_no: 'X' } }))).status,
    ).toBe(422);
    const held = await send('POST', '/api/orders', {
      ...oilSale(1, { offline: offline('0005') }),
      payments: [],
      hold: true,
    });
    expect(held.status).toBe(422);
    expect(await onHand(ids.oil)).toBe(0);
  });

  it('a receipt into another batch brings the stock back; 50 online sales at once never take it below zero', async () => {
    await send('POST', '/api/orders', oilSale(2, { offline: offline('0006') }));
    expect(await onHand(ids.oil)).toBe(-2);
    // a lot with an expiry date: the shortage stays on the open batch, the store's quantity counts both
    await oilStock(9, 4500, { lot: 'L-9', expiryDate: '2099-12-31' });
    expect(await onHand(ids.oil)).toBe(7);
    const answers = await Promise.all(Array.from({ length: 50 }, () => send('POST', '/api/orders', oilSale(1))));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(7);
    expect(statuses.filter((s) => s === 409)).toHaveLength(43);
    expect(await onHand(ids.oil)).toBe(0);
  });
});
