import { type Ability, DEFAULT_ROLES } from '@depot/contracts';
import type { InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { AppError, FieldError } from '../http/errors.ts';
import { comboPolicy } from '../policies/combos.ts';
import { EVERY_STORE } from '../policies/coverage.ts';
import { customerPaymentPolicy } from '../policies/credit.ts';
import { orderPolicy } from '../policies/orders.ts';
import { type Actor, assertStoreInput, type Policy } from '../policies/policy.ts';
import { priceListPolicy } from '../policies/prices.ts';
import { assertPaysSuppliers, purchasePolicy } from '../policies/purchases.ts';
import { shiftPolicy } from '../policies/shifts.ts';
import { transferPolicy } from '../policies/transfers.ts';
import { ADMIN_PASSWORD, bearer, createStore, createUser, login, useTestApp } from '../test/harness.ts';

const ctx = useTestApp();

/**
 * Every API route, called by a user of every default role (and by nobody): a route's declared
 * access decides between 401, 403 and getting through. A new route is covered without a new test.
 */
describe('permission matrix', () => {
  it('lists the routes it walks', () => {
    expect(ctx.app.accessTable.map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining([
        'GET /api/me',
        'GET /api/dashboard',
        'GET /api/reports/sales',
        'GET /api/reports/sales/export',
        'GET /api/reports/inventory',
        'GET /api/reports/inventory/export',
        'GET /api/reports/financial',
        'GET /api/reports/financial/export',
        'GET /api/reports/customer',
        'GET /api/reports/customer/export',
        'POST /api/login',
        'GET /api/health',
        'GET /api/products/export',
        'POST /api/products/import',
        'GET /api/purchases',
        'GET /api/purchases/:id',
        'POST /api/purchases',
        'PUT /api/purchases/:id',
        'POST /api/purchases/:id/order',
        'POST /api/purchases/:id/receive',
        'POST /api/purchases/:id/payments',
        'POST /api/purchases/:id/cancel',
        'GET /api/discounts',
        'PUT /api/discounts/:id',
        'GET /api/combos',
        'GET /api/combos/:id',
        'POST /api/combos',
        'POST /api/combos/preview',
        'POST /api/combos/:id/restore',
        'GET /api/exchange-rates/current',
        'GET /api/exchange-rates',
        'POST /api/exchange-rates',
        'GET /api/settings/sale',
        'PUT /api/settings/sale',
        'GET /api/settings',
        'PUT /api/settings',
        'POST /api/settings/:kind',
        'DELETE /api/settings/:kind',
        'GET /api/profile',
        'PUT /api/profile',
        'GET /api/profile/pdf',
        'POST /api/users/:id/image',
        'DELETE /api/users/:id/image',
        'GET /api/notifications',
        'GET /api/samples',
        'POST /api/samples',
        'DELETE /api/samples',
        'GET /api/notifications/unread-count',
        'POST /api/notifications/read-all',
        'POST /api/notifications/:id/archive',
        'DELETE /api/notifications/:id',
        'GET /api/users',
        'GET /api/users/:id',
        'POST /api/users',
        'PUT /api/users/:id',
        'DELETE /api/users/:id',
        'PUT /api/users/:id/status',
        'POST /api/users/:id/password',
        'GET /api/users/:id/coverage',
        'PUT /api/users/:id/coverage',
        'GET /api/coverage/areas',
        'GET /api/permissions',
        'GET /api/roles',
        'GET /api/roles/:id',
        'POST /api/roles',
        'PUT /api/roles/:id',
        'POST /api/roles/:id/reset',
        'DELETE /api/roles/:id',
        'PUT /api/roles/:id/members',
        'GET /api/audit',
        'POST /api/me/password',
      ]),
    );
  });

  // the administrator's POST /api/samples loads the whole sample depot (and DELETE removes it)
  it('answers each role as the route declares', { timeout: 180_000 }, async () => {
    // every default role, and a user who holds no role at all
    const roles = [...DEFAULT_ROLES, { name: 'no role', permissions: [] as readonly string[] }];
    const users = await Promise.all(
      roles.map((role) => createUser(ctx.db, { roles: role.permissions.length ? [role.name] : [] })),
    );
    const tokens: (string | undefined)[] = [];
    // a user's routes act on a user of their own: the walk would otherwise delete or disable the
    // seeded administrator, whom the next suite signs in as
    const victim = await createUser(ctx.db, {});
    for (const route of ctx.app.accessTable) {
      const id = route.url.startsWith('/api/users/:id') ? String(victim.id) : '1';
      const request: InjectOptions = {
        method: route.method as InjectOptions['method'],
        url: route.url.replace(/:(\w+)/g, id),
        payload: route.method === 'GET' ? undefined : {},
      };
      const anonymous = await ctx.app.inject(request);
      const label = `${route.method} ${route.url}`;
      if (route.access === 'public') {
        expect(anonymous.statusCode, label).not.toBe(403);
        expect(anonymous.statusCode, `${label}: ${anonymous.body}`).toBeLessThan(500);
        continue;
      }
      expect(anonymous.statusCode, `${label} without a token`).toBe(401);

      for (const [i, role] of roles.entries()) {
        tokens[i] ??= (await login(ctx.app, users[i].name, users[i].password)).token;
        const res = await ctx.app.inject({ ...request, headers: bearer(tokens[i]) });
        if (route.url === '/api/logout') tokens[i] = undefined; // that sign-in has ended
        const allowed =
          route.access === 'authenticated' || (role.permissions as readonly string[]).includes(route.access);
        // getting through is an answer the client can read: a 5xx is a defect of the route, not a pass
        if (allowed) {
          expect([401, 403], `${label} as ${role.name}`).not.toContain(res.statusCode);
          expect(res.statusCode, `${label} as ${role.name}: ${res.body}`).toBeLessThan(500);
        } else expect(res.statusCode, `${label} as ${role.name}`).toBe(403);
      }
    }
  });
});

/**
 * Row-level and field-level access, for every default role: records of a store the user does not
 * cover are left out of lists, do not exist for a show (404) and refuse every action (404); inputs
 * naming such a store are refused on their field; costs are left out without costs.view.
 */
describe('records of another store, and fields', () => {
  const ids: Record<string, number> = {};
  let admin: Record<string, string>;
  const roles = DEFAULT_ROLES.filter((role) => role.name !== 'administrator');

  const call = async (headers: Record<string, string>, method: string, url: string, payload?: object) => {
    const res = await ctx.app.inject({
      method: method as InjectOptions['method'],
      url,
      headers: { ...headers, 'x-localization': 'en' },
      payload,
    });
    return { status: res.statusCode, body: res.json() };
  };
  const made = async (method: string, url: string, payload: object) => {
    const res = await call(admin, method, url, payload);
    if (res.status >= 300) throw new Error(`${url}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data;
  };
  const sale = (over: object = {}) => ({
    store_id: ids.away,
    customer_id: ids.walkIn,
    items: [{ product_id: ids.product, quantity: 1 }],
    ...over,
  });
  const purchaseBody = () => ({
    supplier_id: ids.supplier,
    store_id: ids.away,
    purchase_date: '2026-01-05',
    items: [{ product_id: ids.product, unit_id: ids.unit, quantity: 2, unit_price_cents: 60 }],
  });
  const transferBody = () => ({
    from_store_id: ids.away,
    to_store_id: ids.third,
    items: [{ product_id: ids.product, unit_id: ids.unit, quantity: 1 }],
  });

  beforeAll(async () => {
    admin = bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token);
    ids.home = (await ctx.db.selectFrom('stores').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    ids.away = await createStore(ctx.db, 'AWAY');
    ids.third = await createStore(ctx.db, 'THIRD');
    ids.walkIn = (
      await ctx.db.selectFrom('customers').select('id').where('is_walk_in', '=', 1).executeTakeFirstOrThrow()
    ).id;
    ids.category = (await made('POST', '/api/categories', { name_en: 'Matrix', name_kh: 'ម៉ាទ្រីស' })).id;
    ids.unit = (await made('POST', '/api/units', { name_en: 'Bottle', name_kh: 'ដប', short_name: 'btl' })).id;
    ids.product = (
      await made('POST', '/api/products', {
        name_en: 'Matrix water',
        name_kh: 'ទឹកម៉ាទ្រីស',
        sku: 'MATRIX-1',
        category_id: ids.category,
        unit_id: ids.unit,
        price_usd_cents: 100,
        cost_usd_cents: 60,
        taxable: false,
      })
    ).id;
    ids.supplier = (await made('POST', '/api/suppliers', { name: 'Matrix supplies' })).id;
    for (const store of [ids.home, ids.away]) {
      await made('POST', '/api/stocks/adjustments', {
        store_id: store,
        reason: 'found',
        items: [{ product_id: ids.product, quantity: 100 }],
      });
    }
    const paid = await made('POST', '/api/orders', sale({ payments: [{ method: 'cash_usd', amount: 100 }] }));
    ids.paid = paid.id;
    ids.paidItem = paid.items[0].id;
    // sold on credit to a customer given a limit (no limit, no credit)
    ids.shop = (await made('POST', '/api/customers', { name: 'Away shop', credit_limit_cents: 100_000 })).id;
    ids.unpaid = (
      await made('POST', '/api/orders', sale({ customer_id: ids.shop, delivery: { shipping_address: 'Street 1' } }))
    ).id;
    ids.held = (await made('POST', '/api/orders', sale({ hold: true }))).id;
    ids.purchase = (await made('POST', '/api/purchases', purchaseBody())).id;
    ids.transfer = (await made('POST', '/api/stock-transfers', transferBody())).id;
    // a shift of the other store (its cashier's), and a payment on account taken there
    const away = await createUser(ctx.db, { roles: ['cashier'], store: ids.away });
    const asAway = bearer((await login(ctx.app, away.name, away.password)).token);
    const opened = await call(asAway, 'POST', '/api/shifts', {
      store_id: ids.away,
      till: 'Away till',
      float: { usd: [{ value: 100, count: 1 }], khr: [] },
    });
    ids.shift = opened.body.data.id;
    const owed = await made('POST', '/api/orders', sale({ customer_id: ids.shop }));
    ids.customerPayment = (
      await made('POST', `/api/customers/${ids.shop}/payments`, {
        store_id: ids.away,
        method: 'bank_transfer',
        transaction_id: 'AWAY-1',
        amount: 10,
        order_ids: [owed.id],
      })
    ).id;
  });

  /** Each action on a document, with a body its route accepts: a new one must be added here. */
  const ACTIONS: Record<string, () => { id: number; body?: object }> = {
    'PUT /api/orders/:id': () => ({ id: ids.held, body: sale() }),
    'POST /api/orders/:id/payments': () => ({
      id: ids.unpaid,
      body: { payments: [{ method: 'cash_usd', amount: 100 }] },
    }),
    'POST /api/orders/:id/cancel': () => ({ id: ids.paid, body: {} }),
    'POST /api/orders/:id/returns': () => ({
      id: ids.paid,
      body: { items: [{ order_item_id: ids.paidItem, quantity: 1 }], refund_method: 'cash_usd' },
    }),
    'POST /api/orders/:id/delivery': () => ({ id: ids.unpaid, body: { status: 'preparing_done' } }),
    'POST /api/orders/:id/khqr': () => ({ id: ids.unpaid, body: { currency: 'USD' } }),
    'POST /api/orders/:id/khqr/check': () => ({ id: ids.unpaid, body: {} }),
    'POST /api/orders/:id/khqr/transfer': () => ({ id: ids.unpaid, body: { hash: 'deadbeef', currency: 'USD' } }),
    'POST /api/orders/:id/khqr/offline': () => ({
      id: ids.unpaid,
      body: { payload: '0002010102122917'.padEnd(40, '0'), md5: 'a'.repeat(32) },
    }),
    'PUT /api/purchases/:id': () => ({ id: ids.purchase, body: purchaseBody() }),
    'POST /api/purchases/:id/order': () => ({ id: ids.purchase }),
    'POST /api/purchases/:id/receive': () => ({ id: ids.purchase, body: { items: [{ item_id: 1, quantity: 1 }] } }),
    'POST /api/purchases/:id/payments': () => ({
      id: ids.purchase,
      body: { amount_cents: 10, method: 'cash_usd', paid_at: '2026-01-05' },
    }),
    'POST /api/purchases/:id/cancel': () => ({ id: ids.purchase }),
    'PUT /api/stock-transfers/:id': () => ({ id: ids.transfer, body: transferBody() }),
    'POST /api/stock-transfers/:id/send': () => ({ id: ids.transfer }),
    'POST /api/stock-transfers/:id/receive': () => ({ id: ids.transfer }),
    'POST /api/stock-transfers/:id/cancel': () => ({ id: ids.transfer }),
    'POST /api/shifts/:id/movements': () => ({
      id: ids.shift,
      body: { kind: 'pay_in', currency: 'usd', amount: 100, reason: 'change for the till' },
    }),
    'POST /api/shifts/:id/close': () => ({ id: ids.shift, body: { counted: { usd: [], khr: [] } } }),
    'POST /api/shifts/:id/khqr/check': () => ({ id: ids.shift }),
  };
  const DETAILS: Record<string, () => number> = {
    '/api/orders/:id': () => ids.paid,
    '/api/orders/:id/khqr': () => ids.paid,
    '/api/purchases/:id': () => ids.purchase,
    '/api/stock-transfers/:id': () => ids.transfer,
    '/api/shifts/:id': () => ids.shift,
    '/api/shifts/:id/report/pdf': () => ids.shift,
    '/api/shifts/:id/khqr': () => ids.shift,
    '/api/customer-payments/:id': () => ids.customerPayment,
  };

  it('walks every action of a document', () => {
    const documentRoutes = ctx.app.accessTable
      .filter((r) => r.method !== 'GET' && /^\/api\/(orders|purchases|stock-transfers|shifts)\/:id/.test(r.url))
      .map((r) => `${r.method} ${r.url}`);
    expect(documentRoutes.sort()).toEqual(Object.keys(ACTIONS).sort());
  });

  it('leaves them out of every list, for every role but the administrator', { timeout: 60_000 }, async () => {
    const lists = [
      ['/api/orders?per_page=100', 'orders.list', ids.paid],
      ['/api/invoices?per_page=100', 'invoices.list', null],
      ['/api/purchases?per_page=100', 'purchases.list', ids.purchase],
      ['/api/stock-transfers?per_page=100', 'stocks.list', ids.transfer],
      ['/api/shifts?per_page=100', 'shifts.list', ids.shift],
      [`/api/stocks/levels?per_page=100&filter[store_id]=${ids.away}`, 'stocks.list', null],
      [`/api/stocks/movements?per_page=100&filter[store_id]=${ids.away}`, 'stocks.view', null],
      [`/api/stocks/batches?per_page=100&filter[store_id]=${ids.away}&filter[expiring_days]=3650`, 'stocks.list', null],
    ] as const;
    // the administrator sees every store's
    for (const [url, , id] of lists) {
      const all = await call(admin, 'GET', url);
      expect(all.status, url).toBe(200);
      if (id)
        expect(
          all.body.data.map((r: { id: number }) => r.id),
          url,
        ).toContain(id);
    }
    expect((await call(admin, 'GET', `/api/stocks/levels?filter[store_id]=${ids.away}`)).body.meta.total).toBe(1);
    for (const role of roles) {
      const user = await createUser(ctx.db, { roles: [role.name], store: ids.home });
      const headers = bearer((await login(ctx.app, user.name, user.password)).token);
      for (const [url, permission] of lists) {
        const res = await call(headers, 'GET', url);
        const label = `${role.name} ${url}`;
        if (!(role.permissions as readonly string[]).includes(permission)) {
          expect(res.status, label).toBe(403);
          continue;
        }
        if (url.startsWith('/api/purchases') && !(role.permissions as readonly string[]).includes('costs.view')) {
          expect(res.status, label).toBe(403);
          continue;
        }
        expect(res.status, label).toBe(200);
        const rows: { store_id?: number; from_store_id?: number; to_store_id?: number }[] = res.body.data;
        for (const row of rows) {
          expect([row.store_id, row.from_store_id, row.to_store_id], label).not.toContain(ids.away);
        }
        // the count agrees with the rows: the scope is in the query
        expect(res.body.meta.total, label).toBe(rows.length);
      }
    }
  });

  it('answers 404 for their details and every action, and 403 without the permission', {
    timeout: 60_000,
  }, async () => {
    for (const role of roles) {
      const user = await createUser(ctx.db, { roles: [role.name], store: ids.home });
      const headers = bearer((await login(ctx.app, user.name, user.password)).token);
      const holds = (permission: string) => (role.permissions as readonly string[]).includes(permission);
      for (const route of ctx.app.accessTable) {
        const label = `${role.name} ${route.method} ${route.url}`;
        const key = `${route.method} ${route.url}`;
        const action = ACTIONS[key]?.() ?? (route.method === 'GET' && route.url in DETAILS ? null : undefined);
        if (action === undefined) continue;
        const id = action?.id ?? DETAILS[route.url]();
        const res = await call(headers, route.method, route.url.replace(':id', String(id)), action?.body);
        if (!holds(route.access)) expect(res.status, label).toBe(403);
        else if (route.url.startsWith('/api/purchases') && !holds('costs.view')) expect(res.status, label).toBe(403);
        else expect(res.status, label).toBe(404);
      }
    }
    // nothing of the other store moved
    const paid = await call(admin, 'GET', `/api/orders/${ids.paid}`);
    expect(paid.body.data).toMatchObject({ status: 'confirmed', payment_status: 'paid' });
    expect((await call(admin, 'GET', `/api/stock-transfers/${ids.transfer}`)).body.data.status).toBe('draft');
    expect((await call(admin, 'GET', `/api/purchases/${ids.purchase}`)).body.data.status).toBe('ordered');
    const shift = (await call(admin, 'GET', `/api/shifts/${ids.shift}`)).body.data;
    expect(shift).toMatchObject({ status: 'open', usd: { pay_ins: 0 } });
  });

  it('refuses inputs naming a store the user does not cover, on their field', async () => {
    const cashier = await createUser(ctx.db, { roles: ['cashier'], store: ids.home });
    const keeper = await createUser(ctx.db, { roles: ['stock_keeper'], store: ids.home });
    const asCashier = bearer((await login(ctx.app, cashier.name, cashier.password)).token);
    const asKeeper = bearer((await login(ctx.app, keeper.name, keeper.password)).token);
    const notHere = ['You do not work in this store.'];
    const sold = await call(asCashier, 'POST', '/api/orders', sale());
    expect(sold).toMatchObject({ status: 422, body: { errors: { store_id: notHere } } });
    // the home store is the till's default (a held cart: the walk-in customer has no credit)
    const home = await call(asCashier, 'POST', '/api/orders', sale({ store_id: null, hold: true }));
    expect(home.status).toBe(201);
    expect(home.body.data.store_id).toBe(ids.home);
    expect((await call(asKeeper, 'POST', '/api/purchases', purchaseBody())).body.errors).toEqual({ store_id: notHere });
    expect((await call(asKeeper, 'POST', '/api/stock-transfers', transferBody())).body.errors).toEqual({
      from_store_id: notHere,
    });
    // a transfer to a store one does not cover is fine: it is the receiving store's to receive
    const out = await call(asKeeper, 'POST', '/api/stock-transfers', { ...transferBody(), from_store_id: ids.home });
    expect(out.status).toBe(201);
    expect(out.body.data.abilities).toEqual({ update: true, send: true, receive: false, cancel: true });
    const adjusted = await call(asKeeper, 'POST', '/api/stocks/adjustments', {
      store_id: ids.away,
      reason: 'found',
      items: [{ product_id: ids.product, quantity: 1 }],
    });
    expect(adjusted.body.errors).toEqual({ store_id: notHere });
    // a payment on account is taken in a store of one's own
    const manager = await createUser(ctx.db, { roles: ['manager'], store: ids.home });
    const asManager = bearer((await login(ctx.app, manager.name, manager.password)).token);
    const onAccount = await call(asManager, 'POST', `/api/customers/${ids.shop}/payments`, {
      store_id: ids.away,
      method: 'bank_transfer',
      transaction_id: 'AWAY-2',
      amount: 1,
    });
    expect(onAccount).toMatchObject({ status: 422, body: { errors: { store_id: notHere } } });
    // the till's stock figures: of the user's own stores only
    const stock = await call(asCashier, 'GET', `/api/products?stock_store=${ids.away}`);
    expect(stock).toMatchObject({ status: 422, body: { errors: { stock_store: notHere } } });
    expect((await call(asCashier, 'GET', `/api/products/${ids.product}?stock_store=${ids.away}`)).status).toBe(422);
    expect((await call(asCashier, 'GET', `/api/products?stock_store=${ids.home}`)).status).toBe(200);
    // a user who also covers the other store works there
    const both = await createUser(ctx.db, { roles: ['cashier'], store: ids.home, covers: [ids.away] });
    const asBoth = bearer((await login(ctx.app, both.name, both.password)).token);
    expect((await call(asBoth, 'POST', '/api/orders', sale({ hold: true }))).status).toBe(201);
    expect((await call(asBoth, 'GET', `/api/orders/${ids.paid}`)).status).toBe(200);
  });

  it('leaves costs out for those without costs.view: products, their export, combos, stock values', async () => {
    const cashier = await createUser(ctx.db, { roles: ['cashier'], store: ids.home });
    const asCashier = bearer((await login(ctx.app, cashier.name, cashier.password)).token);
    const listed = await call(asCashier, 'GET', '/api/products?search=MATRIX');
    expect(listed.body.data[0]).toMatchObject({ sku: 'MATRIX-1', price_usd_cents: 100 });
    expect(listed.body.data[0]).not.toHaveProperty('cost_usd_cents');
    const shown = await call(asCashier, 'GET', `/api/products/${ids.product}`);
    expect(shown.body.data).not.toHaveProperty('cost_usd_cents');
    const exported = await ctx.app.inject({
      method: 'GET',
      url: '/api/products/export?format=csv&search=MATRIX',
      headers: asCashier,
    });
    const [header, row] = exported.body.replace(/^\uFEFF/, '').split('\r\n');
    expect(header.split(',')).not.toContain('cost_usd');
    expect(row).toContain('MATRIX-1');
    // a stock keeper enters purchase costs: they see them
    const keeper = await createUser(ctx.db, { roles: ['stock_keeper'], store: ids.home });
    const asKeeper = bearer((await login(ctx.app, keeper.name, keeper.password)).token);
    expect((await call(asKeeper, 'GET', `/api/products/${ids.product}`)).body.data.cost_usd_cents).toBe(60);

    await made('POST', '/api/combos', {
      name_en: 'Matrix pair',
      name_kh: 'គូម៉ាទ្រីស',
      sku: 'MATRIX-PAIR',
      selling_price_cents: 180,
      items: [{ product_id: ids.product, quantity: 2 }],
    });
    const combos = await call(asCashier, 'GET', '/api/combos?search=MATRIX');
    expect(combos.body.data[0]).toMatchObject({ sku: 'MATRIX-PAIR', price_cents: 200 });
    for (const field of ['total_cost_cents', 'profit_cents', 'margin_bp']) {
      expect(combos.body.data[0]).not.toHaveProperty(field);
    }
    expect(combos.body.data[0].abilities).toEqual({ update: false, delete: false, restore: false });
    expect((await call(asCashier, 'GET', '/api/combos?sort=-margin')).status).toBe(422);
    const detail = await call(asCashier, 'GET', `/api/combos/${combos.body.data[0].id}`);
    expect(detail.body.data.items[0]).not.toHaveProperty('cost_cents');

    const counter = await createUser(ctx.db, { permissions: ['stocks.list', 'stocks.view'], store: ids.home });
    const asCounter = bearer((await login(ctx.app, counter.name, counter.password)).token);
    const level = (await call(asCounter, 'GET', '/api/stocks/levels?search=MATRIX')).body.data[0];
    expect(level).toMatchObject({ store_id: ids.home, quantity: expect.any(Number) });
    expect(level).not.toHaveProperty('value_cents');
    expect(level).not.toHaveProperty('average_cost_cents');
    const moves = (await call(asCounter, 'GET', `/api/stocks/movements?filter[product_id]=${ids.product}`)).body.data;
    expect(moves.length).toBeGreaterThan(0);
    for (const move of moves) expect(move).not.toHaveProperty('value_cents');
  });
});

/** What the policy says of an action: 'ok', or the status of its refusal (a field's refusal is a 422). */
function outcome(decide: () => unknown): 'ok' | number {
  try {
    decide();
    return 'ok';
  } catch (error) {
    if (error instanceof FieldError) return 422;
    if (error instanceof AppError) return error.statusCode;
    throw error;
  }
}

/**
 * Every action of every document, for every default role, on records of the user's own store.
 * The answer expected is not written here: it is what the server's policy says for that user and
 * that record (`abilities` and `authorize`, the functions the routes call), so a rule changed in
 * apps/server/src/policies changes what this walk expects, and only a route that does otherwise
 * fails it. Besides, the abilities a user is sent with the record are the policy's, an action is
 * allowed exactly when its ability is true, 'approval' answers 403 `approval_required`, and a route
 * whose permission the user lacks answers 403 and is never offered as an ability.
 */
describe('every action of every document, as each role', () => {
  type Headers = Record<string, string>;
  const ids: Record<string, number> = {};
  let admin: Headers;
  let serial = 0;
  const unique = () => `${++serial}`;

  const call = async (headers: Headers, method: string, url: string, payload?: object) => {
    const res = await ctx.app.inject({
      method: method as InjectOptions['method'],
      url,
      headers: { ...headers, 'x-localization': 'en' },
      payload,
    });
    const json = String(res.headers['content-type'] ?? '').includes('json');
    return { status: res.statusCode, body: json ? res.json() : res.body };
  };
  const made = async (headers: Headers, method: string, url: string, payload?: object) => {
    const res = await call(headers, method, url, payload);
    if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data;
  };

  /** A signed-in user of a role, working in the home store, and the server's actor for them. */
  interface Who {
    role: (typeof DEFAULT_ROLES)[number];
    headers: Headers;
    actor: Actor;
    holds(permission: string): boolean;
  }
  const signIn = async (role: (typeof DEFAULT_ROLES)[number]): Promise<Who> => {
    const user = await createUser(ctx.db, { roles: [role.name], store: ids.home });
    const permissions = new Set<string>(role.permissions);
    return {
      role,
      headers: bearer((await login(ctx.app, user.name, user.password)).token),
      actor: {
        userId: user.id,
        storeId: ids.home,
        permissions,
        coverage: permissions.has('all_stores.view') ? EVERY_STORE : { all: false, storeIds: [ids.home] },
      },
      holds: (permission) => permission === 'authenticated' || permissions.has(permission),
    };
  };

  // biome-ignore lint/suspicious/noExplicitAny: each document's policy reads its own facts
  type AnyPolicy = Policy<any, string>;
  /** One action on one record: a document's (its ability and rule), or a route whose policy is a check. */
  interface Step {
    route: string;
    id: number;
    body?: object;
    /** A document: its policy, the action's name, and the detail it is read from. */
    policy?: AnyPolicy;
    action?: string;
    detail?: string;
    /** The facts, when the detail does not show them (a deleted record). */
    facts?: object;
    /** A route without abilities: the policy check it makes. */
    check?: (actor: Actor) => unknown;
    note?: string;
  }

  const accessOf = (route: string) => {
    const found = ctx.app.accessTable.find((r) => `${r.method} ${r.url}` === route);
    if (!found) throw new Error(`no route ${route}`);
    return found.access;
  };
  const walked = new Set<string>();

  /** The document actions taken, to be taken again once their records have moved on. */
  let taken: Step[] = [];

  /**
   * The action as `who`, expecting what the policy says. `again`: the same action on the record as
   * it is now (cancelled, received, closed, deleted…), walked only where the policy refuses it: a
   * state's refusal must be the policy's 409 / 422 / 404 too, never a 5xx.
   */
  async function act(who: Who, step: Step, again = false) {
    walked.add(step.route);
    if (step.policy && !again) taken.push(step);
    const [method, url] = step.route.split(' ');
    const at = (path: string) => path.replace(':id', String(step.id));
    const label = `${who.role.name} ${step.route}${step.note ? ` (${step.note})` : ''}${again ? ' again' : ''}`;
    let expected: 'ok' | number;
    let ability: Ability | undefined;
    if (step.policy && step.action && step.detail) {
      const facts = step.facts ?? (await made(admin, 'GET', at(step.detail)));
      const abilities = step.policy.abilities(who.actor, facts);
      ability = abilities[step.action];
      const seen = await call(who.headers, 'GET', at(step.detail));
      if (seen.status === 200) expect(seen.body.data.abilities, `${label}: the abilities sent`).toEqual(abilities);
      expected = outcome(() => step.policy?.authorize(who.actor, facts, step.action as string));
      expect(ability === true, `${label}: the ability and the rule`).toBe(expected === 'ok');
    } else if (step.check) {
      const check = step.check;
      expected = outcome(() => check(who.actor));
    } else throw new Error(`${label}: neither a policy nor a check`);
    if (again && expected === 'ok') return;

    const res = await call(who.headers, method, at(url), step.body);
    const answer = `${label}: ${res.status} ${JSON.stringify(res.body)}`;
    expect(res.status, answer).toBeLessThan(500);
    if (!who.holds(accessOf(step.route))) {
      expect(res.status, answer).toBe(403);
      if (ability !== undefined) expect(ability, `${label}: offered without the route's permission`).toBe(false);
    } else if (expected === 'ok') expect(res.status, answer).toBeLessThan(300);
    else {
      expect(res.status, answer).toBe(expected);
      if (ability === 'approval') expect(res.body.code, answer).toBe('approval_required');
    }
  }

  const sale = (over: object = {}) => ({
    store_id: ids.home,
    customer_id: ids.walkIn,
    items: [{ product_id: ids.product, quantity: 1 }],
    ...over,
  });
  const purchaseBody = (over: object = {}) => ({
    supplier_id: ids.supplier,
    store_id: ids.home,
    purchase_date: '2026-01-05',
    items: [{ product_id: ids.product, unit_id: ids.unit, quantity: 2, unit_price_cents: 60 }],
    ...over,
  });
  const transferBody = (from = ids.home, to = ids.other) => ({
    from_store_id: from,
    to_store_id: to,
    items: [{ product_id: ids.product, unit_id: ids.unit, quantity: 1 }],
  });
  const float = { usd: [{ value: 100, count: 5 }], khr: [] };
  const comboBody = () => ({
    name_en: `Walk pair ${unique()}`,
    name_kh: 'គូដើរ',
    sku: `WALK-PAIR-${serial}`,
    selling_price_cents: 180,
    items: [{ product_id: ids.product, quantity: 2 }],
  });
  const priceBody = () => ({ scope: 'category', category_id: ids.category, off_bp: 500, min_quantity: 2 + serial++ });

  beforeAll(async () => {
    admin = bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token);
    ids.home = await createStore(ctx.db, 'WALKHOME');
    ids.other = await createStore(ctx.db, 'WALKOTHER');
    ids.walkIn = (
      await ctx.db.selectFrom('customers').select('id').where('is_walk_in', '=', 1).executeTakeFirstOrThrow()
    ).id;
    ids.category = (await made(admin, 'POST', '/api/categories', { name_en: 'Walk', name_kh: 'ដើរ' })).id;
    ids.unit = (await made(admin, 'POST', '/api/units', { name_en: 'Jar', name_kh: 'ពាង', short_name: 'jar' })).id;
    ids.product = (
      await made(admin, 'POST', '/api/products', {
        name_en: 'Walk water',
        name_kh: 'ទឹកដើរ',
        sku: 'WALK-1',
        category_id: ids.category,
        unit_id: ids.unit,
        price_usd_cents: 100,
        cost_usd_cents: 60,
        taxable: false,
      })
    ).id;
    ids.supplier = (await made(admin, 'POST', '/api/suppliers', { name: 'Walk supplies' })).id;
    ids.customer = (
      await made(admin, 'POST', '/api/customers', {
        name: 'Walk shop',
        credit_limit_cents: 1_000_000,
        payment_terms_days: 30,
      })
    ).id;
    for (const store of [ids.home, ids.other]) {
      await made(admin, 'POST', '/api/stocks/adjustments', {
        store_id: store,
        reason: 'found',
        items: [{ product_id: ids.product, quantity: 1000 }],
      });
    }
    // what the customer owes at the home store, and what the depot owes the supplier there
    await made(
      admin,
      'POST',
      '/api/orders',
      sale({ customer_id: ids.customer, items: [{ product_id: ids.product, quantity: 20 }] }),
    );
    await made(
      admin,
      'POST',
      '/api/purchases',
      purchaseBody({ items: [{ product_id: ids.product, unit_id: ids.unit, quantity: 20, unit_price_cents: 60 }] }),
    );
    ids.customerPayment = (
      await made(admin, 'POST', `/api/customers/${ids.customer}/payments`, {
        store_id: ids.home,
        method: 'bank_transfer',
        transaction_id: 'WALK-0',
        amount: 1,
      })
    ).id;
  });

  it('walks every document route there is', () => {
    const documentRoutes = ctx.app.accessTable
      .filter(
        (r) =>
          r.method !== 'GET' &&
          /^\/api\/(orders|purchases|stock-transfers|shifts|combos|price-lists|customer-payments)\/:id|^\/api\/(customers|suppliers)\/:id\/payments/.test(
            r.url,
          ),
      )
      .map((r) => `${r.method} ${r.url}`)
      // a KHQR is asked of the bank: it is walked for records of another store only (above)
      .filter((route) => !route.includes('/khqr'));
    expect(documentRoutes.sort()).toEqual([...DOCUMENT_ROUTES].sort());
  });

  /** Every action below, for each default role: a new record for each, made by the administrator. */
  const DOCUMENT_ROUTES = [
    'PUT /api/orders/:id',
    'POST /api/orders/:id/payments',
    'POST /api/orders/:id/cancel',
    'POST /api/orders/:id/returns',
    'POST /api/orders/:id/delivery',
    'PUT /api/purchases/:id',
    'POST /api/purchases/:id/order',
    'POST /api/purchases/:id/receive',
    'POST /api/purchases/:id/payments',
    'POST /api/purchases/:id/cancel',
    'PUT /api/stock-transfers/:id',
    'POST /api/stock-transfers/:id/send',
    'POST /api/stock-transfers/:id/receive',
    'POST /api/stock-transfers/:id/cancel',
    'POST /api/shifts/:id/movements',
    'POST /api/shifts/:id/close',
    'PUT /api/combos/:id',
    'DELETE /api/combos/:id',
    'POST /api/combos/:id/restore',
    'PUT /api/price-lists/:id',
    'DELETE /api/price-lists/:id',
    'POST /api/price-lists/:id/restore',
    'POST /api/customers/:id/payments',
    'POST /api/suppliers/:id/payments',
  ] as const;

  it('answers each action as the policy says, and sends the abilities the route honours', {
    timeout: 240_000,
  }, async () => {
    for (const role of DEFAULT_ROLES) {
      const who = await signIn(role);
      taken = [];

      // orders: a held cart (the administrator's, and the user's own when they sell), a paid sale,
      // an unpaid delivery
      const order = { policy: orderPolicy, detail: '/api/orders/:id' };
      const held = async (headers: Headers) =>
        (await call(headers, 'POST', '/api/orders', sale({ hold: true }))).body.data?.id;
      const paid = async () =>
        made(admin, 'POST', '/api/orders', sale({ payments: [{ method: 'cash_usd', amount: 100 }] }));
      const unpaid = async () =>
        (
          await made(
            admin,
            'POST',
            '/api/orders',
            sale({ customer_id: ids.customer, delivery: { shipping_address: 'Street 2' } }),
          )
        ).id;
      await act(who, {
        ...order,
        route: 'PUT /api/orders/:id',
        action: 'update',
        id: await held(admin),
        body: sale(),
        note: 'another’s cart',
      });
      const own = await held(who.headers);
      if (own)
        await act(who, {
          ...order,
          route: 'PUT /api/orders/:id',
          action: 'update',
          id: own,
          // paid at checkout: the walk-in customer has no credit (issue 26)
          body: sale({ payments: [{ method: 'cash_usd', amount: 1000 }] }),
          note: 'own cart',
        });
      await act(who, {
        ...order,
        route: 'POST /api/orders/:id/payments',
        action: 'pay',
        id: await unpaid(),
        body: { payments: [{ method: 'cash_usd', amount: 100 }] },
      });
      await act(who, {
        ...order,
        route: 'POST /api/orders/:id/cancel',
        action: 'cancel',
        id: (await paid()).id,
        body: {},
        note: 'paid',
      });
      await act(who, {
        ...order,
        route: 'POST /api/orders/:id/cancel',
        action: 'cancel',
        id: await unpaid(),
        body: {},
        note: 'unpaid',
      });
      await act(who, {
        ...order,
        route: 'POST /api/orders/:id/cancel',
        action: 'cancel',
        id: await held(admin),
        body: {},
        note: 'another’s cart',
      });
      const sold = await paid();
      await act(who, {
        ...order,
        route: 'POST /api/orders/:id/returns',
        action: 'return',
        id: sold.id,
        body: { items: [{ order_item_id: sold.items[0].id, quantity: 1 }], refund_method: 'cash_usd' },
      });
      await act(who, {
        ...order,
        route: 'POST /api/orders/:id/delivery',
        action: 'deliver',
        id: await unpaid(),
        body: { status: 'preparing_done' },
      });

      // purchases: a draft and an order
      const purchase = { policy: purchasePolicy, detail: '/api/purchases/:id' };
      const draft = async () => (await made(admin, 'POST', '/api/purchases', purchaseBody({ ordered: false }))).id;
      const ordered = async () => made(admin, 'POST', '/api/purchases', purchaseBody());
      await act(who, {
        ...purchase,
        route: 'PUT /api/purchases/:id',
        action: 'update',
        id: await draft(),
        body: purchaseBody({ ordered: false }),
      });
      await act(who, { ...purchase, route: 'POST /api/purchases/:id/order', action: 'order', id: await draft() });
      const toReceive = await ordered();
      await act(who, {
        ...purchase,
        route: 'POST /api/purchases/:id/receive',
        action: 'receive',
        id: toReceive.id,
        body: { items: [{ item_id: toReceive.items[0].id, quantity: 1 }] },
      });
      await act(who, {
        ...purchase,
        route: 'POST /api/purchases/:id/payments',
        action: 'pay',
        id: (await ordered()).id,
        body: { amount_cents: 10, method: 'cash_usd', paid_at: '2026-01-05' },
      });
      await act(who, {
        ...purchase,
        route: 'POST /api/purchases/:id/cancel',
        action: 'cancel',
        id: (await ordered()).id,
      });

      // transfers: out of the home store (a draft), and into it (sent from the other store)
      const transfer = { policy: transferPolicy, detail: '/api/stock-transfers/:id' };
      const out = async () => (await made(admin, 'POST', '/api/stock-transfers', transferBody())).id;
      await act(who, {
        ...transfer,
        route: 'PUT /api/stock-transfers/:id',
        action: 'update',
        id: await out(),
        body: transferBody(),
      });
      await act(who, { ...transfer, route: 'POST /api/stock-transfers/:id/send', action: 'send', id: await out() });
      await act(who, { ...transfer, route: 'POST /api/stock-transfers/:id/cancel', action: 'cancel', id: await out() });
      const inbound = (await made(admin, 'POST', '/api/stock-transfers', transferBody(ids.other, ids.home))).id;
      await made(admin, 'POST', `/api/stock-transfers/${inbound}/send`);
      await act(who, { ...transfer, route: 'POST /api/stock-transfers/:id/receive', action: 'receive', id: inbound });

      // shifts: a cashier's of the home store, and the user's own when they may open one
      const shift = { policy: shiftPolicy, detail: '/api/shifts/:id' };
      const cashier = await signIn(DEFAULT_ROLES.find((r) => r.name === 'cashier') as (typeof DEFAULT_ROLES)[number]);
      const open = async (headers: Headers) =>
        (await call(headers, 'POST', '/api/shifts', { store_id: ids.home, till: `Walk ${unique()}`, float })).body.data
          ?.id;
      const shifts: [number | undefined, string][] = [
        [await open(cashier.headers), 'a cashier’s'],
        [await open(who.headers), 'own'],
      ];
      for (const [id, note] of shifts) {
        if (!id) continue;
        await act(who, {
          ...shift,
          route: 'POST /api/shifts/:id/movements',
          action: 'move',
          id,
          body: { kind: 'pay_in', currency: 'usd', amount: 100, reason: 'change for the till' },
          note,
        });
        const movedIn = (await made(admin, 'GET', `/api/shifts/${id}`)).usd.pay_ins;
        await act(who, {
          ...shift,
          route: 'POST /api/shifts/:id/close',
          action: 'close',
          id,
          body: { counted: { usd: [{ value: 100, count: 5 + movedIn / 100 }], khr: [] } },
          note,
        });
      }

      // combos: a live one and a deleted one
      const combo = { policy: comboPolicy, detail: '/api/combos/:id' };
      const live = async () => (await made(admin, 'POST', '/api/combos', comboBody())).id;
      await act(who, { ...combo, route: 'PUT /api/combos/:id', action: 'update', id: await live(), body: comboBody() });
      await act(who, { ...combo, route: 'DELETE /api/combos/:id', action: 'delete', id: await live() });
      const gone = await live();
      await made(admin, 'DELETE', `/api/combos/${gone}`);
      await act(who, {
        ...combo,
        route: 'POST /api/combos/:id/restore',
        action: 'restore',
        id: gone,
        facts: { deleted_at: 'deleted' },
      });

      // price lists: no abilities; writing one needs prices.update (priceListPolicy)
      const priced = async () => (await made(admin, 'POST', '/api/price-lists', priceBody())).id;
      const prices = { check: (actor: Actor) => priceListPolicy.authorize(actor) };
      await act(who, { ...prices, route: 'PUT /api/price-lists/:id', id: await priced(), body: priceBody() });
      await act(who, { ...prices, route: 'DELETE /api/price-lists/:id', id: await priced() });
      const unlisted = await priced();
      await made(admin, 'DELETE', `/api/price-lists/${unlisted}`);
      await act(who, { ...prices, route: 'POST /api/price-lists/:id/restore', id: unlisted });

      // payments on account: a customer's, taken in the home store; a supplier's, over its purchases
      await act(who, {
        route: 'POST /api/customers/:id/payments',
        id: ids.customer,
        body: { store_id: ids.home, method: 'bank_transfer', transaction_id: `WALK-${unique()}`, amount: 1 },
        check: (actor) => assertStoreInput(actor, 'store_id', ids.home),
      });
      await act(who, {
        route: 'POST /api/suppliers/:id/payments',
        id: ids.supplier,
        body: { amount_cents: 1, method: 'bank_transfer', paid_at: '2026-01-05' },
        check: (actor) => assertPaysSuppliers(actor),
      });
      // each document action again, on its record as the walk left it
      for (const step of taken.filter((step) => !step.facts)) await act(who, step, true);

      // a payment on account has no action; who sees it is customerPaymentPolicy's
      const payment = await call(who.headers, 'GET', `/api/customer-payments/${ids.customerPayment}`);
      const facts = await made(admin, 'GET', `/api/customer-payments/${ids.customerPayment}`);
      const label = `${role.name} GET /api/customer-payments/:id`;
      if (!who.holds(accessOf('GET /api/customer-payments/:id'))) expect(payment.status, label).toBe(403);
      else if (!customerPaymentPolicy.visible(who.actor, facts)) expect(payment.status, label).toBe(404);
      else {
        expect(payment.status, label).toBe(200);
        expect(payment.body.data.abilities, label).toEqual(customerPaymentPolicy.abilities(who.actor, facts));
      }
    }
    expect([...walked].sort()).toEqual([...DOCUMENT_ROUTES].sort());
  });
});
