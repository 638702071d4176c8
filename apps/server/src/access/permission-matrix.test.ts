import { DEFAULT_ROLES } from '@depot/contracts';
import type { InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
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
