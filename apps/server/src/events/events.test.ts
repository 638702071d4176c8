import { appEvent } from '@depot/contracts';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, bearer, login, useTestApp } from '../test/harness.ts';
import { eventBus } from './bus.ts';
import type { DomainEvent } from './events.ts';

const ctx = useTestApp();
const ids: Record<string, number> = {};
let admin: Record<string, string>;
let heard: DomainEvent[] = [];
let stop = () => {};

async function send(method: string, url: string, payload?: object) {
  const res = await ctx.app.inject({ method: method as 'POST', url, headers: admin, payload });
  return { status: res.statusCode, body: res.json() };
}

beforeAll(async () => {
  admin = bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token);
  ids.store = (await ctx.db.selectFrom('stores').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
  ids.walkIn = (
    await ctx.db.selectFrom('customers').select('id').where('is_walk_in', '=', 1).executeTakeFirstOrThrow()
  ).id;
  const category = (await send('POST', '/api/categories', { name_en: 'Events', name_kh: 'ព្រឹត្តិការណ៍' })).body.data.id;
  ids.unit = (await send('POST', '/api/units', { name_en: 'Piece', name_kh: 'ដុំ', short_name: 'pc' })).body.data.id;
  for (const sku of ['EV-1', 'EV-2']) {
    const product = await send('POST', '/api/products', {
      name_en: `Event ${sku}`,
      name_kh: `ព្រឹត្តិការណ៍ ${sku}`,
      sku,
      category_id: category,
      unit_id: ids.unit,
      price_usd_cents: 100,
      taxable: false,
    });
    ids[sku] = product.body.data.id;
  }
  stop = eventBus(ctx.db).subscribe((event) => {
    heard.push(event);
  });
});

afterEach(() => {
  heard = [];
});

describe('domain events', () => {
  it('announce a write once it has committed: one StockChanged per store, naming every product', async () => {
    await send('POST', '/api/stocks/adjustments', {
      store_id: ids.store,
      reason: 'found',
      items: [
        { product_id: ids['EV-2'], quantity: 10 },
        { product_id: ids['EV-1'], quantity: 10 },
      ],
    });
    expect(heard).toEqual([
      { name: 'StockChanged', payload: { store_id: ids.store, product_ids: [ids['EV-1'], ids['EV-2']] } },
    ]);
    heard = [];
    const sold = await send('POST', '/api/orders', {
      customer_id: ids.walkIn,
      items: [
        { product_id: ids['EV-1'], quantity: 1 },
        { product_id: ids['EV-2'], quantity: 2 },
      ],
      payments: [{ method: 'cash_usd', amount: 300 }],
    });
    expect(heard).toEqual([
      { name: 'StockChanged', payload: { store_id: ids.store, product_ids: [ids['EV-1'], ids['EV-2']] } },
      {
        name: 'OrderCreated',
        payload: {
          id: sold.body.data.id,
          store_id: ids.store,
          status: 'confirmed',
          payment_status: 'paid',
          delivery_status: null,
        },
      },
    ]);
    heard = [];
    await send('POST', `/api/orders/${sold.body.data.id}/cancel`, {});
    expect(heard.map((e) => e.name)).toEqual(['StockChanged', 'OrderUpdated']);
    expect(heard[1].payload).toMatchObject({ status: 'cancelled' });
  });

  it('announce nothing when the write is refused and rolled back', async () => {
    const refused = await send('POST', '/api/orders', {
      customer_id: ids.walkIn,
      // the first line's stock is taken, then the second has too little: the whole sale rolls back
      items: [
        { product_id: ids['EV-1'], quantity: 1 },
        { product_id: ids['EV-2'], quantity: 10_000 },
      ],
    });
    expect(refused.status).toBe(409);
    expect(heard).toEqual([]);
  });

  it('announce transfers, receipts, rates and settings', async () => {
    const other = (await send('POST', '/api/stores', { name: 'Events depot', code: 'EVENTS' })).body.data.id;
    const transfer = await send('POST', '/api/stock-transfers', {
      from_store_id: ids.store,
      to_store_id: other,
      items: [{ product_id: ids['EV-1'], unit_id: ids.unit, quantity: 1 }],
    });
    const id = transfer.body.data.id;
    expect(heard).toEqual([]);
    await send('POST', `/api/stock-transfers/${id}/send`);
    await send('POST', `/api/stock-transfers/${id}/receive`);
    const stores = { id, from_store_id: ids.store, to_store_id: other };
    expect(heard).toEqual([
      { name: 'StockChanged', payload: { store_id: ids.store, product_ids: [ids['EV-1']] } },
      { name: 'TransferSent', payload: stores },
      { name: 'StockChanged', payload: { store_id: other, product_ids: [ids['EV-1']] } },
      { name: 'TransferReceived', payload: stores },
    ]);
    heard = [];
    const supplier = (await send('POST', '/api/suppliers', { name: 'Event supplier' })).body.data.id;
    const purchase = await send('POST', '/api/purchases', {
      supplier_id: supplier,
      store_id: ids.store,
      purchase_date: '2026-01-05',
      items: [{ product_id: ids['EV-2'], unit_id: ids.unit, quantity: 1, unit_price_cents: 10 }],
    });
    await send('POST', `/api/purchases/${purchase.body.data.id}/receive`, {
      items: [{ item_id: purchase.body.data.items[0].id, quantity: 1 }],
    });
    expect(heard.map((e) => e.name)).toEqual(['StockChanged', 'PurchaseReceived']);
    heard = [];
    await send('POST', '/api/exchange-rates', { rate_khr: 4050 });
    const sale = await send('GET', '/api/settings/sale');
    await send('PUT', '/api/settings/sale', sale.body.data);
    expect(heard).toEqual([
      { name: 'ExchangeRateChanged', payload: { rate_khr: 4050, rate_in_khr: null, rate_out_khr: null } },
      { name: 'SettingsChanged', payload: { keys: expect.arrayContaining(['vat_rate_bp']) } },
    ]);
  });

  it('are named as Laravel broadcasts them', () => {
    expect(appEvent('StockChanged')).toBe('App\\Events\\StockChanged');
    stop();
  });
});
