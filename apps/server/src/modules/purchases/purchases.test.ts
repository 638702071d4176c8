import { receiptValueCents, todayInCambodia } from '@depot/contracts';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { purchasesSuite } from './purchases.suite.ts';

/** Ordering and receiving goods, and what a receipt is worth (purchases.suite.ts sets up). */
const { ctx, ids, en, send, order, create, receive, stockOf, receipts } = purchasesSuite();

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
