import { randomUUID } from 'node:crypto';
import { todayInCambodia } from '@depot/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { factories, firstStore, stockIn } from '../../test/factories.ts';
import { ADMIN_PASSWORD, bearer, createUser, login, useTestApp } from '../../test/harness.ts';

const ctx = useTestApp();
let headers: Record<string, string>;
const ids: Record<string, number> = {};
const make = factories(ctx, () => headers);

async function send(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, extra: Record<string, string> = {}) {
  const res = await ctx.app.inject({ method, url, headers: { ...headers, ...extra }, payload });
  return { status: res.statusCode, body: res.json(), headers: res.headers };
}

const daysFromToday = (days: number) => todayInCambodia(new Date(Date.now() + days * 86_400_000));

/** Units of a product in a store, from the levels API. */
async function onHand(storeId: number, productId: number): Promise<number> {
  const res = await send('GET', `/api/stocks/levels?filter[store_id]=${storeId}&per_page=100`);
  return res.body.data.find((l: { product_id: number }) => l.product_id === productId)?.quantity ?? 0;
}

beforeAll(async () => {
  headers = { ...bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token), 'x-localization': 'en' };
  ids.main = await firstStore(ctx.db);
  ids.riverside = await make.create('/api/stores', { name: 'Riverside depot', code: 'RS-01' });
  Object.assign(ids, await make.catalogue('carton'));
  const product = (sku: string, name_en: string, name_kh: string, reorder_level = 0) =>
    make.product({
      name_en,
      name_kh,
      sku,
      category_id: ids.drinks,
      unit_id: ids.can,
      cost_usd_cents: 50,
      reorder_level,
    });
  ids.beer = await product('BEER-1', 'Angkor beer', 'ស្រាបៀរអង្គរ', 30);
  ids.milk = await product('MILK-1', 'Fresh milk', 'ទឹកដោះគោស្រស់', 5);
  ids.water = await product('WATER-1', 'Drinking water', 'ទឹកបរិសុទ្ធ');
});

describe('adjustments', () => {
  it('a count sets the counted quantity; the difference is the movement, valued at the average cost', async () => {
    await stockIn(ctx.db, { store: ids.main, product: ids.water, quantity: 40, valueCents: 2000 }); // 40 at 50 cents
    const counted = await send('POST', '/api/stocks/adjustments', {
      store_id: ids.main,
      reason: 'count',
      note: 'Monthly count',
      items: [{ product_id: ids.water, quantity: 37 }],
    });
    expect(counted.status).toBe(201);
    expect(counted.body.message).toBe('Stock adjusted.');
    expect(counted.body.data.movements).toMatchObject([
      {
        type: 'adjustment',
        reason: 'count',
        quantity: -3,
        value_cents: -150,
        balance: 37,
        note: 'Monthly count',
        user_name: 'Administrator',
      },
    ]);
    expect(await onHand(ids.main, ids.water)).toBe(37);
    const level = (await send('GET', `/api/stocks/levels?filter[store_id]=${ids.main}&search=water`)).body.data[0];
    expect(level).toMatchObject({ quantity: 37, average_cost_cents: 50, value_cents: 1850 });

    const same = await send('POST', '/api/stocks/adjustments', {
      store_id: ids.main,
      reason: 'count',
      items: [{ product_id: ids.water, quantity: 37 }],
    });
    expect(same.status).toBe(422);
    expect(same.body.errors).toEqual({
      'items.0.quantity': ['The count is what the store already holds: nothing to adjust.'],
    });
  });

  it('refuses to take more than the store holds, naming the product in the reader’s language, and changes nothing', async () => {
    const before = await onHand(ids.main, ids.water);
    const res = await send('POST', '/api/stocks/adjustments', {
      store_id: ids.main,
      reason: 'damage',
      items: [
        { product_id: ids.water, quantity: 1 },
        { product_id: ids.water, quantity: before },
      ],
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Not enough stock for the product “Drinking water”.');
    const kh = await send(
      'POST',
      '/api/stocks/adjustments',
      { store_id: ids.main, reason: 'loss', items: [{ product_id: ids.water, quantity: 999 }] },
      { 'x-localization': 'kh' },
    );
    expect(kh.body.message).toBe('មិនមានស្តុកគ្រប់គ្រាន់សម្រាប់ផលិតផល «ទឹកបរិសុទ្ធ» ទេ។');
    expect(await onHand(ids.main, ids.water)).toBe(before);
    const movements = await send(
      'GET',
      `/api/stocks/movements?filter[product_id]=${ids.water}&filter[store_id]=${ids.main}`,
    );
    expect(movements.body.meta.total).toBe(2); // the receipt and the count, nothing of the refusals
  });

  it('asks which batch to count when the product has several in the store, and counts the one named', async () => {
    await stockIn(ctx.db, {
      store: ids.main,
      product: ids.milk,
      quantity: 6,
      valueCents: 600,
      lot: 'L1',
      expiryDate: daysFromToday(3),
    });
    await stockIn(ctx.db, {
      store: ids.main,
      product: ids.milk,
      quantity: 10,
      valueCents: 1000,
      lot: 'L2',
      expiryDate: daysFromToday(20),
    });
    const ask = await send('POST', '/api/stocks/adjustments', {
      store_id: ids.main,
      reason: 'count',
      items: [{ product_id: ids.milk, quantity: 4 }],
    });
    expect(ask.status).toBe(422);
    expect(ask.body.errors).toEqual({
      'items.0.batch_id': ['This product has several batches in this store: choose one.'],
    });
    const level = (await send('GET', `/api/stocks/levels?filter[store_id]=${ids.main}&search=milk`)).body.data[0];
    expect(level.batches.map((b: { lot: string; quantity: number }) => [b.lot, b.quantity])).toEqual([
      ['L1', 6],
      ['L2', 10],
    ]);
    const l2 = level.batches[1].id;
    const res = await send('POST', '/api/stocks/adjustments', {
      store_id: ids.main,
      reason: 'count',
      items: [{ product_id: ids.milk, batch_id: l2, quantity: 9 }],
    });
    expect(res.status).toBe(201);
    expect(res.body.data.movements[0]).toMatchObject({ lot: 'L2', quantity: -1, balance: 9 });
    // damage without a batch takes from the first to expire
    const damage = await send('POST', '/api/stocks/adjustments', {
      store_id: ids.main,
      reason: 'damage',
      items: [{ product_id: ids.milk, quantity: 2 }],
    });
    expect(damage.body.data.movements[0]).toMatchObject({ lot: 'L1', quantity: -2, balance: 4 });
  });

  it('is refused to a cashier (403) and needs a real store and product (422)', async () => {
    const cashier = await createUser(ctx.db, { roles: ['cashier'] });
    const token = (await login(ctx.app, cashier.name, cashier.password)).token;
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/stocks/adjustments',
      headers: bearer(token),
      payload: { store_id: ids.main, reason: 'found', items: [{ product_id: ids.water, quantity: 1 }] },
    });
    expect(res.statusCode).toBe(403);
    const bad = await send('POST', '/api/stocks/adjustments', {
      store_id: 999,
      reason: 'found',
      items: [{ product_id: 999, quantity: 1 }],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ store_id: ['The selected record does not exist.'] });
  });
});

describe('transfers', () => {
  it('draft → sent (stock leaves, first to expire first) → received (same batches and value arrive)', async () => {
    await stockIn(ctx.db, {
      store: ids.main,
      product: ids.beer,
      quantity: 48,
      valueCents: 2400,
      lot: 'B-LATE',
      expiryDate: daysFromToday(90),
    });
    await stockIn(ctx.db, {
      store: ids.main,
      product: ids.beer,
      quantity: 24,
      valueCents: 1440,
      lot: 'B-SOON',
      expiryDate: daysFromToday(10),
    });
    const made = await send('POST', '/api/stock-transfers', {
      from_store_id: ids.main,
      to_store_id: ids.riverside,
      note: 'Weekend stock',
      items: [
        { product_id: ids.beer, unit_id: ids.carton, quantity: 1 },
        { product_id: ids.beer, unit_id: ids.can, quantity: 6 },
      ],
    });
    expect(made.status).toBe(201);
    expect(made.body.data).toMatchObject({
      number: expect.stringMatching(/^TR-\d{4}-000001$/),
      status: 'draft',
      items_count: 2,
    });
    expect(made.body.data.items.map((i: { base_quantity: number }) => i.base_quantity)).toEqual([24, 6]);
    const id = made.body.data.id;
    expect(await onHand(ids.main, ids.beer)).toBe(72); // a draft moves nothing

    const sent = await send('POST', `/api/stock-transfers/${id}/send`);
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({
      message: 'Transfer sent: the stock has left the store.',
      data: { status: 'sent' },
    });
    expect(await onHand(ids.main, ids.beer)).toBe(42);
    expect(await onHand(ids.riverside, ids.beer)).toBe(0);
    const out = await send('GET', `/api/stocks/movements?filter[type]=transfer_out&filter[document_id]=${id}`);
    // 24 from the batch expiring soon, then 6 from the later one
    expect(out.body.data.map((m: { lot: string; quantity: number }) => [m.lot, m.quantity]).sort()).toEqual([
      ['B-LATE', -6],
      ['B-SOON', -24],
    ]);
    const again = await send('POST', `/api/stock-transfers/${id}/send`);
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/^Transfer TR-\d{4}-000001 is sent: it cannot be sent\.$/);

    const received = await send('POST', `/api/stock-transfers/${id}/receive`);
    expect(received.body.data.status).toBe('received');
    expect(await onHand(ids.riverside, ids.beer)).toBe(30);
    const there = (await send('GET', `/api/stocks/levels?filter[store_id]=${ids.riverside}`)).body.data[0];
    expect(there.batches.map((b: { lot: string; quantity: number }) => [b.lot, b.quantity])).toEqual([
      ['B-SOON', 24],
      ['B-LATE', 6],
    ]);
    const cancel = await send('POST', `/api/stock-transfers/${id}/cancel`);
    expect(cancel.status).toBe(409);
  });

  it('a sent transfer cancelled puts its stock back; a refused send moves nothing', async () => {
    const before = await onHand(ids.main, ids.beer);
    const make = async (quantity: number) =>
      (
        await send('POST', '/api/stock-transfers', {
          from_store_id: ids.main,
          to_store_id: ids.riverside,
          items: [{ product_id: ids.beer, unit_id: ids.can, quantity }],
        })
      ).body.data.id;
    const small = await make(2);
    await send('POST', `/api/stock-transfers/${small}/send`);
    expect(await onHand(ids.main, ids.beer)).toBe(before - 2);
    const cancelled = await send('POST', `/api/stock-transfers/${small}/cancel`);
    expect(cancelled.body.data.status).toBe('cancelled');
    expect(await onHand(ids.main, ids.beer)).toBe(before);

    const big = await make(before + 1);
    const refused = await send('POST', `/api/stock-transfers/${big}/send`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('Not enough stock for the product “Angkor beer”.');
    expect((await send('GET', `/api/stock-transfers/${big}`)).body.data.status).toBe('draft');
    expect(await onHand(ids.main, ids.beer)).toBe(before);
  });

  it('refuses the same store twice and a unit that is not the product’s', async () => {
    const res = await send('POST', '/api/stock-transfers', {
      from_store_id: ids.main,
      to_store_id: ids.main,
      items: [{ product_id: ids.beer, unit_id: ids.drinks + 1000, quantity: 1 }],
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ to_store_id: ['Choose another store than the one it leaves.'] });
    const unit = await send('POST', '/api/stock-transfers', {
      from_store_id: ids.main,
      to_store_id: ids.riverside,
      items: [{ product_id: ids.beer, unit_id: ids.drinks + 1000, quantity: 1 }],
    });
    expect(unit.body.errors).toEqual({ 'items.0.unit_id': ['Choose the product’s own unit or one made of it.'] });
    const list = await send('GET', '/api/stock-transfers?filter[status]=received');
    expect(list.body.meta.total).toBe(1);
  });
});

describe('low stock and expiry', () => {
  it('lists products at or under their reorder level per store, with the quantity to reorder, and counts them', async () => {
    const low = await send('GET', '/api/stocks/low?per_page=100');
    const rows = low.body.data.map(
      (r: { sku: string; store_name: string; quantity: number; reorder_quantity: number }) => [
        r.sku,
        r.store_name,
        r.quantity,
        r.reorder_quantity,
      ],
    );
    // beer: 30 at Riverside is at its level of 30; milk: 13 at Main is above 5; water has no level
    expect(rows).toEqual([['BEER-1', 'Riverside depot', 30, 30]]);
    expect((await send('GET', '/api/stocks/low/count')).body.data.count).toBe(1);
    await send('POST', '/api/stocks/adjustments', {
      store_id: ids.main,
      reason: 'loss',
      items: [{ product_id: ids.milk, quantity: 9 }],
    });
    expect((await send('GET', '/api/stocks/low/count')).body.data.count).toBe(2);
    expect((await send('GET', `/api/stocks/low/count?filter[store_id]=${ids.main}`)).body.data.count).toBe(1);
  });

  it('lists expired batches with their value and writes one off; a batch not expired stays', async () => {
    await stockIn(ctx.db, {
      store: ids.main,
      product: ids.water,
      quantity: 12,
      valueCents: 720,
      lot: 'OLD',
      expiryDate: daysFromToday(-2),
    });
    const expired = await send('GET', '/api/stocks/batches?filter[expired]=true');
    expect(expired.body.data).toHaveLength(1);
    expect(expired.body.data[0]).toMatchObject({ sku: 'WATER-1', lot: 'OLD', quantity: 12, days_left: -2 });
    const soon = await send('GET', '/api/stocks/batches?filter[expiring_days]=15');
    expect(soon.body.data.map((b: { lot: string; store_name: string }) => [b.lot, b.store_name])).toEqual([
      ['B-SOON', 'Riverside depot'],
    ]);

    const batchId = expired.body.data[0].batch_id;
    const value = expired.body.data[0].value_cents;
    const res = await send('POST', '/api/stocks/write-offs', { store_id: ids.main, batch_id: batchId });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Expired batch written off.');
    expect(res.body.data.movements[0]).toMatchObject({
      type: 'expiry_write_off',
      quantity: -12,
      value_cents: -value,
      balance: 0,
    });
    expect((await send('GET', '/api/stocks/batches?filter[expired]=true')).body.data).toHaveLength(0);
    const twice = await send('POST', '/api/stocks/write-offs', { store_id: ids.main, batch_id: batchId });
    expect(twice.body.errors).toEqual({ batch_id: ['This batch has no stock in this store.'] });
    const fresh = (await send('GET', '/api/stocks/batches?filter[expiring_days]=30')).body.data[0].batch_id;
    const notYet = await send('POST', '/api/stocks/write-offs', { store_id: ids.main, batch_id: fresh });
    expect(notYet.body.errors).toEqual({ batch_id: ['This batch has not expired.'] });
  });
});

describe('retries and races', () => {
  it('replays the answer of a retried adjustment with the same Idempotency-Key; another body with it is 422', async () => {
    const key = randomUUID();
    const body = { store_id: ids.main, reason: 'found', items: [{ product_id: ids.water, quantity: 5 }] };
    const before = await onHand(ids.main, ids.water);
    const first = await send('POST', '/api/stocks/adjustments', body, { 'idempotency-key': key });
    const retry = await send('POST', '/api/stocks/adjustments', body, { 'idempotency-key': key });
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(await onHand(ids.main, ids.water)).toBe(before + 5);
    const other = await send(
      'POST',
      '/api/stocks/adjustments',
      { ...body, reason: 'damage' },
      { 'idempotency-key': key },
    );
    expect(other.status).toBe(422);
    expect(other.body.message).toBe('This Idempotency-Key was used for another request.');
  });

  it('50 damages of one unit and 10 transfers of one, all at once, against 10 units: exactly 10 leave', async () => {
    const at = await onHand(ids.main, ids.water);
    await send('POST', '/api/stocks/adjustments', {
      store_id: ids.main,
      reason: 'count',
      items: [{ product_id: ids.water, quantity: 10 }],
    });
    expect(at).toBeGreaterThan(0);
    const drafts = await Promise.all(
      Array.from(
        { length: 10 },
        async () =>
          (
            await send('POST', '/api/stock-transfers', {
              from_store_id: ids.main,
              to_store_id: ids.riverside,
              items: [{ product_id: ids.water, unit_id: ids.can, quantity: 1 }],
            })
          ).body.data.id,
      ),
    );
    const answers = await Promise.all([
      ...Array.from({ length: 50 }, () =>
        send('POST', '/api/stocks/adjustments', {
          store_id: ids.main,
          reason: 'damage',
          items: [{ product_id: ids.water, quantity: 1 }],
        }),
      ),
      ...drafts.map((id) => send('POST', `/api/stock-transfers/${id}/send`)),
    ]);
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201 || s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 409)).toHaveLength(50);
    expect(await onHand(ids.main, ids.water)).toBe(0);
  });
});

describe('the till’s stock', () => {
  it('answers products with the units a store holds, when asked, on the list and on one product', async () => {
    const cashier = await createUser(ctx.db, { roles: ['cashier'], store: ids.main, covers: [ids.riverside] });
    const as = { ...bearer((await login(ctx.app, cashier.name, cashier.password)).token), 'x-localization': 'en' };
    const till = async (url: string) => {
      const res = await ctx.app.inject({ method: 'GET', url, headers: as });
      return { status: res.statusCode, body: res.json() };
    };
    const milk = 'MILK-1';
    await stockIn(ctx.db, { store: ids.riverside, product: ids.milk, quantity: 7, valueCents: 700 });
    const before = await onHand(ids.main, ids.milk);
    const list = await till(`/api/products?search=${milk}&stock_store=${ids.riverside}`);
    expect(list.status).toBe(200);
    expect(list.body.data).toMatchObject([{ sku: milk, stock: 7 }]);
    const main = await till(`/api/products?per_page=100&stock_store=${ids.main}`);
    const byId = new Map(main.body.data.map((p: { id: number; stock: number }) => [p.id, p.stock]));
    expect(byId.get(ids.milk)).toBe(before);
    expect(main.body.data.every((p: { stock: unknown }) => typeof p.stock === 'number')).toBe(true);
    expect((await till(`/api/products/${ids.milk}?stock_store=${ids.riverside}`)).body.data.stock).toBe(7);
    // without the parameter, no stock; a store that is not one is a mistake of the request
    expect((await till(`/api/products/${ids.milk}`)).body.data).not.toHaveProperty('stock');
    expect((await till('/api/products?search=MILK-1')).body.data[0]).not.toHaveProperty('stock');
    const wrong = await till('/api/products?stock_store=999999');
    expect(wrong.status).toBe(422);
    // (a store that does not exist is, to the cashier, one more store they do not work in)
    expect(wrong.body.errors).toEqual({ stock_store: ['You do not work in this store.'] });
    expect((await till('/api/products?stock_store=abc')).status).toBe(422);
    // a store the cashier does not cover is refused, as a store that does not exist
    const elsewhere = await createUser(ctx.db, { roles: ['cashier'], store: ids.main });
    const outside = await ctx.app.inject({
      method: 'GET',
      url: `/api/products?stock_store=${ids.riverside}`,
      headers: { ...bearer((await login(ctx.app, elsewhere.name, elsewhere.password)).token), 'x-localization': 'en' },
    });
    expect(outside.statusCode).toBe(422);
    expect(outside.json().errors).toEqual({ stock_store: ['You do not work in this store.'] });
  });
});
