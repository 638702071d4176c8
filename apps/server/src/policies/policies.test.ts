import { beforeAll, describe, expect, it } from 'vitest';
import { factories, firstStore, walkIn } from '../test/factories.ts';
import { ADMIN_PASSWORD, bearer, createStore, createUser, login, useTestApp } from '../test/harness.ts';

// a small throttle, so that the approval's is seen to be the sign-in's
const ctx = useTestApp({ throttle: { perPair: 3, perAddress: 100, windowMs: 60_000 } });
const ids: Record<string, number> = {};
type Headers = Record<string, string>;
let admin: Headers;

async function call(headers: Headers, method: string, url: string, payload?: object) {
  const res = await ctx.app.inject({
    method: method as 'GET',
    url,
    headers: { ...headers, 'x-localization': 'en' },
    payload,
  });
  return { status: res.statusCode, body: res.json(), headers: res.headers };
}

async function signedIn(options: Parameters<typeof createUser>[1]) {
  const user = await createUser(ctx.db, { store: ids.home, ...options });
  return { ...user, headers: bearer((await login(ctx.app, user.name, user.password)).token) };
}

const sale = (over: object = {}) => ({
  customer_id: ids.walkIn,
  items: [{ product_id: ids.product, quantity: 1 }],
  ...over,
});
const paidSale = () => sale({ payments: [{ method: 'cash_usd', amount: 250 }] });

beforeAll(async () => {
  admin = bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token);
  ids.home = await firstStore(ctx.db);
  ids.away = await createStore(ctx.db, 'AWAY');
  ids.walkIn = await walkIn(ctx.db);
  const make = factories(ctx, () => admin);
  const { drinks: category, can: unit } = await make.catalogue();
  ids.product = await make.product({
    name_en: 'Iced coffee',
    name_kh: 'កាហ្វេទឹកកក',
    sku: 'COFFEE-1',
    category_id: category,
    unit_id: unit,
    price_usd_cents: 250,
    cost_usd_cents: 120,
    taxable: false,
  });
  await call(admin, 'POST', '/api/stocks/adjustments', {
    store_id: ids.home,
    reason: 'found',
    items: [{ product_id: ids.product, quantity: 1000 }],
  });
});

describe('voids and refunds need a manager', () => {
  it('lets a cashier void a held cart, but a sale whose goods left only with a manager’s approval', async () => {
    const cashier = await signedIn({ roles: ['cashier'] });
    const manager = await signedIn({ roles: ['manager'] });

    const held = await call(cashier.headers, 'POST', '/api/orders', sale({ hold: true }));
    expect(held.body.data.abilities).toEqual({ update: true, pay: false, cancel: true, return: false, deliver: false });
    expect((await call(cashier.headers, 'POST', `/api/orders/${held.body.data.id}/cancel`, {})).status).toBe(200);

    // unpaid, but the goods were handed over: a void would put back stock that left
    const unpaid = await call(
      cashier.headers,
      'POST',
      '/api/orders',
      sale({ approval: { name: manager.name, password: manager.password } }),
    );
    expect(unpaid.body.data.abilities.cancel).toBe('approval');
    expect((await call(cashier.headers, 'POST', `/api/orders/${unpaid.body.data.id}/cancel`, {})).status).toBe(403);

    const paid = await call(cashier.headers, 'POST', '/api/orders', paidSale());
    expect(paid.body.data.abilities).toEqual({
      update: false,
      pay: false,
      cancel: 'approval',
      return: 'approval',
      deliver: false,
    });
    const refused = await call(cashier.headers, 'POST', `/api/orders/${paid.body.data.id}/cancel`, {});
    expect(refused).toMatchObject({
      status: 403,
      body: {
        code: 'approval_required',
        message: 'A manager’s approval is needed: enter a manager’s name and password.',
      },
    });
    const kh = await ctx.app.inject({
      method: 'POST',
      url: `/api/orders/${paid.body.data.id}/cancel`,
      headers: { ...cashier.headers, 'x-localization': 'kh' },
      payload: {},
    });
    expect(kh.json().message).toBe('ត្រូវការការអនុម័តពីអ្នកគ្រប់គ្រង៖ សូមបញ្ចូលឈ្មោះ និងពាក្យសម្ងាត់របស់អ្នកគ្រប់គ្រង។');
    expect((await call(admin, 'GET', `/api/orders/${paid.body.data.id}`)).body.data.status).toBe('confirmed');

    const approved = await call(cashier.headers, 'POST', `/api/orders/${paid.body.data.id}/cancel`, {
      reason: 'Wrong item',
      approval: { name: manager.name, password: manager.password },
    });
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({
      status: 'cancelled',
      approved_by_name: `Test ${manager.name}`,
      cancel_reason: 'Wrong item',
    });
    expect(approved.body.data.payments.at(-1)).toMatchObject({ kind: 'refund', amount_cents: 250 });
    // a manager voids without anyone's approval
    const own = await call(manager.headers, 'POST', '/api/orders', paidSale());
    expect(own.body.data.abilities.cancel).toBe(true);
    expect((await call(manager.headers, 'POST', `/api/orders/${own.body.data.id}/cancel`, {})).status).toBe(200);
  });

  it('takes a return at the till with a manager’s approval, and records who approved', async () => {
    const cashier = await signedIn({ roles: ['cashier'] });
    const manager = await signedIn({ roles: ['manager'] });
    const paid = await call(cashier.headers, 'POST', '/api/orders', paidSale());
    const back = {
      items: [{ order_item_id: paid.body.data.items[0].id, quantity: 1 }],
      refund_method: 'cash_usd',
    };
    const url = `/api/orders/${paid.body.data.id}/returns`;
    expect((await call(cashier.headers, 'POST', url, back)).body.code).toBe('approval_required');
    const returned = await call(cashier.headers, 'POST', url, {
      ...back,
      approval: { name: manager.name, password: manager.password },
    });
    expect(returned.status).toBe(200);
    expect(returned.body.data.items[0].returned_quantity).toBe(1);
    const row = await ctx.db
      .selectFrom('order_returns')
      .select(['created_by', 'approved_by'])
      .where('order_id', '=', paid.body.data.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ created_by: cashier.id, approved_by: manager.id });
  });

  it('refuses an approval on its field: a wrong password, a user who may not approve, a manager of another store', async () => {
    const cashier = await signedIn({ roles: ['cashier'] });
    const other = await signedIn({ roles: ['cashier'] });
    const elsewhere = await signedIn({ roles: ['manager'], store: ids.away });
    const disabled = await createUser(ctx.db, { roles: ['manager'], store: ids.home, status: 'inactive' });
    const paid = await call(cashier.headers, 'POST', '/api/orders', paidSale());
    const url = `/api/orders/${paid.body.data.id}/cancel`;
    const attempt = (name: string, password: string) =>
      call(cashier.headers, 'POST', url, { approval: { name, password } });

    expect((await attempt(other.name, 'not-the-password')).body).toEqual({
      message: 'The given data was invalid.',
      errors: { approval: ['Username or password is incorrect.'] },
    });
    expect((await attempt(other.name, other.password)).body.errors).toEqual({
      approval: ['This user may not approve this in this store.'],
    });
    expect((await attempt(elsewhere.name, elsewhere.password)).body.errors).toEqual({
      approval: ['This user may not approve this in this store.'],
    });
    expect((await attempt(disabled.name, disabled.password)).body.errors).toEqual({
      approval: ['This account is disabled. Ask an administrator.'],
    });
    expect((await call(admin, 'GET', `/api/orders/${paid.body.data.id}`)).body.data.status).toBe('confirmed');
  });

  it('throttles wrong approvals like sign-ins, per name', async () => {
    const cashier = await signedIn({ roles: ['cashier'] });
    const manager = await signedIn({ roles: ['manager'] });
    const paid = await call(cashier.headers, 'POST', '/api/orders', paidSale());
    const url = `/api/orders/${paid.body.data.id}/cancel`;
    for (let i = 0; i < 3; i++) {
      const wrong = await call(cashier.headers, 'POST', url, { approval: { name: manager.name, password: 'guess' } });
      expect(wrong.status).toBe(422);
    }
    const throttled = await call(cashier.headers, 'POST', url, {
      approval: { name: manager.name, password: manager.password },
    });
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    // the manager's own sign-in is throttled too: the same counter
    const signIn = await ctx.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { name: manager.name, password: manager.password },
    });
    expect(signIn.statusCode).toBe(429);
  });
});

describe('held orders are their cashier’s', () => {
  it('refuses another cashier’s change or void of a held order; a manager may', async () => {
    const first = await signedIn({ roles: ['cashier'] });
    const second = await signedIn({ roles: ['cashier'] });
    const manager = await signedIn({ roles: ['manager'] });
    const held = await call(first.headers, 'POST', '/api/orders', sale({ hold: true }));
    const url = `/api/orders/${held.body.data.id}`;
    const theirs = await call(second.headers, 'GET', url);
    expect(theirs.body.data.abilities).toMatchObject({ update: false, cancel: false });
    const changed = await call(second.headers, 'PUT', url, sale({ hold: true, note: 'mine now' }));
    expect(changed).toMatchObject({
      status: 403,
      body: { message: 'Only the cashier who held this order, or a manager, may change it.' },
    });
    expect((await call(second.headers, 'POST', `${url}/cancel`, {})).status).toBe(403);
    expect((await call(admin, 'GET', url)).body.data).toMatchObject({ status: 'held', note: null });
    // its own cashier checks it out; a manager could too
    expect((await call(manager.headers, 'GET', url)).body.data.abilities.update).toBe(true);
    const sold = await call(first.headers, 'PUT', url, paidSale());
    expect(sold.body.data).toMatchObject({ status: 'confirmed', payment_status: 'paid' });
  });
});

describe('selling prices and pictures', () => {
  it('lets a stock keeper edit a product but not its selling price, nor delete its picture', async () => {
    const keeper = await signedIn({ roles: ['stock_keeper'] });
    const manager = await signedIn({ roles: ['manager'] });
    const url = `/api/products/${ids.product}`;
    const current = (await call(admin, 'GET', url)).body.data;
    const body = {
      name_en: current.name_en,
      name_kh: current.name_kh,
      sku: current.sku,
      category_id: current.category_id,
      unit_id: current.unit_id,
      price_usd_cents: current.price_usd_cents,
      cost_usd_cents: current.cost_usd_cents,
      taxable: current.taxable,
      reorder_level: 12,
    };
    const repriced = await call(keeper.headers, 'PUT', url, { ...body, price_usd_cents: 1 });
    expect(repriced).toMatchObject({ status: 403, body: { message: 'You may not change selling prices.' } });
    expect((await call(keeper.headers, 'PUT', url, { ...body, price_khr: 900 })).status).toBe(403);
    const edited = await call(keeper.headers, 'PUT', url, body);
    expect(edited.body.data).toMatchObject({ reorder_level: 12, price_usd_cents: 250, cost_usd_cents: 120 });
    expect((await call(keeper.headers, 'DELETE', `${url}/image`)).status).toBe(403);
    // a manager sets prices
    const set = await call(manager.headers, 'PUT', url, { ...body, price_usd_cents: 275 });
    expect(set.body.data.price_usd_cents).toBe(275);
    expect((await call(manager.headers, 'PUT', url, { ...body, price_usd_cents: 250 })).status).toBe(200);
  });

  it('keeps the stored cost when someone who may not see it saves a product', async () => {
    const editor = await signedIn({ permissions: ['products.view', 'products.update', 'prices.update'] });
    const url = `/api/products/${ids.product}`;
    const seen = (await call(editor.headers, 'GET', url)).body.data;
    expect(seen).not.toHaveProperty('cost_usd_cents');
    const { id, created_at, updated_at, deleted_at, ...rest } = seen;
    const saved = await call(editor.headers, 'PUT', url, {
      name_en: rest.name_en,
      name_kh: rest.name_kh,
      sku: rest.sku,
      category_id: rest.category_id,
      unit_id: rest.unit_id,
      price_usd_cents: rest.price_usd_cents,
      taxable: rest.taxable,
      reorder_level: 5,
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data).not.toHaveProperty('cost_usd_cents');
    expect((await call(admin, 'GET', url)).body.data.cost_usd_cents).toBe(120);
  });
});

describe('abilities follow the state', () => {
  it('offers no Cancel on a purchase with a payment, and the server refuses it (409)', async () => {
    const supplier = (await call(admin, 'POST', '/api/suppliers', { name: 'Coffee beans Co' })).body.data.id;
    const unit = (await call(admin, 'GET', `/api/products/${ids.product}`)).body.data.unit_id;
    const purchase = await call(admin, 'POST', '/api/purchases', {
      supplier_id: supplier,
      store_id: ids.home,
      purchase_date: '2026-01-05',
      items: [{ product_id: ids.product, unit_id: unit, quantity: 2, unit_price_cents: 100 }],
    });
    expect(purchase.body.data.abilities).toEqual({
      update: true,
      order: false,
      receive: true,
      pay: true,
      cancel: true,
    });
    const paid = await call(admin, 'POST', `/api/purchases/${purchase.body.data.id}/payments`, {
      amount_cents: 50,
      method: 'cash_usd',
      paid_at: '2026-01-05',
    });
    expect(paid.body.data.abilities.cancel).toBe(false);
    const listed = (await call(admin, 'GET', '/api/purchases?per_page=100')).body.data.find(
      (row: { id: number }) => row.id === purchase.body.data.id,
    );
    expect(listed.abilities).toEqual(paid.body.data.abilities);
    const cancel = await call(admin, 'POST', `/api/purchases/${purchase.body.data.id}/cancel`);
    expect(cancel.status).toBe(409);
  });
});
