import { randomUUID } from 'node:crypto';
import { todayInCambodia } from '@depot/contracts';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, bearer, createUser, login, useTestApp } from '../../test/harness.ts';
import { sellableProduct } from '../../test/selling.ts';
import { appliedShares } from './credit.ledger.ts';

const ctx = useTestApp();
let admin: Record<string, string>;
let cashier: Record<string, string>;
let manager: { name: string; password: string };
let product: number;
let unit: number;
let shop: number;

async function send(
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  payload?: object,
  as: Record<string, string> = admin,
  extra: Record<string, string> = {},
) {
  const res = await ctx.app.inject({ method, url, headers: { ...as, ...extra }, payload });
  return {
    status: res.statusCode,
    body: String(res.headers['content-type'] ?? '').includes('json') ? res.json() : res.body,
  };
}

/** A sale of `quantity` at $10 each to a customer, paying `paid` cents (0: on credit). */
const sale = (customer: number, quantity: number, paid = 0, approval?: object) => ({
  customer_id: customer,
  items: [{ product_id: product, quantity }],
  payments: paid ? [{ method: 'cash_usd', amount: paid }] : [],
  ...(approval ? { approval } : {}),
});

async function newCustomer(limit: number | null, terms = 30) {
  const res = await send('POST', '/api/customers', {
    name: `Shop ${randomUUID().slice(0, 6)}`,
    credit_limit_cents: limit,
    payment_terms_days: terms,
  });
  expect(res.status).toBe(201);
  return res.body.data.id as number;
}

beforeAll(async () => {
  admin = { ...bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token), 'x-localization': 'en' };
  product = (await sellableProduct(ctx.app, ctx.db, admin, 1000)).product;
  unit = (await ctx.db.selectFrom('products').select('unit_id').where('id', '=', product).executeTakeFirstOrThrow())
    .unit_id;
  const c = await createUser(ctx.db, { roles: ['cashier'] });
  cashier = { ...bearer((await login(ctx.app, c.name, c.password)).token), 'x-localization': 'en' };
  manager = await createUser(ctx.db, { roles: ['manager'] });
  shop = await newCustomer(5000, 30);
});

describe('a credit limit at the till', () => {
  it('sells on credit up to the limit, refuses past it in the user’s language, and lets a manager approve', async () => {
    const first = await send('POST', '/api/orders', sale(shop, 3), cashier);
    expect(first.status).toBe(201);
    expect(first.body.data.payment_status).toBe('unpaid');

    const over = await send('POST', '/api/orders', sale(shop, 3), cashier);
    expect(over.status).toBe(403);
    expect(over.body.code).toBe('approval_required');
    expect(over.body.message).toMatch(/would owe \$60\.00, more than their credit limit of \$50\.00/);
    const kh = await send('POST', '/api/orders', sale(shop, 3), cashier, { 'x-localization': 'kh' });
    expect(kh.body.message).toContain('កម្រិតឥណទាន');
    // nothing of the refused sale stays: the customer still owes $30
    expect((await send('GET', `/api/customers/${shop}/credit`)).body.data.balance_cents).toBe(3000);

    // paid enough at once, it needs nobody
    expect((await send('POST', '/api/orders', sale(shop, 3, 1000), cashier)).status).toBe(201);

    const wrong = await send(
      'POST',
      '/api/orders',
      sale(shop, 3, 0, { name: manager.name, password: 'not-it-at-all' }),
      cashier,
    );
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.approval).toBeTruthy();

    const approved = await send(
      'POST',
      '/api/orders',
      sale(shop, 1, 0, { name: manager.name, password: manager.password }),
      cashier,
    );
    expect(approved.status).toBe(201);
    const row = await ctx.db
      .selectFrom('orders')
      .select('credit_approved_by')
      .where('id', '=', approved.body.data.id)
      .executeTakeFirstOrThrow();
    expect(row.credit_approved_by).toBeGreaterThan(0);

    const account = (await send('GET', `/api/customers/${shop}/credit`)).body.data;
    expect(account.balance_cents).toBe(3000 + 1000 + 2000);
    expect(account.credit_limit_cents).toBe(5000);
    expect(account.available_cents).toBe(0);
    expect(account.open.map((o: { due_cents: number }) => o.due_cents)).toEqual([3000, 2000, 1000]);
    expect(account.ageing.current).toBe(6000);
  });

  it('gives a customer without a limit no credit, and a limit of 0 allows nothing unpaid', async () => {
    // no limit set is no credit: anything left unpaid needs a manager
    const none = await newCustomer(null);
    const refused = await send('POST', '/api/orders', sale(none, 1), cashier);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('approval_required');
    expect(refused.body.message).toMatch(/has no credit limit: they would owe \$10\.00/);
    const approved = sale(none, 1, 0, { name: manager.name, password: manager.password });
    expect((await send('POST', '/api/orders', approved, cashier)).status).toBe(201);
    const cash = await newCustomer(0);
    expect((await send('POST', '/api/orders', sale(cash, 1), cashier)).status).toBe(403);
    expect((await send('POST', '/api/orders', sale(cash, 1, 1000), cashier)).status).toBe(201);
    // a manager sells past it alone
    const mgr = { ...bearer((await login(ctx.app, manager.name, manager.password)).token), 'x-localization': 'en' };
    expect((await send('POST', '/api/orders', sale(cash, 1), mgr)).status).toBe(201);
  });

  it('keeps the credit fields out of the hands of those without credit.update', async () => {
    const id = await newCustomer(1000, 7);
    const res = await send(
      'PUT',
      `/api/customers/${id}`,
      { name: 'Renamed shop', credit_limit_cents: 99_999_00, payment_terms_days: 90 },
      cashier,
    );
    expect(res.status).toBe(200);
    expect(res.body.data.name).toBe('Renamed shop');
    expect(res.body.data.credit_limit_cents).toBe(1000);
    expect(res.body.data.payment_terms_days).toBe(7);
  });
});

describe('payments on account', () => {
  it('clears two orders oldest first with one payment, exactly, and the statement shows it all', async () => {
    const id = await newCustomer(100_000, 15);
    const a = (await send('POST', '/api/orders', sale(id, 2))).body.data;
    const b = (await send('POST', '/api/orders', sale(id, 3, 500))).body.data;
    expect(a.total_cents - a.paid_cents).toBe(2000);

    const over = await send('POST', `/api/customers/${id}/payments`, { method: 'cash_usd', amount: 999_999 });
    expect(over.status).toBe(422);
    expect(over.body.errors.amount[0]).toBe('More than the orders owe ($45.00).');

    const paid = await send('POST', `/api/customers/${id}/payments`, { method: 'cash_usd', amount: 4500 }, admin, {
      'idempotency-key': randomUUID(),
    });
    expect(paid.status).toBe(201);
    expect(paid.body.message).toMatch(/^Payment CP-\d{4}-\d{6} recorded\.$/);
    expect(paid.body.data.allocations).toEqual([
      { order_id: a.id, number: a.number, amount_cents: 2000 },
      { order_id: b.id, number: b.number, amount_cents: 2500 },
    ]);
    const orders = await ctx.db
      .selectFrom('orders')
      .select(['payment_status'])
      .where('id', 'in', [a.id, b.id])
      .execute();
    expect(orders.every((o) => o.payment_status === 'paid')).toBe(true);
    expect((await send('GET', `/api/customers/${id}/credit`)).body.data.balance_cents).toBe(0);

    const today = todayInCambodia();
    const st = (await send('GET', `/api/customers/${id}/statement?from=${today}&to=${today}`)).body.data;
    expect(st.opening_cents).toBe(0);
    expect(st.totals).toEqual({ sales_cents: 5000, payments_cents: 5000, returns_cents: 0, refunds_cents: 0 });
    expect(st.closing_cents).toBe(0);
    expect(st.lines.map((l: { kind: string }) => l.kind)).toEqual(['sale', 'sale', 'payment', 'payment']);
    expect(st.lines.at(-1).number).toBe(paid.body.data.number);

    // the statement as a PDF (kit/pdf.ts: Chromium), or a localized 409 where there is none
    const pdf = await ctx.app.inject({
      method: 'GET',
      url: `/api/customers/${id}/statement/pdf?from=${today}&to=${today}`,
      headers: admin,
    });
    if (pdf.statusCode === 200) {
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(pdf.rawPayload.subarray(0, 4).toString()).toBe('%PDF');
    } else expect(pdf.json()).toMatchObject({ message: expect.stringContaining('Chromium') });

    // the same period a day later: all of it is the opening balance
    const later = (await send('GET', `/api/customers/${id}/statement?from=2099-01-01&to=2099-01-31`)).body.data;
    expect(later).toMatchObject({ opening_cents: 0, closing_cents: 0, lines: [] });
  });

  it('pays the chosen orders only, in riel at today’s rate, and refuses orders that are not open', async () => {
    const id = await newCustomer(null);
    const a = (await send('POST', '/api/orders', sale(id, 1))).body.data;
    const b = (await send('POST', '/api/orders', sale(id, 1))).body.data;
    const notOpen = await send('POST', `/api/customers/${id}/payments`, {
      method: 'cash_usd',
      amount: 100,
      order_ids: [a.id, 999_999],
    });
    expect(notOpen.status).toBe(422);
    expect(notOpen.body.errors['order_ids.1']).toEqual(['Not an unpaid order of this customer.']);

    const rate = (await send('GET', '/api/exchange-rates/current')).body.data;
    const rateIn = rate.rate_in_khr || rate.rate_khr;
    const riel = Math.floor((1000 * rateIn) / 100);
    const paid = await send('POST', `/api/customers/${id}/payments`, {
      method: 'cash_khr',
      amount: riel,
      order_ids: [b.id],
    });
    expect(paid.status).toBe(201);
    expect(paid.body.data.allocations).toEqual([{ order_id: b.id, number: b.number, amount_cents: 1000 }]);
    const account = (await send('GET', `/api/customers/${id}/credit`)).body.data;
    expect(account.open.map((o: { id: number }) => o.id)).toEqual([a.id]);
  });

  it('answers bad input with a localized 422 and refuses those without the permission', async () => {
    for (const body of [
      {},
      { method: 'cheque', amount: 100 },
      { method: 'cash_usd', amount: -5 },
      { method: 'cash_usd', amount: 1.5 },
      { method: 'cash_usd', amount: 100, order_ids: ['x'] },
    ]) {
      const res = await send('POST', `/api/customers/${shop}/payments`, body, admin, { 'x-localization': 'kh' });
      expect(res.status).toBe(422);
      // the reader's language: a Khmer sentence, and each refused field's message in Khmer too
      expect(res.body.message, JSON.stringify(body)).toMatch(/^[\u1780-\u17FF]/);
      const fields = Object.values(res.body.errors ?? {}).flat() as string[];
      expect(fields.length, JSON.stringify(body)).toBeGreaterThan(0);
      for (const message of fields) expect(message, JSON.stringify(body)).toMatch(/[\u1780-\u17FF]/);
    }
    const nothing = await newCustomer(null);
    const none = await send('POST', `/api/customers/${nothing}/payments`, { method: 'cash_usd', amount: 100 });
    expect(none.status).toBe(422);
    expect(none.body.errors.amount).toEqual(['This customer owes nothing.']);
    expect((await send('POST', `/api/customers/999999/payments`, { method: 'cash_usd', amount: 1 })).status).toBe(404);
    expect((await send('GET', `/api/customers/${shop}/statement?from=2026-02-01&to=2026-01-01`)).status).toBe(422);
    expect((await send('GET', `/api/customers/${shop}/statement?from=nope&to=2026-01-01`)).status).toBe(422);

    // a cashier sees no balances and takes no payments on account; reports likewise
    expect((await send('GET', `/api/customers/${shop}/credit`, undefined, cashier)).status).toBe(403);
    expect((await send('GET', '/api/credit/receivables', undefined, cashier)).status).toBe(403);
    expect(
      (await send('POST', `/api/customers/${shop}/payments`, { method: 'cash_usd', amount: 100 }, cashier)).status,
    ).toBe(403);
  });
});

describe('receivables and payables', () => {
  it('ages what customers owe, and what the depot owes its suppliers', async () => {
    const res = await send('GET', '/api/credit/receivables');
    expect(res.status).toBe(200);
    const mine = res.body.data.rows.find((r: { id: number }) => r.id === shop);
    expect(mine.balance_cents).toBe(6000);
    const sum = Object.values(res.body.data.ageing as Record<string, number>).reduce((a, b) => a + b, 0);
    expect(sum).toBe(res.body.data.total_cents);

    const store = await ctx.db.selectFrom('stores').select('id').orderBy('id').executeTakeFirstOrThrow();
    const supplier = (await send('POST', '/api/suppliers', { name: 'Mekong Trading', payment_terms_days: 30 })).body
      .data.id as number;
    const purchase = await send('POST', '/api/purchases', {
      supplier_id: supplier,
      store_id: store.id,
      purchase_date: '2026-01-02',
      ordered: true,
      items: [{ product_id: product, unit_id: unit, quantity: 10, unit_price_cents: 500 }],
    });
    expect(purchase.status, JSON.stringify(purchase.body)).toBe(201);
    const account = (await send('GET', `/api/suppliers/${supplier}/credit`)).body.data;
    expect(account.balance_cents).toBe(purchase.body.data.grand_total_cents);
    expect(account.open[0].due_date).toBe('2026-02-01');
    const payables = (await send('GET', '/api/credit/payables')).body.data;
    expect(payables.rows.find((r: { id: number }) => r.id === supplier).balance_cents).toBe(
      purchase.body.data.grand_total_cents,
    );
    const st = (await send('GET', `/api/suppliers/${supplier}/statement?from=2026-01-01&to=2026-01-31`)).body.data;
    expect(st.lines).toHaveLength(1);
    expect(st.closing_cents).toBe(purchase.body.data.grand_total_cents);
  });
});

describe('balances equal the sum of their documents', () => {
  it('holds over random sales, part payments at the till, payments on account and returns', async () => {
    let returned = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.record({
              kind: fc.constant('sale' as const),
              quantity: fc.integer({ min: 1, max: 4 }),
              paid: fc.integer({ min: 0, max: 5000 }),
            }),
            fc.record({ kind: fc.constant('pay' as const), cents: fc.integer({ min: 1, max: 6000 }) }),
            fc.record({ kind: fc.constant('return' as const), which: fc.nat() }),
          ),
          { minLength: 1, maxLength: 8 },
        ),
        async (steps) => {
          const id = await newCustomer(null, 0);
          const sold: { id: number; item: number; left: number }[] = [];
          for (const step of steps) {
            if (step.kind === 'sale') {
              const res = await send(
                'POST',
                '/api/orders',
                sale(id, step.quantity, Math.min(step.paid, step.quantity * 1000)),
              );
              sold.push({ id: res.body.data.id, item: res.body.data.items[0].id, left: step.quantity });
            } else if (step.kind === 'return') {
              const order = sold.filter((o) => o.left > 0)[step.which % Math.max(1, sold.length)];
              if (!order) continue;
              const res = await send('POST', `/api/orders/${order.id}/returns`, {
                items: [{ order_item_id: order.item, quantity: 1 }],
                refund_method: 'cash_usd',
              });
              // only a paid order takes returns
              expect([200, 409]).toContain(res.status);
              if (res.status === 200) {
                order.left -= 1;
                returned += 1;
              }
            } else {
              const before = (await send('GET', `/api/customers/${id}/credit`)).body.data;
              const res = await send('POST', `/api/customers/${id}/payments`, {
                method: 'cash_usd',
                amount: step.cents,
              });
              if (before.balance_cents === 0) expect(res.status).toBe(422);
              else if (step.cents > before.balance_cents) expect(res.status).toBe(422);
              else {
                expect(res.status).toBe(201);
                // oldest first: every order before the last one paid was cleared
                const shares = res.body.data.allocations as { order_id: number; amount_cents: number }[];
                expect(shares.reduce((s, a) => s + a.amount_cents, 0)).toBe(step.cents);
                const open = before.open as { id: number; due_cents: number }[];
                shares.forEach((share, i) => {
                  expect(share.order_id).toBe(open[i].id);
                  if (i < shares.length - 1) expect(share.amount_cents).toBe(open[i].due_cents);
                });
              }
            }
          }
          const account = (await send('GET', `/api/customers/${id}/credit`)).body.data;
          const st = (await send('GET', `/api/customers/${id}/statement?from=2000-01-01&to=2099-12-31`)).body.data;
          const orders = await ctx.db
            .selectFrom('orders')
            .select(['total_cents', 'paid_cents'])
            .where('customer_id', '=', id)
            .where('status', '=', 'confirmed')
            .execute();
          const owed = orders.reduce((s, o) => s + Number(o.total_cents) - Number(o.paid_cents), 0);
          expect(account.balance_cents).toBe(owed);
          expect(st.closing_cents).toBe(owed);
          expect(st.lines.at(-1)?.balance_cents ?? 0).toBe(owed);
          // returns are refunded in cash: as much goes out as comes back
          expect(st.totals.returns_cents).toBe(st.totals.refunds_cents);
          expect(
            st.totals.sales_cents + st.totals.refunds_cents - st.totals.payments_cents - st.totals.returns_cents,
          ).toBe(owed);
          expect(account.open.reduce((s: number, o: { due_cents: number }) => s + o.due_cents, 0)).toBe(owed);
        },
      ),
      { numRuns: 8, seed: 20261125 },
    );
    // the runs took some returns: the property covers them
    expect(returned).toBeGreaterThan(0);
  });

  it('counts each payment only up to what it settled (change given, riel rounding)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000 }),
        fc.array(fc.integer({ min: 1, max: 50_000 }), { minLength: 1, maxLength: 6 }),
        (paid, amounts) => {
          const shares = appliedShares(paid, amounts);
          expect(shares.reduce((a, b) => a + b, 0)).toBe(paid);
          expect(shares.every((s) => s >= 0 && Number.isInteger(s))).toBe(true);
        },
      ),
    );
  });
});
