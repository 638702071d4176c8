import { randomUUID } from 'node:crypto';
import type { CountLine } from '@depot/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, bearer, createUser, login, useTestApp } from '../../test/harness.ts';
import { sellableProduct } from '../../test/selling.ts';

/**
 * Issue 26, "Every riel in a drawer": each cash movement lands in the open shift of whoever handled
 * the cash, pay-outs beyond the threshold need a manager and are audited, a blind close hides every
 * figure of the drawer, no credit without a limit, and a sale whose goods left is voided by a manager.
 */
const ctx = useTestApp();
type Headers = Record<string, string>;
type User = { name: string; password: string; id: number; headers: Headers };
let admin: Headers;
let manager: User;
let shop: Awaited<ReturnType<typeof sellableProduct>>;
let walkIn: number;

async function send(method: 'GET' | 'POST' | 'PUT', url: string, payload: object | undefined, as: Headers) {
  const res = await ctx.app.inject({ method, url, headers: as, payload });
  return { status: res.statusCode, body: res.json() };
}
async function user(roles: string[]): Promise<User> {
  const made = await createUser(ctx.db, { roles });
  return {
    ...made,
    headers: { ...bearer((await login(ctx.app, made.name, made.password)).token), 'x-localization': 'en' },
  };
}
const notes = (...pairs: [number, number][]): CountLine[] => pairs.map(([value, count]) => ({ value, count }));
const float = { usd: notes([1000, 2]), khr: [] as CountLine[] };
const approval = () => ({ name: manager.name, password: manager.password });

async function openShift(as: User, till = `Till ${randomUUID().slice(0, 6)}`) {
  const res = await send('POST', '/api/shifts', { store_id: shop.storeId, till, float }, as.headers);
  expect(res.status).toBe(201);
  return res.body.data.id as number;
}
async function closeShift(as: User, id: number) {
  const res = await send(
    'POST',
    `/api/shifts/${id}/close`,
    { counted: { usd: [], khr: [] }, approval: approval() },
    as.headers,
  );
  expect(res.status).toBe(200);
  return res.body.data;
}
const drawerOf = async (id: number) => (await send('GET', `/api/shifts/${id}`, undefined, manager.headers)).body.data;

/** A sale of the $3 product to a customer with these tenders; unpaid ones carry a manager's approval. */
async function sale(as: User, payments: object[], customer = walkIn) {
  const res = await send(
    'POST',
    '/api/orders',
    {
      customer_id: customer,
      items: [{ product_id: shop.product, quantity: 1 }],
      payments,
      approval: approval(),
    },
    as.headers,
  );
  expect(res.status).toBe(201);
  return res.body.data as { id: number; number: string };
}
async function settings(change: object) {
  const now = (await send('GET', '/api/shifts/settings', undefined, admin)).body.data;
  const res = await send('PUT', '/api/shifts/settings', { ...now, ...change }, admin);
  expect(res.status).toBe(200);
  return now;
}

beforeAll(async () => {
  admin = { ...bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token), 'x-localization': 'en' };
  shop = await sellableProduct(ctx.app, ctx.db, admin, 300);
  manager = await user(['manager']);
  walkIn = (await ctx.db.selectFrom('customers').select('id').where('is_walk_in', '=', 1).executeTakeFirstOrThrow()).id;
});

describe('a cash movement belongs to the open shift of whoever handled the cash', () => {
  it('reproduced: $3 owed from a closed shift, paid in cash in the next one, lands in the next one', async () => {
    const cashier = await user(['cashier']);
    const first = await openShift(cashier);
    const order = await sale(cashier, []);
    const closed = await closeShift(cashier, first);
    expect(closed.usd).toMatchObject({ cash_in: 0, expected: 2000 });
    const second = await openShift(cashier);
    const paid = await send(
      'POST',
      `/api/orders/${order.id}/payments`,
      { payments: [{ method: 'cash_usd', amount: 300 }] },
      cashier.headers,
    );
    expect(paid.status).toBe(200);
    expect((await drawerOf(second)).usd).toMatchObject({ cash_in: 300, expected: 2300 });
    expect((await drawerOf(first)).usd).toMatchObject({ cash_in: 0, expected: 2000 });
    await closeShift(cashier, second);
  });

  it('cash taken at another cashier’s order lands in the drawer of the one who took it, change too', async () => {
    const seller = await user(['cashier']);
    const taker = await user(['cashier']);
    const sellers = await openShift(seller);
    const takers = await openShift(taker);
    const order = await sale(seller, []);
    // $5 handed over for $3: $2 back from the taker's drawer
    const paid = await send(
      'POST',
      `/api/orders/${order.id}/payments`,
      { payments: [{ method: 'cash_usd', amount: 500 }], change_in: 'usd' },
      taker.headers,
    );
    expect(paid.status).toBe(200);
    expect((await drawerOf(sellers)).usd).toMatchObject({ cash_in: 0, change_out: 0, expected: 2000 });
    expect((await drawerOf(takers)).usd).toMatchObject({ cash_in: 500, change_out: 200, expected: 2300 });
    await closeShift(seller, sellers);
    await closeShift(taker, takers);
  });

  it('a payment on account and a refund are the drawers of those who took and gave the cash', async () => {
    const cashier = await user(['cashier']);
    const mine = await openShift(cashier);
    const owed = await sale(cashier, []);
    const bought = await sale(cashier, [{ method: 'cash_usd', amount: 300 }]);
    await closeShift(cashier, mine);
    const boss = await openShift(manager);
    const onAccount = await send(
      'POST',
      `/api/customers/${walkIn}/payments`,
      { store_id: shop.storeId, method: 'cash_usd', amount: 300, order_ids: [owed.id] },
      manager.headers,
    );
    expect(onAccount.status).toBe(201);
    const back = await send(
      'POST',
      `/api/orders/${bought.id}/cancel`,
      { reason: 'Changed their mind' },
      manager.headers,
    );
    expect(back.status).toBe(200);
    expect((await drawerOf(boss)).usd).toMatchObject({ cash_in: 300, refunds: 300, expected: 2000 });
    await closeShift(manager, boss);
  });

  it('where sales need an open shift, so does every route that takes or gives cash (422, localized)', async () => {
    const cashier = await user(['cashier']);
    const shift = await openShift(cashier);
    const owed = await sale(cashier, []);
    const bought = await sale(cashier, [{ method: 'cash_usd', amount: 300 }]);
    await closeShift(cashier, shift);
    const before = await settings({ require_shift: true });
    try {
      const pay = await send(
        'POST',
        `/api/orders/${owed.id}/payments`,
        { payments: [{ method: 'cash_usd', amount: 300 }] },
        { ...cashier.headers, 'x-localization': 'kh' },
      );
      expect(pay.status).toBe(422);
      expect(pay.body.message).toBe('សូមបើកវេននៅហាងនេះជាមុនសិន មុននឹងទទួល ឬផ្ដល់សាច់ប្រាក់។');
      const onAccount = await send(
        'POST',
        `/api/customers/${walkIn}/payments`,
        { store_id: shop.storeId, method: 'cash_usd', amount: 300, order_ids: [owed.id] },
        manager.headers,
      );
      expect(onAccount.status).toBe(422);
      expect(onAccount.body.message).toBe('Open a shift at this store before taking or giving cash.');
      const item = await ctx.db
        .selectFrom('order_items')
        .select('id')
        .where('order_id', '=', bought.id)
        .executeTakeFirstOrThrow();
      const refund = await send(
        'POST',
        `/api/orders/${bought.id}/returns`,
        { items: [{ order_item_id: item.id, quantity: 1 }], refund_method: 'cash_usd', approval: approval() },
        cashier.headers,
      );
      expect(refund.status).toBe(422);
      expect(refund.body.message).toBe('Open a shift at this store before taking or giving cash.');
      const back = await send('POST', `/api/orders/${bought.id}/cancel`, { reason: 'x' }, manager.headers);
      expect(back.status).toBe(422);
      expect(back.body.message).toBe('Open a shift at this store before taking or giving cash.');
      // nothing changed
      const order = await ctx.db
        .selectFrom('orders')
        .select(['status', 'paid_cents'])
        .where('id', '=', owed.id)
        .executeTakeFirstOrThrow();
      expect(order).toMatchObject({ status: 'confirmed', paid_cents: 0 });
    } finally {
      await settings(before);
    }
  });
});

describe('pay-ins and pay-outs', () => {
  it('reproduced: a pay-out of the threshold needs a manager’s approval, and every movement is audited', async () => {
    const cashier = await user(['cashier']);
    const shift = await openShift(cashier);
    const move = { kind: 'pay_out', currency: 'usd', amount: 500, reason: 'Ice' };
    const alone = await send('POST', `/api/shifts/${shift}/movements`, move, cashier.headers);
    expect(alone.status).toBe(403);
    expect(alone.body.code).toBe('approval_required');
    // below it, one at a time, the pay-outs of the shift count together
    const small = { ...move, amount: 300 };
    expect((await send('POST', `/api/shifts/${shift}/movements`, small, cashier.headers)).status).toBe(200);
    expect((await send('POST', `/api/shifts/${shift}/movements`, small, cashier.headers)).status).toBe(403);
    const approved = await send(
      'POST',
      `/api/shifts/${shift}/movements`,
      { ...move, approval: approval() },
      cashier.headers,
    );
    expect(approved.status).toBe(200);
    const payIn = { kind: 'pay_in', currency: 'khr', amount: 10000, reason: 'Small notes' };
    expect((await send('POST', `/api/shifts/${shift}/movements`, payIn, cashier.headers)).status).toBe(200);
    const lines = await ctx.db
      .selectFrom('audit_log')
      .select(['action', 'user_id', 'after'])
      .where('subject_type', '=', 'shift')
      .where('subject_id', '=', shift)
      .orderBy('id')
      .execute();
    expect(lines.map((l) => l.action)).toEqual(['shift.pay_out', 'shift.pay_out', 'shift.pay_in']);
    expect(lines.every((l) => l.user_id === cashier.id)).toBe(true);
    expect(JSON.parse(String(lines[1]?.after))).toMatchObject({ amount: 500, approved_by: manager.id });
    await closeShift(cashier, shift);
  });
});

describe('a blind close', () => {
  it('reproduced: until the count is in, a cashier sees none of the drawer’s figures', async () => {
    const cashier = await user(['cashier']);
    const shift = await openShift(cashier);
    await sale(cashier, [{ method: 'cash_usd', amount: 500 }]);
    const payIn = { kind: 'pay_in', currency: 'usd', amount: 100, reason: 'Coins' };
    expect((await send('POST', `/api/shifts/${shift}/movements`, payIn, cashier.headers)).status).toBe(200);
    const seen = (await send('GET', `/api/shifts/${shift}`, undefined, cashier.headers)).body.data;
    expect(seen.blind).toBe(true);
    for (const currency of ['usd', 'khr']) {
      expect(seen[currency]).toEqual({
        float: null,
        cash_in: null,
        change_out: null,
        refunds: null,
        pay_ins: null,
        pay_outs: null,
        expected: null,
        counted: null,
        difference: null,
      });
    }
    expect(seen.float_count).toBeNull();
    expect(seen.sales_cents).toBeNull();
    expect(seen.payments).toEqual([]);
    expect(seen.movements.map((m: { amount: number | null }) => m.amount)).toEqual([null]);
    const current = (await send('GET', '/api/shifts/current', undefined, cashier.headers)).body.data;
    expect(current.usd.float).toBeNull();
    // the cashier's dashboard ("today" is the open shift) tells no cash received or change given either
    const board = (await send('GET', '/api/dashboard', undefined, cashier.headers)).body.data;
    expect(board.shift.id).toBe(shift);
    const sections = board.sections.map((section: { key: string }) => section.key);
    expect(sections).not.toContain('cash');
    expect(sections).not.toContain('by_payment');
    // the manager sees it all
    expect((await drawerOf(shift)).usd).toMatchObject({ float: 2000, cash_in: 500, change_out: 200, pay_ins: 100 });
    // once counted, the cashier sees what it was
    const closed = await closeShift(cashier, shift);
    expect(closed.usd).toMatchObject({ float: 2000, cash_in: 500, expected: 2400 });
  });
});

describe('credit', () => {
  it('the walk-in customer and a customer without a limit buy on credit only with a manager’s approval', async () => {
    const cashier = await user(['cashier']);
    const body = { customer_id: walkIn, items: [{ product_id: shop.product, quantity: 1 }], payments: [] };
    const alone = await send('POST', '/api/orders', body, cashier.headers);
    expect(alone.status).toBe(403);
    expect(alone.body.code).toBe('approval_required');
    expect(alone.body.message).toMatch(/has no credit limit/);
    const part = await send(
      'POST',
      '/api/orders',
      { ...body, payments: [{ method: 'cash_usd', amount: 100 }] },
      cashier.headers,
    );
    expect(part.status).toBe(403);
    const approved = await send('POST', '/api/orders', { ...body, approval: approval() }, cashier.headers);
    expect(approved.status).toBe(201);
    const row = await ctx.db
      .selectFrom('orders')
      .select('credit_approved_by')
      .where('id', '=', approved.body.data.id)
      .executeTakeFirstOrThrow();
    expect(row.credit_approved_by).toBe(manager.id);
    // a customer with a limit buys within it alone
    const limited = await send(
      'POST',
      '/api/customers',
      { name: `Shop ${randomUUID().slice(0, 6)}`, credit_limit_cents: 1000, payment_terms_days: 30 },
      admin,
    );
    const within = await send('POST', '/api/orders', { ...body, customer_id: limited.body.data.id }, cashier.headers);
    expect(within.status).toBe(201);
  });

  it('a sale checked out to be paid by KHQR now is no credit, where the store takes KHQR', async () => {
    const cashier = await user(['cashier']);
    const body = {
      customer_id: walkIn,
      items: [{ product_id: shop.product, quantity: 1 }],
      payments: [],
      awaiting_khqr: true,
    };
    // a store with no KHQR account cannot be paid by QR: the flag asks for nothing
    await ctx.db.updateTable('stores').set({ khqr_account_id: null }).where('id', '=', shop.storeId).execute();
    const noQr = await send('POST', '/api/orders', body, cashier.headers);
    expect(noQr.status).toBe(403);
    expect(noQr.body.code).toBe('approval_required');
    await ctx.db
      .updateTable('stores')
      .set({ khqr_account_id: 'depot@bank', khqr_merchant_name: 'Depot', khqr_merchant_city: 'Phnom Penh' })
      .where('id', '=', shop.storeId)
      .execute();
    const scanning = await send('POST', '/api/orders', body, cashier.headers);
    expect(scanning.status).toBe(201);
    expect(scanning.body.data.due_cents).toBeGreaterThan(0);
    // left unpaid, it is not voided without a manager: the goods are at the counter or gone
    const voided = await send('POST', `/api/orders/${scanning.body.data.id}/cancel`, {}, cashier.headers);
    expect(voided.status).toBe(403);
    expect(voided.body.code).toBe('approval_required');
  });
});

describe('voids', () => {
  it('reproduced: a sale whose goods were handed over is voided only with a manager’s approval, paid or not', async () => {
    const cashier = await user(['cashier']);
    const order = await sale(cashier, []);
    const shown = await send('GET', `/api/orders/${order.id}`, undefined, cashier.headers);
    expect(shown.body.data.abilities.cancel).toBe('approval');
    const alone = await send('POST', `/api/orders/${order.id}/cancel`, { reason: 'x' }, cashier.headers);
    expect(alone.status).toBe(403);
    expect(alone.body.code).toBe('approval_required');
    const approved = await send(
      'POST',
      `/api/orders/${order.id}/cancel`,
      { reason: 'x', approval: approval() },
      cashier.headers,
    );
    expect(approved.status).toBe(200);
    // a held cart is still the till's to drop
    const held = await send(
      'POST',
      '/api/orders',
      { customer_id: walkIn, items: [{ product_id: shop.product, quantity: 1 }], payments: [], hold: true },
      cashier.headers,
    );
    expect(held.body.data.abilities.cancel).toBe(true);
  });
});
