import { randomUUID } from 'node:crypto';
import { todayInCambodia } from '@depot/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, bearer, login, useTestApp } from '../test/harness.ts';

const ctx = useTestApp();
const ids: Record<string, number> = {};
let admin: Record<string, string>;

async function send(method: string, url: string, payload?: object, key?: string) {
  const res = await ctx.app.inject({
    method: method as 'POST',
    url,
    headers: { ...admin, 'x-localization': 'en', ...(key ? { 'idempotency-key': key } : {}) },
    payload,
  });
  return { status: res.statusCode, body: res.json(), headers: res.headers };
}

async function made(url: string, payload: object) {
  const res = await send('POST', url, payload);
  if (res.status !== 201) throw new Error(`${url}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** A shift's float at a till of its own; the admin's open shifts closed first (one open shift a user). */
let tills = 0;
const shiftBody = () => ({
  store_id: ids.store,
  till: `Key till ${++tills}`,
  float: { usd: [{ value: 500, count: 1 }], khr: [] },
});
const closeShifts = () =>
  ctx.db.updateTable('shifts').set({ status: 'closed', open_user: null, open_till: null }).execute();

const sale = (over: object = {}) => ({
  customer_id: ids.walkIn,
  items: [{ product_id: ids.product, quantity: 1 }],
  ...over,
});

beforeAll(async () => {
  admin = bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token);
  ids.store = (await ctx.db.selectFrom('stores').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
  ids.other = (await made('/api/stores', { name: 'Second depot', code: 'SECOND' })).id;
  ids.walkIn = (
    await ctx.db.selectFrom('customers').select('id').where('is_walk_in', '=', 1).executeTakeFirstOrThrow()
  ).id;
  ids.supplier = (await made('/api/suppliers', { name: 'Key supplies' })).id;
  const category = (await made('/api/categories', { name_en: 'Keys', name_kh: 'កូនសោ' })).id;
  ids.unit = (await made('/api/units', { name_en: 'Piece', name_kh: 'ដុំ', short_name: 'pc' })).id;
  ids.product = (
    await made('/api/products', {
      name_en: 'Keyed water',
      name_kh: 'ទឹកមានកូនសោ',
      sku: 'KEY-1',
      category_id: category,
      unit_id: ids.unit,
      price_usd_cents: 100,
      taxable: false,
      expiry_date: null,
    })
  ).id;
  await made('/api/stocks/adjustments', {
    store_id: ids.store,
    reason: 'found',
    items: [{ product_id: ids.product, quantity: 1000 }],
  });
});

/**
 * Each idempotent route, with what it takes to be sent once successfully (made fresh for each
 * use): a new idempotent route must be added here, and is then held to the rule below.
 */
const RECIPES: Record<string, () => Promise<{ url: string; body?: object }>> = {
  'POST /api/orders': async () => ({ url: '/api/orders', body: sale() }),
  'PUT /api/orders/:id': async () => {
    const held = await made('/api/orders', sale({ hold: true }));
    return { url: `/api/orders/${held.id}`, body: sale() };
  },
  'POST /api/orders/:id/payments': async () => {
    const unpaid = await made('/api/orders', sale());
    return { url: `/api/orders/${unpaid.id}/payments`, body: { payments: [{ method: 'cash_usd', amount: 100 }] } };
  },
  'POST /api/customers/:id/payments': async () => {
    await made('/api/orders', sale());
    return { url: `/api/customers/${ids.walkIn}/payments`, body: { method: 'cash_usd', amount: 100 } };
  },
  'POST /api/orders/:id/cancel': async () => ({
    url: `/api/orders/${(await made('/api/orders', sale())).id}/cancel`,
    body: {},
  }),
  'POST /api/orders/:id/returns': async () => {
    const paid = await made('/api/orders', sale({ payments: [{ method: 'cash_usd', amount: 100 }] }));
    return {
      url: `/api/orders/${paid.id}/returns`,
      body: { items: [{ order_item_id: paid.items[0].id, quantity: 1 }], refund_method: 'cash_usd' },
    };
  },
  'POST /api/tax-documents': async () => {
    // an invoice's riel rate: the market rule needs the NBC's of the day
    await made('/api/official-rates', { kind: 'nbc_daily', date: todayInCambodia(), rate_khr: 4100 });
    const paid = await made('/api/orders', sale({ payments: [{ method: 'cash_usd', amount: 100 }] }));
    return { url: '/api/tax-documents', body: { order_id: paid.id } };
  },
  'POST /api/tax-documents/:id/debit-notes': async () => {
    await made('/api/official-rates', { kind: 'nbc_daily', date: todayInCambodia(), rate_khr: 4100 });
    const paid = await made('/api/orders', sale({ payments: [{ method: 'cash_usd', amount: 100 }] }));
    const invoice = await made('/api/tax-documents', { order_id: paid.id });
    return {
      url: `/api/tax-documents/${invoice.id}/debit-notes`,
      body: {
        reason: 'Price correction',
        lines: [{ description: 'Water', quantity: 1, unit_price_cents: 10, tax_category: 'E' }],
      },
    };
  },
  'POST /api/purchases': async () => ({
    url: '/api/purchases',
    body: {
      supplier_id: ids.supplier,
      store_id: ids.store,
      purchase_date: todayInCambodia(),
      items: [{ product_id: ids.product, unit_id: ids.unit, quantity: 2, unit_price_cents: 50 }],
    },
  }),
  'POST /api/purchases/:id/receive': async () => {
    const { body } = await RECIPES['POST /api/purchases']();
    const purchase = await made('/api/purchases', body as object);
    return {
      url: `/api/purchases/${purchase.id}/receive`,
      body: { items: [{ item_id: purchase.items[0].id, quantity: 2 }] },
    };
  },
  'POST /api/purchases/:id/payments': async () => {
    const { body } = await RECIPES['POST /api/purchases']();
    const purchase = await made('/api/purchases', body as object);
    return {
      url: `/api/purchases/${purchase.id}/payments`,
      body: { amount_cents: 50, method: 'cash_usd', paid_at: todayInCambodia() },
    };
  },
  'POST /api/suppliers/:id/payments': async () => {
    const { body } = await RECIPES['POST /api/purchases']();
    await made('/api/purchases', body as object);
    return {
      url: `/api/suppliers/${ids.supplier}/payments`,
      body: { amount_cents: 50, method: 'cash_usd', paid_at: todayInCambodia() },
    };
  },
  'POST /api/stocks/adjustments': async () => ({
    url: '/api/stocks/adjustments',
    body: { store_id: ids.store, reason: 'damage', items: [{ product_id: ids.product, quantity: 1 }] },
  }),
  'POST /api/stocks/write-offs': async () => {
    const expired = await made('/api/purchases', {
      supplier_id: ids.supplier,
      store_id: ids.store,
      purchase_date: '2020-01-01',
      items: [
        { product_id: ids.product, unit_id: ids.unit, quantity: 1, unit_price_cents: 50, expiry_date: '2020-02-01' },
      ],
    });
    await send('POST', `/api/purchases/${expired.id}/receive`, {
      items: [{ item_id: expired.items[0].id, quantity: 1 }],
    });
    const batch = await ctx.db
      .selectFrom('stock_batches')
      .select('id')
      .where('expiry_date', '=', '2020-02-01')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    return { url: '/api/stocks/write-offs', body: { store_id: ids.store, batch_id: batch.id } };
  },
  'POST /api/shifts': async () => {
    await closeShifts();
    return { url: '/api/shifts', body: shiftBody() };
  },
  'POST /api/shifts/:id/movements': async () => {
    await closeShifts();
    const shift = await made('/api/shifts', shiftBody());
    return {
      url: `/api/shifts/${shift.id}/movements`,
      body: { kind: 'pay_in', currency: 'khr', amount: 10000, reason: 'Change from the bank' },
    };
  },
  'POST /api/shifts/:id/close': async () => {
    await closeShifts();
    const shift = await made('/api/shifts', shiftBody());
    return { url: `/api/shifts/${shift.id}/close`, body: { counted: { usd: [{ value: 500, count: 1 }], khr: [] } } };
  },
  'POST /api/stock-transfers/:id/send': async () => {
    const transfer = await made('/api/stock-transfers', {
      from_store_id: ids.store,
      to_store_id: ids.other,
      items: [{ product_id: ids.product, unit_id: ids.unit, quantity: 1 }],
    });
    return { url: `/api/stock-transfers/${transfer.id}/send` };
  },
  'POST /api/stock-transfers/:id/receive': async () => {
    const { url } = await RECIPES['POST /api/stock-transfers/:id/send']();
    await send('POST', url);
    return { url: url.replace(/send$/, 'receive') };
  },
  'POST /api/stock-transfers/:id/cancel': async () => {
    const { url } = await RECIPES['POST /api/stock-transfers/:id/send']();
    return { url: url.replace(/send$/, 'cancel') };
  },
  'POST /api/stock-counts': async () => ({ url: '/api/stock-counts', body: { store_id: ids.store, zone: 'Keys' } }),
  'POST /api/stock-counts/:id/scans': async () => {
    const count = await made('/api/stock-counts', { store_id: ids.store });
    // three more than the store holds: an approval finds three (and the sales after it have stock)
    const held = await ctx.db
      .selectFrom('stock_levels')
      .select((eb) => eb.fn.sum<number>('quantity').as('n'))
      .where('store_id', '=', ids.store)
      .where('product_id', '=', ids.product)
      .executeTakeFirstOrThrow();
    return { url: `/api/stock-counts/${count.id}/scans`, body: { code: 'KEY-1', quantity: Number(held.n) + 3 } };
  },
  'POST /api/stock-counts/:id/submit': async () => {
    const { url, body } = await RECIPES['POST /api/stock-counts/:id/scans']();
    await send('POST', url, body);
    return { url: url.replace(/scans$/, 'submit') };
  },
  'POST /api/stock-counts/:id/reopen': async () => {
    const { url } = await RECIPES['POST /api/stock-counts/:id/submit']();
    await send('POST', url);
    return { url: url.replace(/submit$/, 'reopen') };
  },
  'POST /api/stock-counts/:id/approve': async () => {
    const { url } = await RECIPES['POST /api/stock-counts/:id/submit']();
    await send('POST', url);
    return { url: url.replace(/submit$/, 'approve') };
  },
  'POST /api/stock-counts/:id/cancel': async () => {
    const count = await made('/api/stock-counts', { store_id: ids.store });
    return { url: `/api/stock-counts/${count.id}/cancel` };
  },
};

const keyRow = (key: string) =>
  ctx.db
    .selectFrom('idempotency_keys')
    .select(['result', 'status_code', 'response'])
    .where('key', '=', key)
    .executeTakeFirst();

describe('idempotency keys', () => {
  it('knows a recipe for every idempotent route', () => {
    expect([...ctx.app.idempotentRoutes].sort()).toEqual(Object.keys(RECIPES).sort());
  });

  it('has every idempotent route claim its key in the transaction of its work', { timeout: 60_000 }, async () => {
    for (const route of ctx.app.idempotentRoutes) {
      const [method] = route.split(' ');
      const { url, body } = await RECIPES[route]();
      const key = randomUUID();
      const first = await send(method, url, body, key);
      expect(first.status, `${route}: ${JSON.stringify(first.body)}`).toBeLessThan(300);
      // the claim committed with the work: its result, then the answer sent
      const row = await keyRow(key);
      expect(row?.result, route).toEqual(expect.any(String));
      expect(row?.status_code, route).toBe(first.status);
      const again = await send(method, url, body, key);
      expect(again.headers['idempotent-replayed'], route).toBe('true');
      expect(again.body, route).toEqual(first.body);
    }
  });

  it('rebuilds a lost answer from the committed result (a crash between the commit and the answer)', async () => {
    const key = randomUUID();
    const first = await send('POST', '/api/orders', sale({ note: 'lost answer' }), key);
    expect(first.status).toBe(201);
    await ctx.db
      .updateTable('idempotency_keys')
      .set({ status_code: null, response: null })
      .where('key', '=', key)
      .execute();
    const rebuilt = await send('POST', '/api/orders', sale({ note: 'lost answer' }), key);
    expect(rebuilt.status).toBe(201);
    expect(rebuilt.headers['idempotent-replayed']).toBe('true');
    expect(rebuilt.body).toEqual(first.body);
    const orders = await ctx.db.selectFrom('orders').select('id').where('note', '=', 'lost answer').execute();
    expect(orders).toHaveLength(1);
    // and it is stored again
    expect((await keyRow(key))?.status_code).toBe(201);
  });

  it('sells once when the same keyed sale arrives twice at once; another body with the key is 422', async () => {
    const key = randomUUID();
    const body = sale({ note: 'twice at once' });
    const [a, b] = await Promise.all([send('POST', '/api/orders', body, key), send('POST', '/api/orders', body, key)]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.data.id).toBe(b.body.data.id);
    expect(await ctx.db.selectFrom('orders').select('id').where('note', '=', 'twice at once').execute()).toHaveLength(
      1,
    );
    const other = await send('POST', '/api/orders', sale({ note: 'another' }), key);
    expect(other).toMatchObject({ status: 422, body: { code: 'idempotency_mismatch' } });
  });

  it('keeps no claim of a refused write: the retry does the work once it can', async () => {
    const key = randomUUID();
    const body = sale({ items: [{ product_id: ids.product, quantity: 5000 }] });
    const refused = await send('POST', '/api/orders', body, key);
    expect(refused.status).toBe(409);
    expect(await keyRow(key)).toBeUndefined();
    await made('/api/stocks/adjustments', {
      store_id: ids.store,
      reason: 'found',
      items: [{ product_id: ids.product, quantity: 5000 }],
    });
    expect((await send('POST', '/api/orders', body, key)).status).toBe(201);
  });
});
