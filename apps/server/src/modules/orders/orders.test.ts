import { randomUUID } from 'node:crypto';
import { messages, todayInCambodia } from '@depot/contracts';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { indexRecords } from '../../kit/search.ts';
import { ADMIN_PASSWORD, bearer, createUser, login, TEST_DB, useTestApp } from '../../test/harness.ts';
import { auditLedger, issue, lockProducts, receive } from '../stock/ledger.ts';
import { invoices, orders } from './orders.resources.ts';

const ctx = useTestApp();
let headers: Record<string, string>;
const ids: Record<string, number> = {};

async function send(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, extra: Record<string, string> = {}) {
  const res = await ctx.app.inject({ method, url, headers: { ...headers, ...extra }, payload });
  return { status: res.statusCode, body: res.json(), headers: res.headers };
}

async function stockIn(productId: number, quantity: number, valueCents: number, storeId = ids.store) {
  await ctx.db.transaction().execute(async (trx) => {
    await lockProducts(trx, [productId]);
    await receive(trx, {
      storeId,
      productId,
      type: 'purchase_receipt',
      batch: { lot: null, expiryDate: null },
      quantity,
      valueCents,
      document: null,
      userId: null,
    });
  });
}

async function onHand(productId: number): Promise<number> {
  const res = await send('GET', `/api/stocks/levels?filter[store_id]=${ids.store}&per_page=100`);
  return res.body.data.find((l: { product_id: number }) => l.product_id === productId)?.quantity ?? 0;
}

const sale = (over: object = {}) => ({
  customer_id: ids.walkIn,
  items: [
    { product_id: ids.beer, unit_id: ids.can, quantity: 3 },
    { product_id: ids.rice, quantity: 1 },
  ],
  ...over,
});

beforeAll(async () => {
  headers = { ...bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token), 'x-localization': 'en' };
  const post = async (url: string, body: object) => {
    const res = await send('POST', url, body);
    if (res.status !== 201) throw new Error(`${url}: ${JSON.stringify(res.body)}`);
    return res.body.data.id as number;
  };
  const store = await ctx.db.selectFrom('stores').select(['id', 'code']).orderBy('id').executeTakeFirstOrThrow();
  ids.store = store.id;
  ids.walkIn = (
    await ctx.db.selectFrom('customers').select('id').where('is_walk_in', '=', 1).executeTakeFirstOrThrow()
  ).id;
  ids.drinks = await post('/api/categories', { name_en: 'Drinks', name_kh: 'ភេសជ្ជៈ' });
  ids.can = await post('/api/units', { name_en: 'Can', name_kh: 'កំប៉ុង', short_name: 'can' });
  ids.carton = await post('/api/units', {
    name_en: 'Carton',
    name_kh: 'កេស',
    short_name: 'ctn',
    base_unit_id: ids.can,
    factor: 24,
  });
  ids.bag = await post('/api/units', { name_en: 'Bag', name_kh: 'បាវ', short_name: 'bag' });
  ids.beer = await post('/api/products', {
    name_en: 'Angkor beer',
    name_kh: 'ស្រាបៀរអង្គរ',
    sku: 'BEER-1',
    category_id: ids.drinks,
    unit_id: ids.can,
    price_usd_cents: 125,
    taxable: true,
  });
  ids.rice = await post('/api/products', {
    name_en: 'Jasmine rice 5kg',
    name_kh: 'អង្ករម្លិះ ៥គក',
    sku: 'RICE-5',
    category_id: ids.drinks,
    unit_id: ids.bag,
    price_usd_cents: 1000,
    taxable: false,
  });
  await stockIn(ids.beer, 48, 2400);
  await stockIn(ids.rice, 10, 7000);
});

describe('a sale at the till', () => {
  it('sells, takes VAT on the taxable line, settles riel and dollars with change in both, and issues the invoice', async () => {
    // 3 × $1.25 = $3.75 + 10 % VAT = $4.13 (rounded half up), rice $10 without VAT: $14.13 = 57,900៛ at 4,100
    const res = await send(
      'POST',
      '/api/orders',
      sale({
        payments: [
          { method: 'cash_khr', amount: 20_000 },
          { method: 'cash_usd', amount: 1000 },
        ],
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Sale recorded.');
    const order = res.body.data;
    expect(order).toMatchObject({
      status: 'confirmed',
      payment_status: 'paid',
      subtotal_cents: 1375,
      tax_cents: 38,
      total_cents: 1413,
      total_khr: 57_900,
      exchange_rate_khr: 4100,
      paid_cents: 1413,
      due_cents: 0,
      customer_name: expect.any(String),
      cashier_name: 'Administrator',
    });
    // 20,000៛ + $10 = 61,000៛ against 57,933៛: 3,067៛ back → 3,100៛
    expect(order.change_khr).toBe(3100);
    expect(order.invoice).toMatchObject({
      number: expect.stringMatching(/^INV-[A-Z0-9-]+-\d{4}-000001$/),
      total_cents: 1413,
    });
    expect(order.items.map((i: { sku: string; tax_cents: number }) => [i.sku, i.tax_cents])).toEqual([
      ['BEER-1', 38],
      ['RICE-5', 0],
    ]);
    expect(
      order.payments.map((p: { method: string; amount: number; amount_cents: number }) => [
        p.method,
        p.amount,
        p.amount_cents,
      ]),
    ).toEqual([
      ['cash_khr', 20_000, 487],
      ['cash_usd', 1000, 1000],
    ]);
    expect(await onHand(ids.beer)).toBe(45);
    const moves = await send(
      'GET',
      `/api/stocks/movements?filter[document_type]=order&filter[document_id]=${order.id}`,
    );
    expect(moves.body.data.map((m: { type: string; quantity: number }) => [m.type, m.quantity]).sort()).toEqual([
      ['sale', -1],
      ['sale', -3],
    ]);
    const invoices = await send('GET', '/api/invoices');
    // two lines (3 cans and a bag of rice): the invoices list counts lines, as purchases do
    expect(invoices.body.data[0]).toMatchObject({ order_number: order.number, total_cents: 1413, items_count: 2 });
    expect(order.items_count).toBe(2);
  });

  it('sells cartons from pieces, and refuses more than the store holds, naming the product and selling nothing', async () => {
    const before = await onHand(ids.beer);
    const orders = (await send('GET', '/api/orders')).body.meta.total;
    const res = await send(
      'POST',
      '/api/orders',
      sale({ items: [{ product_id: ids.beer, unit_id: ids.carton, quantity: 2 }] }),
    );
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Not enough stock for the product “Angkor beer”.');
    const kh = await send(
      'POST',
      '/api/orders',
      sale({ items: [{ product_id: ids.beer, unit_id: ids.carton, quantity: 2 }] }),
      { 'x-localization': 'kh' },
    );
    expect(kh.body.message).toBe('មិនមានស្តុកគ្រប់គ្រាន់សម្រាប់ផលិតផល «ស្រាបៀរអង្គរ» ទេ។');
    expect(await onHand(ids.beer)).toBe(before);
    expect((await send('GET', '/api/orders')).body.meta.total).toBe(orders);
    const carton = await send(
      'POST',
      '/api/orders',
      sale({ items: [{ product_id: ids.beer, unit_id: ids.carton, quantity: 1 }] }),
    );
    expect(carton.body.data.items[0]).toMatchObject({ unit_price_cents: 3000, factor: 24, quantity: 1 });
    expect(await onHand(ids.beer)).toBe(before - 24);
    expect(carton.body.data.payment_status).toBe('unpaid');
  });

  it('asks for a customer and at least one product (the spec’s rule), and a unit of the product', async () => {
    const res = await send('POST', '/api/orders', { items: [] });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ customer_id: ['This field is required!'], items: ['Choose at least 1.'] });
    const unit = await send(
      'POST',
      '/api/orders',
      sale({ items: [{ product_id: ids.rice, unit_id: ids.can, quantity: 1 }] }),
    );
    expect(unit.body.errors).toEqual({ 'items.0.unit_id': ['Choose the product’s own unit or one made of it.'] });
  });

  it('takes part now and the rest later; refuses card payments over what is due', async () => {
    const made = await send('POST', '/api/orders', sale({ payments: [{ method: 'cash_usd', amount: 500 }] }));
    expect(made.body.data).toMatchObject({
      payment_status: 'partially_paid',
      paid_cents: 500,
      due_cents: 913,
      invoice: null,
    });
    const card = await send('POST', `/api/orders/${made.body.data.id}/payments`, {
      payments: [{ method: 'card', amount: 1000, transaction_id: 'SLIP-1' }],
    });
    expect(card.status).toBe(422);
    expect(card.body.errors).toEqual({
      payments: ['Card, transfer and KHQR payments cannot be more than what is due ($9.13).'],
    });
    const rest = await send('POST', `/api/orders/${made.body.data.id}/payments`, {
      payments: [{ method: 'khqr', amount: 913, transaction_id: 'KHQR-77' }],
    });
    expect(rest.body.data).toMatchObject({
      payment_status: 'paid',
      due_cents: 0,
      invoice: { number: expect.any(String) },
    });
    const again = await send('POST', `/api/orders/${made.body.data.id}/payments`, {
      payments: [{ method: 'cash_usd', amount: 100 }],
    });
    expect(again.body.errors).toEqual({ payments: ['Nothing is left to pay on this order.'] });
  });

  it('holds a cart without touching stock, then checks it out', async () => {
    const before = await onHand(ids.rice);
    const held = await send(
      'POST',
      '/api/orders',
      sale({ hold: true, items: [{ product_id: ids.rice, quantity: 2 }] }),
    );
    expect(held.body).toMatchObject({
      message: 'Order held: resume it from the order list.',
      data: { status: 'held', payment_status: 'onhold' },
    });
    expect(await onHand(ids.rice)).toBe(before);
    const checkout = await send(
      'PUT',
      `/api/orders/${held.body.data.id}`,
      sale({ items: [{ product_id: ids.rice, quantity: 3 }], payments: [{ method: 'cash_usd', amount: 3000 }] }),
    );
    expect(checkout.body.data).toMatchObject({
      status: 'confirmed',
      payment_status: 'paid',
      total_cents: 3000,
      number: held.body.data.number,
    });
    expect(await onHand(ids.rice)).toBe(before - 3);
    const twice = await send('PUT', `/api/orders/${held.body.data.id}`, sale());
    expect(twice.status).toBe(409);
  });
});

describe('combos and discounts', () => {
  it('sells a combo by taking its products’ stock, and applies today’s discounts where they apply', async () => {
    const combo = await send('POST', '/api/combos', {
      name_en: 'Party pack',
      name_kh: 'ឈុតជប់លៀង',
      sku: 'PARTY-1',
      selling_price_cents: 1500,
      items: [
        { product_id: ids.beer, unit_id: ids.can, quantity: 4 },
        { product_id: ids.rice, quantity: 1 },
      ],
    });
    expect(combo.status).toBe(201);
    const beerOff = await send('POST', '/api/discounts', {
      name: 'Beer week',
      type: 'value',
      amount: 25,
      scope: 'product',
      product_id: ids.beer,
    });
    const orderOff = await send('POST', '/api/discounts', {
      name: 'Ten percent',
      type: 'percentage',
      amount: 1000,
      scope: 'order',
    });
    const beer = await onHand(ids.beer);
    const rice = await onHand(ids.rice);
    const res = await send(
      'POST',
      '/api/orders',
      sale({
        items: [
          { combo_id: combo.body.data.id, quantity: 2 },
          { product_id: ids.beer, quantity: 2, discount_id: beerOff.body.data.id },
        ],
        discount_id: orderOff.body.data.id,
      }),
    );
    expect(res.status).toBe(201);
    // combo 2 × $15 = $30 (taxable: it holds beer); beer 2 × ($1.25 − $0.25) = $2; 10 % off $32 = $3.20
    // shared $3.00 / $0.20; VAT 10 % of $27.00 and of $1.80
    expect(res.body.data).toMatchObject({
      subtotal_cents: 3250,
      discount_cents: 370,
      tax_cents: 288,
      total_cents: 3168,
    });
    expect(
      res.body.data.items.map((i: { kind: string; discount_name: string | null }) => [i.kind, i.discount_name]),
    ).toEqual([
      ['combo', null],
      ['product', 'Beer week'],
    ]);
    expect(await onHand(ids.beer)).toBe(beer - 8 - 2);
    expect(await onHand(ids.rice)).toBe(rice - 2);
    const moves = await send(
      'GET',
      `/api/stocks/movements?filter[document_type]=order&filter[document_id]=${res.body.data.id}&filter[type]=bundle_consumption`,
    );
    expect(moves.body.meta.total).toBe(2);
    // a product discount on another product does not apply
    const wrong = await send(
      'POST',
      '/api/orders',
      sale({ items: [{ product_id: ids.rice, quantity: 1, discount_id: beerOff.body.data.id }] }),
    );
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual({ 'items.0.discount_id': ['This discount does not apply here today.'] });
    // cancelling puts back every product of the combo
    await send('POST', `/api/orders/${res.body.data.id}/cancel`);
    expect(await onHand(ids.beer)).toBe(beer);
    expect(await onHand(ids.rice)).toBe(rice);
  });
});

describe('after the sale', () => {
  it('finds a sale by its order’s and its invoice’s numbers and its note: the terms a sale writes are the index’s', async () => {
    const res = await send(
      'POST',
      '/api/orders',
      sale({
        items: [{ product_id: ids.beer, unit_id: ids.can, quantity: 1 }],
        // a phone number: its digits alone are a term too, as a number's are
        note: 'Table 7, Sok-Dara, 012345678',
        payments: [{ method: 'cash_usd', amount: 200 }],
      }),
    );
    expect(res.status).toBe(201);
    const { id, number, invoice } = res.body.data;
    expect(number).toMatch(/^ORD-\d{4}-\d{6}$/);
    expect(invoice.number).toMatch(/^INV-[A-Z0-9-]+-\d{4}-\d{6}$/);
    const digits = number.slice(-6);
    const found = await send('GET', `/api/orders?search=${encodeURIComponent(digits)}&per_page=100`);
    expect(found.body.data.map((o: { id: number }) => o.id)).toContain(id);
    const byNote = await send('GET', '/api/orders?search=dara');
    expect(byNote.body.data.map((o: { id: number }) => o.id)).toEqual([id]);
    const byPhone = await send('GET', '/api/orders?search=012345678');
    expect(byPhone.body.data.map((o: { id: number }) => o.id)).toEqual([id]);
    const listed = await send('GET', `/api/invoices?search=${encodeURIComponent(invoice.number.slice(4))}`);
    expect(listed.body.data.map((i: { number: string }) => i.number)).toEqual([invoice.number]);
    // the very rows indexRecords writes from the rows as stored
    const terms = (resource: string, recordId: number) =>
      ctx.db
        .selectFrom('search_terms')
        .select(['term', 'lead', 'sort_key'])
        .where('resource', '=', resource)
        .where('record_id', '=', recordId)
        .orderBy('term')
        .execute();
    const written = { orders: await terms('orders', id), invoices: await terms('invoices', invoice.id) };
    await ctx.db.transaction().execute(async (trx) => {
      await indexRecords(trx, orders, [id]);
      await indexRecords(trx, invoices, [invoice.id]);
    });
    expect(written).toEqual({ orders: await terms('orders', id), invoices: await terms('invoices', invoice.id) });
    expect(written.orders.map((t) => t.term)).toContain(number.toLowerCase());
  });

  it('cancels a sale: every unit back through the ledger, the payment refunded, the invoice void', async () => {
    const before = await onHand(ids.beer);
    const made = await send('POST', '/api/orders', sale({ payments: [{ method: 'cash_usd', amount: 2000 }] }));
    expect(await onHand(ids.beer)).toBe(before - 3);
    const cancelled = await send('POST', `/api/orders/${made.body.data.id}/cancel`, {
      reason: 'Customer changed mind',
    });
    expect(cancelled.body).toMatchObject({
      message: 'Order cancelled: its stock is back.',
      data: { status: 'cancelled', invoice: null },
    });
    expect(cancelled.body.data.payments.at(-1)).toMatchObject({ kind: 'refund', amount_cents: 1413 });
    expect(await onHand(ids.beer)).toBe(before);
    const again = await send('POST', `/api/orders/${made.body.data.id}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/^Order ORD-\d{4}-\d{6} is cancelled: it cannot be cancelled\.$/);
  });

  it('returns part of a paid order: stock back, the refund in riel at the sale’s rate; no more than was sold', async () => {
    const made = await send('POST', '/api/orders', sale({ payments: [{ method: 'cash_usd', amount: 1413 }] }));
    const beerLine = made.body.data.items[0];
    const before = await onHand(ids.beer);
    const back = await send('POST', `/api/orders/${made.body.data.id}/returns`, {
      items: [{ order_item_id: beerLine.id, quantity: 1 }],
      refund_method: 'cash_khr',
    });
    expect(back.status).toBe(200);
    // a third of $4.13 is $1.38 → 5,658៛ → 5,700៛
    expect(back.body.data.payments.at(-1)).toMatchObject({
      kind: 'refund',
      method: 'cash_khr',
      amount_cents: 138,
      amount: 5700,
    });
    expect(back.body.data.items[0].returned_quantity).toBe(1);
    expect(await onHand(ids.beer)).toBe(before + 1);
    const over = await send('POST', `/api/orders/${made.body.data.id}/returns`, {
      items: [{ order_item_id: beerLine.id, quantity: 3 }],
      refund_method: 'cash_usd',
    });
    expect(over.body.errors).toEqual({ 'items.0.quantity': ['More than is left to return on this line (2).'] });
    const rest = await send('POST', `/api/orders/${made.body.data.id}/returns`, {
      items: [{ order_item_id: beerLine.id, quantity: 2 }],
      refund_method: 'cash_usd',
    });
    // the rest of the line: $4.13 − $1.38
    expect(rest.body.data.payments.at(-1)).toMatchObject({ amount_cents: 275 });
    const unpaid = await send('POST', '/api/orders', sale());
    const refused = await send('POST', `/api/orders/${unpaid.body.data.id}/returns`, {
      items: [{ order_item_id: unpaid.body.data.items[0].id, quantity: 1 }],
      refund_method: 'cash_usd',
    });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('Only a paid order can take returns.');
  });

  it('moves a delivery along its steps only', async () => {
    const made = await send(
      'POST',
      '/api/orders',
      sale({ delivery: { shipping_address: 'Street 271, Phnom Penh', fee_cents: 150 } }),
    );
    expect(made.body.data).toMatchObject({
      delivery_status: 'preparing',
      payment_status: 'pending',
      delivery_fee_cents: 150,
      total_cents: 1563,
    });
    const jump = await send('POST', `/api/orders/${made.body.data.id}/delivery`, { status: 'shipped' });
    expect(jump.status).toBe(409);
    expect(jump.body.message).toBe('A delivery that is preparing cannot go to shipped.');
    for (const step of ['preparing_done', 'ready_for_delivery', 'shipping', 'shipped', 'completed']) {
      const res = await send('POST', `/api/orders/${made.body.data.id}/delivery`, { status: step });
      expect(res.body.data.delivery_status).toBe(step);
    }
    const plain = await send('POST', '/api/orders', sale());
    expect(
      (await send('POST', `/api/orders/${plain.body.data.id}/delivery`, { status: 'preparing_done' })).body.message,
    ).toBe('This order has no delivery.');
  });

  it('lists orders by status, payment status and date; a cashier may not refund', async () => {
    const today = todayInCambodia();
    const paid = await send(
      'GET',
      `/api/orders?filter[payment_status]=paid&filter[date_from]=${today}&filter[date_to]=${today}&per_page=100`,
    );
    expect(paid.body.data.length).toBeGreaterThan(0);
    expect(paid.body.data.every((o: { payment_status: string }) => o.payment_status === 'paid')).toBe(true);
    const cashier = await createUser(ctx.db, { roles: ['cashier'] });
    const token = (await login(ctx.app, cashier.name, cashier.password)).token;
    const order = paid.body.data[0];
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/orders/${order.id}/returns`,
      headers: bearer(token),
      payload: { items: [{ order_item_id: 1, quantity: 1 }], refund_method: 'cash_usd' },
    });
    expect(res.statusCode).toBe(403);
  });

  it('names who has sold, for the cashier filter, and lists one cashier’s sales', async () => {
    const cashier = await createUser(ctx.db, { roles: ['cashier'] });
    const mine = { ...bearer((await login(ctx.app, cashier.name, cashier.password)).token), 'x-localization': 'en' };
    const before = await send('GET', '/api/orders/cashiers');
    expect(before.status).toBe(200);
    expect(before.body.data.map((c: { id: number }) => c.id)).not.toContain(cashier.id);

    await stockIn(ids.rice, 1, 100);
    const sold = await ctx.app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: mine,
      // paid: the walk-in customer has no credit (issue 26)
      payload: {
        customer_id: ids.walkIn,
        items: [{ product_id: ids.rice, quantity: 1 }],
        payments: [{ method: 'cash_usd', amount: 1000 }],
      },
    });
    expect(sold.statusCode).toBe(201);

    const names = await send('GET', '/api/orders/cashiers');
    expect(names.body.data).toContainEqual({ id: cashier.id, name: `Test ${cashier.name}` });
    // the cashier may filter by it too; a user without orders.list may not
    expect((await ctx.app.inject({ method: 'GET', url: '/api/orders/cashiers', headers: mine })).statusCode).toBe(200);
    const nobody = await createUser(ctx.db, { permissions: [] });
    const denied = await ctx.app.inject({
      method: 'GET',
      url: '/api/orders/cashiers',
      headers: bearer((await login(ctx.app, nobody.name, nobody.password)).token),
    });
    expect(denied.statusCode).toBe(403);

    const theirs = await send('GET', `/api/orders?filter[cashier_id]=${cashier.id}&per_page=100`);
    expect(theirs.body.data.map((o: { id: number }) => o.id)).toEqual([sold.json().data.id]);
  });
});

describe('retries and races', () => {
  it('a retried sale with the same Idempotency-Key sells once; another body with the key is 422', async () => {
    const key = randomUUID();
    const before = await onHand(ids.rice);
    const body = sale({ items: [{ product_id: ids.rice, quantity: 1 }] });
    const first = await send('POST', '/api/orders', body, { 'idempotency-key': key });
    const retry = await send('POST', '/api/orders', body, { 'idempotency-key': key });
    expect(retry.body).toEqual(first.body);
    expect(await onHand(ids.rice)).toBe(before - 1);
    const other = await send('POST', '/api/orders', sale(), { 'idempotency-key': key });
    expect(other.status).toBe(422);
  });

  // PostgreSQL only: SQLite writes one transaction at a time, so there one till always waits for the other
  it.skipIf(TEST_DB !== 'postgres')(
    'a sale waiting for a product another till holds does not stop a sale of other products (its number is taken last)',
    async () => {
      // paid in full: a sale leaving nothing unpaid does not lock the walk-in customer every till shares
      const paidSale = (product_id: number) =>
        sale({ items: [{ product_id, quantity: 1 }], payments: [{ method: 'cash_usd', amount: 5000 }] });
      await stockIn(ids.beer, 1, 50);
      await stockIn(ids.rice, 1, 700);
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let locked = () => {};
      const holding = new Promise<void>((resolve) => {
        locked = resolve;
      });
      // another till's sale, inside the ledger with the beer's lock
      const other = ctx.db.transaction().execute(async (trx) => {
        await lockProducts(trx, [ids.beer]);
        locked();
        await released;
      });
      await holding;
      try {
        const beer = send('POST', '/api/orders', paidSale(ids.beer));
        // until the beer sale waits for the lock
        for (let i = 0; i < 100; i++) {
          const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
            where wait_event_type = 'Lock' and datname = current_database()`.execute(ctx.db);
          if (rows[0].n > 0) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        const rice = await Promise.race([
          send('POST', '/api/orders', paidSale(ids.rice)),
          new Promise<null>((resolve) => setTimeout(() => resolve(null), 8000)),
        ]);
        expect(rice?.status).toBe(201);
        expect(rice?.body.data.number).toMatch(/^ORD-\d{4}-\d{6}$/);
        release();
        const sold = await beer;
        expect(sold.status).toBe(201);
        expect(sold.body.data.number).toMatch(/^ORD-\d{4}-\d{6}$/);
      } finally {
        release();
        await other;
      }
    },
    30_000,
  );

  // PostgreSQL only: the sale's lock and its levels' read are one statement (ledger.ts lockAndRead)
  it.skipIf(TEST_DB !== 'postgres')(
    'a sale that waited for its product sells from the levels the holder left: the units it took and a batch it made',
    async () => {
      await stockIn(ids.rice, 5, 500);
      const before = await onHand(ids.rice);
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let locked = () => {};
      const holding = new Promise<void>((resolve) => {
        locked = resolve;
      });
      // another transaction holds the rice: it takes a unit and receives 10 into a batch of its own
      const other = ctx.db.transaction().execute(async (trx) => {
        await lockProducts(trx, [ids.rice]);
        await issue(trx, {
          storeId: ids.store,
          productId: ids.rice,
          type: 'sale',
          quantity: 1,
          document: null,
          userId: null,
        });
        await receive(trx, {
          storeId: ids.store,
          productId: ids.rice,
          type: 'purchase_receipt',
          batch: { lot: `LATE-${randomUUID().slice(0, 8)}`, expiryDate: null },
          quantity: 10,
          valueCents: 1000,
          document: null,
          userId: null,
        });
        locked();
        await released;
      });
      await holding;
      try {
        // every unit there will be once the other commits: read before the wait, there are too few
        const all = send('POST', '/api/orders', sale({ items: [{ product_id: ids.rice, quantity: before - 1 + 10 }] }));
        for (let i = 0; i < 100; i++) {
          const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
            where wait_event_type = 'Lock' and datname = current_database()`.execute(ctx.db);
          if (rows[0].n > 0) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        release();
        await other;
        const sold = await all;
        expect(sold.status).toBe(201);
        expect(await onHand(ids.rice)).toBe(0);
        expect(await auditLedger(ctx.db)).toEqual([]);
      } finally {
        release();
        await other;
      }
    },
    30_000,
  );

  it('50 checkouts at once for the last 10 units: exactly 10 sell, the rest hear there is not enough stock', async () => {
    await send('POST', '/api/stocks/adjustments', {
      store_id: ids.store,
      reason: 'count',
      items: [{ product_id: ids.rice, quantity: 10 }],
    });
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        send('POST', '/api/orders', sale({ items: [{ product_id: ids.rice, quantity: 1 }] })),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 409)).toHaveLength(40);
    expect(await onHand(ids.rice)).toBe(0);
    const numbers = answers.filter((a) => a.status === 201).map((a) => a.body.data.number);
    expect(new Set(numbers).size).toBe(10);
  });
});

// last: these sales take stock the suites above count on
describe('change handed back', () => {
  it('keeps the change as the cashier handed it back: all riel, all dollars or the usual split', async () => {
    await stockIn(ids.beer, 9, 2400);
    await stockIn(ids.rice, 3, 7000);
    // $14.13 paid with $20: $5.87 back, or its riel at 4,100 (24,067៛ → 24,100៛)
    const pay = (change_in?: string) =>
      send('POST', '/api/orders', { ...sale({ payments: [{ method: 'cash_usd', amount: 2000 }] }), change_in });
    const riel = (await pay('khr')).body.data;
    expect(riel).toMatchObject({
      change_cents: 587,
      change_khr: 24_100,
      change_given_cents: 0,
      change_given_khr: 24_100,
    });
    const dollars = (await pay('usd')).body.data;
    expect(dollars).toMatchObject({ change_given_cents: 587, change_given_khr: 0 });
    // left out: whole dollars in dollars, the 87¢ in riel (3,567៛ → 3,600៛)
    const split = (await pay()).body.data;
    expect(split).toMatchObject({ change_given_cents: 500, change_given_khr: 3600 });
    const bad = await pay('euro');
    expect(bad.status).toBe(422);
    expect(bad.body.errors.change_in).toBeDefined();
  });
});

describe('the answers’ messages', () => {
  it('follow the Khmer-numerals setting in Khmer, as every route’s do', async () => {
    // no order message carries a figure today: one is given a figure here, so the test sees the
    // numerals the route writes its messages in
    const held = messages['order.held'] as { en: string; kh: string };
    const was = held.kh;
    const settings = (await send('GET', '/api/settings')).body.data;
    const numerals = (on: boolean) => send('PUT', '/api/settings', { ...settings, khmer_numerals: on });
    try {
      held.kh = `${was} 12`;
      expect((await numerals(true)).status).toBe(200);
      const res = await send('POST', '/api/orders', sale({ hold: true }), { 'x-localization': 'kh' });
      expect(res.status).toBe(201);
      expect(res.body.message).toBe(`${was} ១២`);
    } finally {
      held.kh = was;
      await numerals(false);
    }
  });
});
