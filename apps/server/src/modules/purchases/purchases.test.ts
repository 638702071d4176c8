import { type PurchaseInput, receiptValueCents, todayInCambodia } from '@depot/contracts';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { now } from '../../db/database.ts';
import { ADMIN_PASSWORD, bearer, createUser, login, useTestApp } from '../../test/harness.ts';

const ctx = useTestApp();
let token: string;
const ids = {} as Record<'piece' | 'carton' | 'kilo' | 'beer' | 'water' | 'rice' | 'supplier' | 'store', number>;

type Headers = Record<string, string>;
const en = (): Headers => ({ ...bearer(token), 'x-localization': 'en' });

async function send(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, headers: Headers = en()) {
  const res = await ctx.app.inject({ method, url, headers, payload });
  return { status: res.statusCode, body: res.json() };
}

beforeAll(async () => {
  token = (await login(ctx.app, 'admin', ADMIN_PASSWORD)).token;
  const category = (await send('POST', '/api/categories', { name_en: 'Drinks', name_kh: 'ភេសជ្ជៈ' })).body.data.id;
  const unit = async (body: object) => (await send('POST', '/api/units', body)).body.data.id as number;
  ids.piece = await unit({ name_en: 'Can', name_kh: 'កំប៉ុង', short_name: 'can' });
  ids.carton = await unit({
    name_en: 'Carton',
    name_kh: 'កេស',
    short_name: 'ctn',
    base_unit_id: ids.piece,
    factor: 24,
  });
  ids.kilo = await unit({ name_en: 'Kilogram', name_kh: 'គីឡូក្រាម', short_name: 'kg' });
  const product = async (name_en: string, name_kh: string, sku: string, unit_id: number) =>
    (
      await send('POST', '/api/products', {
        name_en,
        name_kh,
        sku,
        category_id: category,
        unit_id,
        price_usd_cents: 100,
      })
    ).body.data.id as number;
  ids.beer = await product('Angkor beer', 'ស្រាបៀរអង្គរ', 'ANG-330', ids.piece);
  ids.water = await product('Vital water', 'ទឹកវីតាល់', 'VIT-500', ids.piece);
  ids.rice = await product('Jasmine rice', 'អង្ករម្លិះ', 'RICE-1', ids.kilo);
  ids.supplier = (await send('POST', '/api/suppliers', { name: 'Cambrew Ltd' })).body.data.id;
  ids.store = (await ctx.db.selectFrom('stores').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
});

// whatever a test did, the ledger still adds up

function order(overrides: Partial<PurchaseInput> = {}): PurchaseInput {
  return {
    supplier_id: ids.supplier,
    store_id: ids.store,
    purchase_date: '2025-03-02',
    items: [{ product_id: ids.beer, unit_id: ids.carton, quantity: 100, unit_price_cents: 1000 }],
    ...overrides,
  };
}

async function create(overrides: Partial<PurchaseInput> = {}) {
  const res = await send('POST', '/api/purchases', order(overrides));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

const receive = (id: number, items: { item_id: number; quantity: number }[], headers?: Headers) =>
  send('POST', `/api/purchases/${id}/receive`, { items }, headers);
const pay = (id: number, amount_cents: number, paid_at = '2025-03-05', headers?: Headers) =>
  send('POST', `/api/purchases/${id}/payments`, { amount_cents, method: 'bank_transfer', paid_at }, headers);

/** Base units of a product in the store, from the stock levels. */
async function stockOf(productId: number): Promise<number> {
  const row = await ctx.db
    .selectFrom('stock_levels')
    .select(sql<number>`coalesce(sum(quantity), 0)`.as('n'))
    .where('product_id', '=', productId)
    .where('store_id', '=', ids.store)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The purchase receipts of a purchase's product, oldest first. */
async function receipts(purchaseId: number, productId: number) {
  const rows = await ctx.db
    .selectFrom('stock_movements')
    .innerJoin('stock_batches', 'stock_batches.id', 'stock_movements.batch_id')
    .select([
      'stock_movements.quantity',
      'stock_movements.value_cents',
      'stock_batches.lot',
      'stock_batches.expiry_date',
    ])
    .where('stock_movements.type', '=', 'purchase_receipt')
    .where('stock_movements.document_type', '=', 'purchase')
    .where('stock_movements.document_id', '=', purchaseId)
    .where('stock_movements.product_id', '=', productId)
    .orderBy('stock_movements.id')
    .execute();
  return rows.map((r) => ({ ...r, quantity: Number(r.quantity), value_cents: Number(r.value_cents) }));
}

describe('creating a purchase', () => {
  it('numbers it, spreads the shipping over the lines by value and keeps each line’s unit', async () => {
    const res = await send(
      'POST',
      '/api/purchases',
      order({
        notes: 'Weekly beer order',
        shipping_cents: 1000,
        tax_cents: 150,
        items: [
          // 2 cartons of 24 at $12.00: 2400; 10 cans at $0.60: 600
          { product_id: ids.beer, unit_id: ids.carton, quantity: 2, unit_price_cents: 1200, lot: 'L-7' },
          { product_id: ids.water, unit_id: ids.piece, quantity: 10, unit_price_cents: 60 },
        ],
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Purchase created.');
    const purchase = res.body.data;
    expect(purchase).toMatchObject({
      number: expect.stringMatching(new RegExp(`^PO-${todayInCambodia().slice(0, 4)}-\\d{6}$`)),
      supplier_name: 'Cambrew Ltd',
      store_name: 'Main store',
      purchase_date: '2025-03-02',
      notes: 'Weekly beer order',
      status: 'ordered',
      subtotal_cents: 3000,
      shipping_cents: 1000,
      tax_cents: 150,
      grand_total_cents: 4150,
      paid_cents: 0,
      due_cents: 4150,
      payment_status: 'unpaid',
      items_count: 2,
      created_by_name: 'Administrator',
      received_at: null,
      cancelled_at: null,
      payments: [],
    });
    expect(purchase.items).toEqual([
      expect.objectContaining({
        product_name_en: 'Angkor beer',
        product_name_kh: 'ស្រាបៀរអង្គរ',
        unit_name_en: 'Carton',
        unit_name_kh: 'កេស',
        factor: 24,
        quantity: 2,
        received_quantity: 0,
        line_total_cents: 2400,
        shipping_share_cents: 800,
        lot: 'L-7',
        expiry_date: null,
      }),
      expect.objectContaining({
        product_name_en: 'Vital water',
        unit_name_en: 'Can',
        factor: 1,
        line_total_cents: 600,
        shipping_share_cents: 200,
      }),
    ]);

    const shown = await send('GET', `/api/purchases/${purchase.id}`);
    expect(shown.status).toBe(200);
    expect(shown.body.data).toEqual(purchase);
  });

  it('gives an uneven shipping split to the lines so that it adds up to the shipping exactly', async () => {
    const line = { product_id: ids.water, unit_id: ids.piece, quantity: 1, unit_price_cents: 500 };
    const purchase = await create({ shipping_cents: 100, items: [line, line, line] });
    const shares = purchase.items.map((i: { shipping_share_cents: number }) => i.shipping_share_cents);
    expect(shares).toEqual([34, 33, 33]);
    expect(shares.reduce((a: number, b: number) => a + b, 0)).toBe(100);
    expect(purchase.grand_total_cents).toBe(1600);
  });

  it('keeps a draft when not ordered yet, and orders it later', async () => {
    const first = await create({ ordered: false });
    const second = await create();
    expect(first.status).toBe('draft');
    expect(Number(second.number.slice(-6))).toBe(Number(first.number.slice(-6)) + 1);

    const ordered = await send('POST', `/api/purchases/${first.id}/order`);
    expect(ordered.status).toBe(200);
    expect(ordered.body).toMatchObject({ message: 'Purchase ordered.', data: { status: 'ordered' } });
    const again = await send('POST', `/api/purchases/${first.id}/order`);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(`Purchase ${first.number} is ordered: it cannot be ordered.`);
  });

  it('never gives two purchases created at once the same number', async () => {
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        ctx.app.inject({ method: 'POST', url: '/api/purchases', headers: en(), payload: order() }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(6).fill(201));
    const numbers = results.map((r) => r.json().data.number);
    expect(new Set(numbers).size).toBe(6);
  });

  it('refuses a unit that is not the product’s, a missing product, an inactive store, and names each line', async () => {
    const res = await send(
      'POST',
      '/api/purchases',
      order({
        items: [
          { product_id: ids.beer, unit_id: ids.carton, quantity: 1, unit_price_cents: 1 },
          { product_id: ids.rice, unit_id: ids.carton, quantity: 1, unit_price_cents: 1 },
          { product_id: ids.beer, unit_id: ids.kilo, quantity: 1, unit_price_cents: 1 },
          { product_id: 999_999, unit_id: ids.piece, quantity: 1, unit_price_cents: 1 },
        ],
      }),
    );
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      'items.1.unit_id': ['Choose the product’s own unit or one made of it.'],
      'items.2.unit_id': ['Choose the product’s own unit or one made of it.'],
      'items.3.product_id': ['The selected record does not exist.'],
    });

    const closed = (await send('POST', '/api/stores', { name: 'Closed depot', code: 'CLOSED', status: 'inactive' }))
      .body.data.id;
    const inactive = await send('POST', '/api/purchases', order({ store_id: closed, supplier_id: 999_999 }));
    expect(inactive.status).toBe(422);
    expect(inactive.body.errors).toEqual({
      store_id: ['This store is not active.'],
      supplier_id: ['The selected record does not exist.'],
    });

    const huge = await send(
      'POST',
      '/api/purchases',
      order({ items: [{ product_id: ids.beer, unit_id: ids.carton, quantity: 50_000_000, unit_price_cents: 1 }] }),
    );
    expect(huge.status).toBe(422);
    expect(huge.body.errors).toEqual({ 'items.0.quantity': ['Must be at most 41666666.'] });
  });
});

describe('receiving', () => {
  it('takes 60 cartons of 100 then the 40 left into stock, at the landed cost to the cent', async () => {
    const before = await stockOf(ids.beer);
    const purchase = await create({
      shipping_cents: 1001,
      tax_cents: 777,
      items: [
        {
          product_id: ids.beer,
          unit_id: ids.carton,
          quantity: 100,
          unit_price_cents: 1000,
          lot: 'B-26',
          expiry_date: '2027-01-31',
        },
        { product_id: ids.water, unit_id: ids.piece, quantity: 7, unit_price_cents: 333 },
      ],
    });
    const [beer, water] = purchase.items;
    const landed = beer.line_total_cents + beer.shipping_share_cents;
    expect(beer.line_total_cents + water.line_total_cents).toBe(102_331);
    expect(beer.shipping_share_cents + water.shipping_share_cents).toBe(1001);

    const first = await receive(purchase.id, [{ item_id: beer.id, quantity: 60 }]);
    expect(first.status).toBe(200);
    expect(first.body.message).toBe('Goods received into stock.');
    expect(first.body.data).toMatchObject({ status: 'partially_received', received_at: null });
    expect(first.body.data.items[0]).toMatchObject({ received_quantity: 60 });
    expect(await stockOf(ids.beer)).toBe(before + 60 * 24);
    expect(await receipts(purchase.id, ids.beer)).toEqual([
      { quantity: 1440, value_cents: Math.round((landed * 60) / 100), lot: 'B-26', expiry_date: '2027-01-31' },
    ]);

    const last = await receive(purchase.id, [
      { item_id: beer.id, quantity: 40 },
      { item_id: water.id, quantity: 7 },
    ]);
    expect(last.status).toBe(200);
    expect(last.body.data).toMatchObject({ status: 'received', received_at: expect.any(String) });
    expect(await stockOf(ids.beer)).toBe(before + 100 * 24);
    const beerReceipts = await receipts(purchase.id, ids.beer);
    expect(beerReceipts.map((r) => r.quantity)).toEqual([1440, 960]);
    // tax is not stock value: the line total and its shipping share, nothing more, nothing less
    expect(beerReceipts.reduce((sum, r) => sum + r.value_cents, 0)).toBe(landed);
    expect(last.body.data.items[0].received_value_cents).toBe(landed);
    const waterReceipts = await receipts(purchase.id, ids.water);
    expect(waterReceipts).toEqual([
      { quantity: 7, value_cents: water.line_total_cents + water.shipping_share_cents, lot: null, expiry_date: null },
    ]);

    // received in full: nothing more to receive, nothing to change, nothing to cancel
    const more = await receive(purchase.id, [{ item_id: water.id, quantity: 1 }]);
    expect(more.status).toBe(409);
    expect(more.body.message).toBe(`Purchase ${purchase.number} is received: it cannot be received.`);
    const changed = await send('PUT', `/api/purchases/${purchase.id}`, order());
    expect(changed.status).toBe(409);
    expect(changed.body.message).toBe(`Purchase ${purchase.number} is received: it cannot be changed.`);
  });

  it('counts what a supplier delivered, in base units, on the supplier', async () => {
    const supplier = (await send('POST', '/api/suppliers', { name: 'Dragon Water Co' })).body.data.id;
    const purchase = await create({
      supplier_id: supplier,
      items: [
        { product_id: ids.water, unit_id: ids.carton, quantity: 3, unit_price_cents: 500 },
        { product_id: ids.water, unit_id: ids.piece, quantity: 5, unit_price_cents: 25 },
      ],
    });
    expect((await send('GET', `/api/suppliers/${supplier}`)).body.data.total_items).toBe(0);
    await receive(purchase.id, [
      { item_id: purchase.items[0].id, quantity: 2 },
      { item_id: purchase.items[1].id, quantity: 5 },
    ]);
    expect((await send('GET', `/api/suppliers/${supplier}`)).body.data.total_items).toBe(2 * 24 + 5);
    // the last carton arrived on the 4th of March: received that day, Cambodian time
    const last = await send('POST', `/api/purchases/${purchase.id}/receive`, {
      received_at: '2025-03-04',
      items: [{ item_id: purchase.items[0].id, quantity: 1 }],
    });
    expect(last.body.data).toMatchObject({ status: 'received', received_at: '2025-03-03T17:00:00.000Z' });
    expect((await send('GET', `/api/suppliers/${supplier}`)).body.data.total_items).toBe(3 * 24 + 5);
    const history = await send('GET', `/api/purchases?filter[supplier_id]=${supplier}`);
    expect(history.body.data.map((p: { id: number }) => p.id)).toEqual([purchase.id]);
  });

  it('refuses more than is due, or a line of another purchase, and writes nothing', async () => {
    const purchase = await create({
      items: [{ product_id: ids.water, unit_id: ids.piece, quantity: 10, unit_price_cents: 50 }],
    });
    const other = await create();
    const movementsBefore = await ctx.db
      .selectFrom('stock_movements')
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirstOrThrow();
    const stockBefore = await stockOf(ids.water);

    const over = await receive(purchase.id, [{ item_id: purchase.items[0].id, quantity: 11 }]);
    expect(over.status).toBe(422);
    expect(over.body.errors).toEqual({ 'items.0.quantity': ['More than is still due on this line (10).'] });
    const twice = await receive(purchase.id, [
      { item_id: purchase.items[0].id, quantity: 6 },
      { item_id: purchase.items[0].id, quantity: 6 },
    ]);
    expect(twice.body.errors).toEqual({ 'items.1.quantity': ['More than is still due on this line (4).'] });
    const foreign = await receive(purchase.id, [
      { item_id: purchase.items[0].id, quantity: 1 },
      { item_id: other.items[0].id, quantity: 1 },
    ]);
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors).toEqual({ 'items.1.item_id': ['This line is not on this purchase.'] });

    const movementsAfter = await ctx.db
      .selectFrom('stock_movements')
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(movementsAfter.n)).toBe(Number(movementsBefore.n));
    expect(await stockOf(ids.water)).toBe(stockBefore);
    const shown = (await send('GET', `/api/purchases/${purchase.id}`)).body.data;
    expect(shown).toMatchObject({ status: 'ordered', updated_at: purchase.updated_at });
    expect(shown.items[0].received_quantity).toBe(0);

    const future = await send('POST', `/api/purchases/${purchase.id}/receive`, {
      received_at: '2999-01-01',
      items: [{ item_id: purchase.items[0].id, quantity: 1 }],
    });
    expect(future.body.errors).toEqual({ received_at: ['The date cannot be in the future.'] });
  });

  it('receives nothing into a draft', async () => {
    const draft = await create({ ordered: false });
    const res = await receive(draft.id, [{ item_id: draft.items[0].id, quantity: 1 }]);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(`Purchase ${draft.number} is a draft: it cannot be received.`);
  });

  it('lets exactly 5 of 10 receipts of 10 at once through a line of 50', async () => {
    const purchase = await create({
      items: [
        { product_id: ids.beer, unit_id: ids.carton, quantity: 50, unit_price_cents: 999 },
        // a second line keeps the purchase open: the refusals are the line's, not the purchase's
        { product_id: ids.water, unit_id: ids.piece, quantity: 1, unit_price_cents: 999 },
      ],
      shipping_cents: 333,
    });
    const item = purchase.items[0];
    const before = await stockOf(ids.beer);
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        ctx.app.inject({
          method: 'POST',
          url: `/api/purchases/${purchase.id}/receive`,
          headers: en(),
          payload: { items: [{ item_id: item.id, quantity: 10 }] },
        }),
      ),
    );
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 422, 422, 422, 422, 422]);
    const refusal = results.find((r) => r.statusCode === 422)?.json();
    expect(refusal.errors).toEqual({ 'items.0.quantity': ['More than is still due on this line (0).'] });
    const line = await ctx.db
      .selectFrom('purchase_items')
      .select(['received_quantity', 'received_value_cents'])
      .where('id', '=', item.id)
      .executeTakeFirstOrThrow();
    expect(line.received_quantity).toBe(50);
    expect(Number(line.received_value_cents)).toBe(item.line_total_cents + item.shipping_share_cents);
    expect(await stockOf(ids.beer)).toBe(before + 50 * 24);
    expect((await send('GET', `/api/purchases/${purchase.id}`)).body.data.status).toBe('partially_received');
  });

  it('replays a retried receipt with the same Idempotency-Key instead of receiving twice', async () => {
    const purchase = await create({
      items: [{ product_id: ids.water, unit_id: ids.piece, quantity: 10, unit_price_cents: 50 }],
    });
    const before = await stockOf(ids.water);
    const headers = { ...en(), 'idempotency-key': `receive-${purchase.id}-once` };
    const body = { items: [{ item_id: purchase.items[0].id, quantity: 4 }] };
    const first = await receive(purchase.id, body.items, headers);
    const retry = await receive(purchase.id, body.items, headers);
    expect(first.status).toBe(200);
    expect(retry).toEqual(first);
    expect(await stockOf(ids.water)).toBe(before + 4);
  });
});

describe('receipt values', () => {
  it('are never negative however a line is split, and add up to the landed cost', () => {
    // 6 units worth 3 cents: each unit is half a cent, which a receipt by itself would round up
    const line = {
      quantity: 6,
      received_quantity: 0,
      line_total_cents: 3,
      shipping_share_cents: 0,
      received_value_cents: 0,
    };
    const values: number[] = [];
    for (let i = 0; i < 6; i++) {
      const value = receiptValueCents(line, 1);
      values.push(value);
      line.received_quantity += 1;
      line.received_value_cents += value;
    }
    expect(values.every((v) => v >= 0)).toBe(true);
    expect(values.reduce((a, b) => a + b, 0)).toBe(3);
  });
});

describe('payments', () => {
  it('pays half, then the rest, refuses more than is due, and lists the newest first', async () => {
    const purchase = await create({
      items: [{ product_id: ids.water, unit_id: ids.piece, quantity: 10, unit_price_cents: 250 }],
    });
    expect(purchase.grand_total_cents).toBe(2500);

    const half = await pay(purchase.id, 1250, '2025-03-03');
    expect(half.status).toBe(201);
    expect(half.body.message).toBe('Payment recorded.');
    expect(half.body.data).toMatchObject({ paid_cents: 1250, due_cents: 1250, payment_status: 'partially_paid' });

    const over = await pay(purchase.id, 1251);
    expect(over.status).toBe(422);
    expect(over.body.errors).toEqual({ amount_cents: ['More than is still due ($12.50).'] });
    const overKh = await pay(purchase.id, 1251, '2025-03-05', { ...bearer(token), 'x-localization': 'kh' });
    expect(overKh.body.message).toBe('ទិន្នន័យដែលបានផ្ដល់មិនត្រឹមត្រូវ។');
    expect(overKh.body.errors).toEqual({ amount_cents: ['លើសពីចំនួនដែលនៅជំពាក់ ($12.50)។'] });

    const rest = await pay(purchase.id, 1250, '2025-03-04');
    expect(rest.status).toBe(201);
    expect(rest.body.data).toMatchObject({ paid_cents: 2500, due_cents: 0, payment_status: 'paid' });
    expect(rest.body.data.payments.map((p: { paid_at: string }) => p.paid_at)).toEqual(['2025-03-04', '2025-03-03']);
    expect(rest.body.data.payments[0]).toMatchObject({
      amount_cents: 1250,
      method: 'bank_transfer',
      created_by_name: 'Administrator',
    });
    expect((await pay(purchase.id, 1)).body.errors).toEqual({ amount_cents: ['More than is still due ($0.00).'] });

    // paid: it cannot be cancelled, nor brought under what was paid
    const cancel = await send('POST', `/api/purchases/${purchase.id}/cancel`);
    expect(cancel.status).toBe(409);
    expect(cancel.body.message).toBe(`Purchase ${purchase.number} has payments recorded: it cannot be cancelled.`);
    const cheaper = await send(
      'PUT',
      `/api/purchases/${purchase.id}`,
      order({ items: [{ product_id: ids.water, unit_id: ids.piece, quantity: 1, unit_price_cents: 250 }] }),
    );
    expect(cheaper.status).toBe(422);
    expect(cheaper.body.errors).toEqual({
      items: ['The new total ($2.50) is less than what has already been paid ($25.00).'],
    });
  });
});

describe('changing and cancelling', () => {
  it('replaces the lines of a fresh order, and refuses once goods arrived', async () => {
    const purchase = await create();
    const changed = await send(
      'PUT',
      `/api/purchases/${purchase.id}`,
      order({
        shipping_cents: 200,
        items: [
          { product_id: ids.water, unit_id: ids.carton, quantity: 3, unit_price_cents: 400 },
          { product_id: ids.beer, unit_id: ids.piece, quantity: 4, unit_price_cents: 100 },
        ],
      }),
    );
    expect(changed.status).toBe(200);
    expect(changed.body.message).toBe('Purchase updated.');
    expect(changed.body.data).toMatchObject({
      number: purchase.number,
      items_count: 2,
      subtotal_cents: 1600,
      grand_total_cents: 1800,
      due_cents: 1800,
    });
    expect(changed.body.data.items.map((i: { shipping_share_cents: number }) => i.shipping_share_cents)).toEqual([
      150, 50,
    ]);

    await receive(purchase.id, [{ item_id: changed.body.data.items[0].id, quantity: 1 }]);
    const refused = await send('PUT', `/api/purchases/${purchase.id}`, order());
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(`Purchase ${purchase.number} is partly received: it cannot be changed.`);
    const cancel = await send('POST', `/api/purchases/${purchase.id}/cancel`);
    expect(cancel.status).toBe(409);
    expect(cancel.body.message).toBe(`Purchase ${purchase.number} is partly received: it cannot be cancelled.`);
    const kh = await send('POST', `/api/purchases/${purchase.id}/cancel`, undefined, {
      ...bearer(token),
      'x-localization': 'kh',
    });
    expect(kh.body.message).toBe(`ការទិញ ${purchase.number} ស្ថិតក្នុងស្ថានភាព បានទទួលខ្លះ៖ មិនអាចបោះបង់បានទេ។`);
  });

  it('cancels a fresh order, which then takes no goods and no money', async () => {
    const purchase = await create();
    const res = await send('POST', `/api/purchases/${purchase.id}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      message: 'Purchase cancelled.',
      data: { status: 'cancelled', cancelled_at: expect.any(String) },
    });
    expect((await receive(purchase.id, [{ item_id: purchase.items[0].id, quantity: 1 }])).status).toBe(409);
    const paid = await pay(purchase.id, 100);
    expect(paid.status).toBe(409);
    expect(paid.body.message).toBe(`Purchase ${purchase.number} is cancelled: it cannot be paid.`);
    expect((await send('POST', `/api/purchases/${purchase.id}/cancel`)).status).toBe(409);
  });

  it('answers 404 for a purchase that does not exist', async () => {
    expect((await send('GET', '/api/purchases/999999')).status).toBe(404);
    expect((await send('POST', '/api/purchases/999999/cancel')).status).toBe(404);
  });
});

describe('the list', () => {
  it('searches by number, filters by status, payment, store, supplier and dates, and sorts', async () => {
    const supplier = (await send('POST', '/api/suppliers', { name: 'Kampot Pepper Farm' })).body.data.id;
    const line = { product_id: ids.water, unit_id: ids.piece, quantity: 1 };
    const a = await create({
      supplier_id: supplier,
      purchase_date: '2025-01-10',
      items: [{ ...line, unit_price_cents: 300 }],
    });
    const b = await create({
      supplier_id: supplier,
      purchase_date: '2025-02-10',
      notes: 'pepper for Tet',
      items: [{ ...line, unit_price_cents: 100 }],
    });
    const c = await create({
      supplier_id: supplier,
      purchase_date: '2025-03-10',
      ordered: false,
      items: [{ ...line, unit_price_cents: 200 }],
    });
    await pay(b.id, 100);

    const list = async (query: string) => {
      const res = await send('GET', `/api/purchases?filter[supplier_id]=${supplier}&${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    };
    const numbers = (body: { data: { number: string }[] }) => body.data.map((p) => p.number);
    const all = await list('');
    expect(numbers(all)).toEqual([c.number, b.number, a.number]);
    expect(all.meta).toMatchObject({ total: 3, current_page: 1 });
    expect(all.data[1]).toMatchObject({ supplier_name: 'Kampot Pepper Farm', store_name: 'Main store', due_cents: 0 });
    expect(numbers(await list('sort=grand_total'))).toEqual([b.number, c.number, a.number]);
    expect(numbers(await list('filter[status]=draft'))).toEqual([c.number]);
    expect(numbers(await list('filter[payment_status]=paid'))).toEqual([b.number]);
    expect(
      numbers(await list(`filter[store_id]=${ids.store}&filter[date_from]=2025-02-10&filter[date_to]=2025-03-09`)),
    ).toEqual([b.number]);
    expect(numbers(await list(`search=${a.number.slice(-6)}`))).toEqual([a.number]);
    expect(numbers(await list('search=pepper'))).toEqual([b.number]);
    expect((await send('GET', '/api/purchases?filter[status]=lost')).status).toBe(422);
  });
});

describe('access', () => {
  it('lets each step through only with its permission', async () => {
    const purchase = await create();
    // a purchase is its costs: reading one needs costs.view too
    const blind = await createUser(ctx.db, { permissions: ['purchases.list', 'purchases.view'] });
    const blindHeaders = bearer((await login(ctx.app, blind.name, blind.password)).token);
    expect((await send('GET', `/api/purchases/${purchase.id}`, undefined, blindHeaders)).status).toBe(403);
    expect((await send('GET', '/api/purchases', undefined, blindHeaders)).status).toBe(403);
    const reader = await createUser(ctx.db, { permissions: ['purchases.list', 'purchases.view', 'costs.view'] });
    const readerHeaders = {
      ...bearer((await login(ctx.app, reader.name, reader.password)).token),
      'x-localization': 'en',
    };
    const read = await send('GET', `/api/purchases/${purchase.id}`, undefined, readerHeaders);
    expect(read.status).toBe(200);
    expect(read.body.data.abilities).toEqual({
      update: false,
      order: false,
      receive: false,
      pay: false,
      cancel: false,
    });
    const refused = await send('POST', '/api/purchases', order(), readerHeaders);
    expect(refused.status).toBe(403);
    expect((await receive(purchase.id, [{ item_id: purchase.items[0].id, quantity: 1 }], readerHeaders)).status).toBe(
      403,
    );

    // a stock keeper receives goods but does not pay suppliers
    const keeper = await createUser(ctx.db, { roles: ['stock_keeper'] });
    const keeperHeaders = {
      ...bearer((await login(ctx.app, keeper.name, keeper.password)).token),
      'x-localization': 'en',
    };
    const received = await receive(purchase.id, [{ item_id: purchase.items[0].id, quantity: 1 }], keeperHeaders);
    expect(received.status).toBe(200);
    expect((await pay(purchase.id, 100, '2025-03-05', keeperHeaders)).status).toBe(403);
    expect((await send('POST', `/api/purchases/${purchase.id}/cancel`, undefined, keeperHeaders)).status).toBe(403);
    const movement = await ctx.db
      .selectFrom('stock_movements')
      .select(['user_id', 'created_at'])
      .where('document_type', '=', 'purchase')
      .where('document_id', '=', purchase.id)
      .executeTakeFirstOrThrow();
    expect(movement.user_id).toBe(keeper.id);
    expect(movement.created_at <= now()).toBe(true);
  });
});
