import { describe, expect, it } from 'vitest';
import { now } from '../../db/database.ts';
import { bearer, createUser, login } from '../../test/harness.ts';
import { purchasesSuite } from './purchases.suite.ts';

/** Paying, changing and cancelling purchases, their list, and who may do what (purchases.suite.ts sets up). */
const { ctx, ids, inKhmer, send, order, create, receive, pay } = purchasesSuite();

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
    const overKh = await pay(purchase.id, 1251, '2025-03-05', inKhmer());
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
    const kh = await send('POST', `/api/purchases/${purchase.id}/cancel`, undefined, inKhmer());
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
