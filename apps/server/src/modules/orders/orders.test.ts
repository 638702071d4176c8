import { todayInCambodia } from '@depot/contracts';
import { describe, expect, it } from 'vitest';
import { indexRecords } from '../../kit/search.ts';
import { bearer, createUser, login } from '../../test/harness.ts';
import { invoices, orders } from './orders.resources.ts';
import { ordersSuite } from './orders.suite.ts';

/** A sale at the till, its combos and discounts, and what follows it (orders.suite.ts sets up). */
const { ctx, ids, send, onHand, sale, stock } = ordersSuite();

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

    await stock(ids.rice, 1, 100);
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
