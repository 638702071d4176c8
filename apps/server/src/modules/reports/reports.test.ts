import fs from 'node:fs';
import { todayInCambodia } from '@depot/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { MIGRATION_NAMES } from '../../db/migrate.ts';
import { CHROMIUM_PATH } from '../../kit/pdf.ts';
import { factories, firstStore, stockIn, TAXED_BEER, walkIn } from '../../test/factories.ts';
import { ADMIN_PASSWORD, bearer, createStore, createUser, login, TEST_DB, useTestApp } from '../../test/harness.ts';

const ctx = useTestApp();
let headers: Record<string, string>;
const ids: Record<string, number> = {};
const make = factories(ctx, () => headers);
const today = todayInCambodia();

async function send(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, h = headers) {
  const res = await ctx.app.inject({ method, url, headers: h, payload });
  return {
    status: res.statusCode,
    body: res.statusCode < 300 && res.headers['content-type']?.toString().includes('json') ? res.json() : res.body,
    headers: res.headers,
    raw: res.rawPayload,
  };
}

async function made(url: string, body: object) {
  const res = await send('POST', url, body);
  if (res.status !== 201 && res.status !== 200) throw new Error(`${url}: ${JSON.stringify(res.body)}`);
  return res.body.data.id as number;
}

type Figure = { key: string; value: number | null; previous: number | null };
const figures = (report: { summary: Figure[] }) => Object.fromEntries(report.summary.map((f) => [f.key, f.value]));
const section = (report: { sections: { key: string; rows: Record<string, unknown>[] }[] }, key: string) =>
  report.sections.find((s) => s.key === key)?.rows ?? [];

/**
 * A known day: two sales (one with a 10 % order discount and VAT), a return of half of one, a
 * purchase with shipping partly paid, and a sale in another store; every figure checked to the cent.
 */
beforeAll(async () => {
  headers = { ...bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token), 'x-localization': 'en' };
  ids.store = await firstStore(ctx.db);
  ids.other = await createStore(ctx.db, 'FAR');
  ids.walkIn = await walkIn(ctx.db);
  Object.assign(ids, await make.catalogue());
  ids.beer = await make.product({ ...TAXED_BEER, category_id: ids.drinks, unit_id: ids.can });
  ids.rice = await made('/api/products', {
    name_en: 'Jasmine rice',
    name_kh: 'អង្ករម្លិះ',
    sku: 'RICE-5',
    category_id: ids.drinks,
    unit_id: ids.can,
    price_usd_cents: 1000,
    taxable: false,
  });
  await stockIn(ctx.db, { store: ids.store, product: ids.beer, quantity: 48, valueCents: 2400 }); // $0.50 a can
  await stockIn(ctx.db, { store: ids.store, product: ids.rice, quantity: 10, valueCents: 7000 }); // $7.00 a bag
  await stockIn(ctx.db, { store: ids.other, product: ids.rice, quantity: 10, valueCents: 7000 });
  const tenPercent = await made('/api/discounts', {
    name: 'Ten percent',
    type: 'percentage',
    amount: 1000,
    scope: 'order',
  });

  // A: 2 rice, $20.00, no VAT, paid $20 cash
  const a = await send('POST', '/api/orders', {
    customer_id: ids.walkIn,
    store_id: ids.store,
    items: [{ product_id: ids.rice, quantity: 2 }],
    payments: [{ method: 'cash_usd', amount: 2000 }],
  });
  expect(a.status, JSON.stringify(a.body)).toBe(201);
  // B: 4 beer $5.00 − 10 % = $4.50 + 10 % VAT $0.45 = $4.95, paid 25,000៛
  const b = await send('POST', '/api/orders', {
    customer_id: ids.walkIn,
    store_id: ids.store,
    discount_id: tenPercent,
    items: [{ product_id: ids.beer, quantity: 4 }],
    payments: [{ method: 'cash_khr', amount: 25_000 }],
  });
  expect(b.status, JSON.stringify(b.body)).toBe(201);
  expect(b.body.data).toMatchObject({ subtotal_cents: 500, discount_cents: 50, tax_cents: 45, total_cents: 495 });
  // change $1.14 or its riel; handed back as the till's usual split: $1.00 and the rest in riel,
  // which is what leaves each drawer (not both alternatives)
  expect(b.body.data).toMatchObject({ change_cents: 114, change_given_cents: 100 });
  expect(b.body.data.change_given_khr).toBeGreaterThan(0);
  expect(b.body.data.change_given_khr).toBeLessThan(b.body.data.change_khr);
  ids.changeKhr = b.body.data.change_given_khr;
  ids.changeCents = b.body.data.change_given_cents;
  // one rice of A comes back: $10.00 refunded in dollars
  const line = a.body.data.items[0].id;
  const back = await send('POST', `/api/orders/${a.body.data.id}/returns`, {
    items: [{ order_item_id: line, quantity: 1 }],
    refund_method: 'cash_usd',
  });
  expect(back.status, JSON.stringify(back.body)).toBe(200);
  // another store's sale: 1 rice, $10.00
  const far = await send('POST', '/api/orders', {
    customer_id: ids.walkIn,
    store_id: ids.other,
    items: [{ product_id: ids.rice, quantity: 1 }],
    payments: [{ method: 'cash_usd', amount: 1000 }],
  });
  expect(far.status, JSON.stringify(far.body)).toBe(201);
  // a purchase: 10 beer at $0.60 + $3.00 shipping = $9.00, $4.00 paid
  const supplier = await made('/api/suppliers', { name: 'Cambrew', type: 'company' });
  const purchase = await made('/api/purchases', {
    supplier_id: supplier,
    store_id: ids.store,
    purchase_date: today,
    shipping_cents: 300,
    ordered: true,
    items: [{ product_id: ids.beer, unit_id: ids.can, quantity: 10, unit_price_cents: 60 }],
  });
  const paid = await send('POST', `/api/purchases/${purchase}/payments`, {
    amount_cents: 400,
    method: 'cash_usd',
    paid_at: today,
  });
  expect(paid.status, JSON.stringify(paid.body)).toBeLessThan(300);
});

const q = (extra = '') => `from=${today}&to=${today}${extra}`;

describe('the sales report', () => {
  it('adds up gross, discounts, returns, net, VAT and profit to the cent, and its tables agree', async () => {
    const res = await send('GET', `/api/reports/sales?${q(`&store_id=${ids.store}`)}`);
    expect(res.status).toBe(200);
    const r = res.body.data;
    // gross 2000 + 500; discounts 50; returns 1000; net 2500 − 50 − 1000 = 1450; VAT 45; with VAT 2000 + 495
    expect(figures(r)).toMatchObject({
      orders: 2,
      gross_cents: 2500,
      discount_cents: 50,
      returns_cents: 1000,
      net_cents: 1450,
      tax_cents: 45,
      total_cents: 2495,
      average_cents: 1225,
      // cost: 2 rice 1400 + 4 beer 200 − 1 rice back 700 = 900; profit 1450 − 900 = 550
      profit_cents: 550,
      margin: 3793,
    });
    // riel by the one conversion: $14.50 at 4,100 = 59,450 → 59,500៛
    expect(figures(r).net_khr).toBe(59_500);
    expect(section(r, 'by_product')).toEqual([
      expect.objectContaining({
        name: 'Jasmine rice',
        quantity: 2,
        returned_quantity: 1,
        gross_cents: 2000,
        net_cents: 2000,
      }),
      expect.objectContaining({
        name: 'Angkor beer',
        quantity: 4,
        gross_cents: 500,
        discount_cents: 50,
        net_cents: 450,
        tax_cents: 45,
      }),
    ]);
    expect(section(r, 'by_payment')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 'cash_khr', kind: 'payment', amount: '25,000៛' }),
        expect.objectContaining({ code: 'cash_usd', kind: 'refund', amount_cents: -1000 }),
      ]),
    );
    expect(section(r, 'by_store')).toEqual([expect.objectContaining({ orders: 2, net_cents: 2450 })]);
    expect(r.series.points).toEqual([{ bucket: today, values: { net_cents: 1450, orders: 2 } }]);
    expect(r.series.previous).toEqual([{ bucket: expect.any(String), values: { net_cents: 0, orders: 0 } }]);
  });

  it('counts every covered store without a store chosen, and groups by month', async () => {
    const r = (await send('GET', `/api/reports/sales?${q('&group=month')}`)).body.data;
    expect(figures(r)).toMatchObject({ orders: 3, gross_cents: 3500, net_cents: 2450 });
    expect(r.series.points).toEqual([{ bucket: `${today.slice(0, 7)}-01`, values: { net_cents: 2450, orders: 3 } }]);
  });

  it('refuses a range that ends before it starts, in the user’s language', async () => {
    const res = await send('GET', `/api/reports/sales?from=${today}&to=2020-01-01`, undefined, {
      ...headers,
      'x-localization': 'kh',
    });
    expect(res.status).toBe(422);
    expect(JSON.parse(res.body as unknown as string).errors.to).toEqual(['ថ្ងៃបញ្ចប់មិនអាចនៅមុនថ្ងៃចាប់ផ្ដើមបានទេ។']);
  });
});

describe('the financial report', () => {
  it('gives cost of goods, profit, VAT, purchases, supplier and customer dues, cash per currency', async () => {
    const r = (await send('GET', `/api/reports/financial?${q(`&store_id=${ids.store}`)}`)).body.data;
    expect(figures(r)).toMatchObject({
      net_cents: 1450,
      cogs_cents: 900,
      profit_cents: 550,
      tax_cents: 45,
      purchases_cents: 900,
      landed_cents: 300,
      supplier_paid_cents: 400,
      supplier_due_cents: 500,
      customer_due_cents: 0,
    });
    const cash = section(r, 'cash');
    expect(cash[0]).toMatchObject({
      code: 'usd',
      received_cents: 2000,
      refunded_cents: 1000,
      change_cents: ids.changeCents,
    });
    expect(cash[1]).toMatchObject({ code: 'khr', received_khr: 25_000, change_khr: ids.changeKhr });
    expect(section(r, 'rates')).toEqual([expect.objectContaining({ rate_khr: 4100, orders: 2 })]);
  });
});

describe('the inventory and customer reports', () => {
  it('values stock at average cost and sums the period’s movements', async () => {
    const r = (await send('GET', `/api/reports/inventory?${q(`&store_id=${ids.store}`)}`)).body.data;
    // beer 44 cans at $0.50 = $22.00; rice 9 bags at $7.00 = $63.00 (every store's valuation: 9 + 9 of 18 bags)
    expect(figures(r)).toMatchObject({ on_hand: 53, value_cents: 8500, received: 58, sold: 6, returned: 1 });
    expect(section(r, 'stock_by_product')).toEqual([
      expect.objectContaining({ name: 'Jasmine rice', on_hand: 9, value_cents: 6300, sold: 1 }),
      expect.objectContaining({ name: 'Angkor beer', on_hand: 44, value_cents: 2200, sold: 4 }),
    ]);
  });

  it('lists no named buyers when every sale went to the walk-in customer', async () => {
    const r = (await send('GET', `/api/reports/customer?${q()}`)).body.data;
    expect(figures(r)).toMatchObject({ customers: 0, orders: 0, due_cents: 0 });
  });
});

describe('who sees what', () => {
  it('hides cost, margin and stock values without costs.view, and other stores’ figures', async () => {
    const user = await createUser(ctx.db, { permissions: ['reports.view'], store: ids.store });
    const h = { ...bearer((await login(ctx.app, user.name, user.password)).token), 'x-localization': 'en' };
    const sales = (await send('GET', `/api/reports/sales?${q()}`, undefined, h)).body.data;
    expect(figures(sales)).toMatchObject({ orders: 2, net_cents: 1450 });
    expect(Object.keys(figures(sales))).not.toContain('profit_cents');
    const financial = (await send('GET', `/api/reports/financial?${q()}`, undefined, h)).body.data;
    expect(Object.keys(figures(financial))).not.toEqual(expect.arrayContaining(['cogs_cents']));
    expect(JSON.stringify(financial)).not.toContain('supplier');
    const inventory = (await send('GET', `/api/reports/inventory?${q()}`, undefined, h)).body.data;
    expect(JSON.stringify(inventory)).not.toContain('value_cents');
    const far = await send('GET', `/api/reports/sales?${q(`&store_id=${ids.other}`)}`, undefined, h);
    expect(far.status).toBe(422);
  });

  it('shows a cashier only their own sales of today on the dashboard, without cost', async () => {
    const user = await createUser(ctx.db, { roles: ['cashier'], store: ids.store });
    const h = { ...bearer((await login(ctx.app, user.name, user.password)).token), 'x-localization': 'en' };
    const before = (await send('GET', '/api/dashboard', undefined, h)).body.data;
    expect(before).toMatchObject({ kind: 'cashier', costs: false });
    expect(Object.fromEntries(before.today_figures.map((f: Figure) => [f.key, f.value]))).toEqual({
      net_cents: 0,
      orders: 0,
      average_cents: 0,
    });
    const sold = await send(
      'POST',
      '/api/orders',
      {
        customer_id: ids.walkIn,
        items: [{ product_id: ids.beer, quantity: 2 }],
        payments: [{ method: 'cash_usd', amount: 500 }],
      },
      h,
    );
    expect(sold.status, JSON.stringify(sold.body)).toBe(201);
    const after = (await send('GET', '/api/dashboard', undefined, h)).body.data;
    expect(Object.fromEntries(after.today_figures.map((f: Figure) => [f.key, f.value]))).toEqual({
      net_cents: 250,
      orders: 1,
      average_cents: 250,
    });
    expect(JSON.stringify(after)).not.toContain('profit');
    expect(after.admin).toBeNull();
    expect((await send('GET', `/api/reports/sales?${q()}`, undefined, h)).status).toBe(403);
  });

  it('gives an administrator the system: users, sign-ins today against yesterday, the latest audit entries', async () => {
    // a refused sign-in and a good one today, both in the audit trail
    expect((await send('POST', '/api/login', { name: 'admin', password: 'not-it-1234' })).status).toBe(401);
    await login(ctx.app, 'admin', ADMIN_PASSWORD);
    const data = (await send('GET', '/api/dashboard')).body.data;
    const figures = Object.fromEntries(data.admin.figures.map((f: Figure) => [f.key, f]));
    expect(figures.users_active.value).toBeGreaterThanOrEqual(2);
    expect(figures.users_active.link).toBe('/users');
    expect(figures.sign_ins.value).toBeGreaterThanOrEqual(2);
    expect(figures.failed_sign_ins).toMatchObject({ value: 1, previous: 0, link: '/audit' });
    expect(data.admin.recent[0]).toMatchObject({ action: 'auth.login', user_name: 'admin' });
    expect(data.admin.recent.map((r: { action: string }) => r.action)).toContain('auth.login_failed');
    expect(data.admin.database).toEqual({ kind: TEST_DB, migration: MIGRATION_NAMES.at(-1) });
  });
});

describe('exports', () => {
  it('writes the report as an Excel workbook', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/reports/sales/export?${q()}&format=xlsx`,
      headers: { ...headers, 'x-localization': 'kh' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="sales-${today}-${today}.xlsx"`);
    const ExcelJS = (await import('exceljs')).default;
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const summary = book.worksheets[0];
    expect(summary.getCell('A1').value).toBe('របាយការណ៍លក់');
    const net = summary.getColumn(1).values.indexOf('ការលក់សុទ្ធ');
    // $14.50 here, $10.00 in the other store, the cashier's $2.50: dollars as numbers in the sheet
    expect(summary.getRow(net).getCell(2).value).toBe(27);
  });

  it('prints the report as a PDF with Khmer shaped by Chromium, or says in Khmer that it cannot', {
    timeout: 60_000,
  }, async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/reports/financial/export?${q()}&format=pdf`,
      headers: { ...headers, 'x-localization': 'kh' },
    });
    if (fs.existsSync(CHROMIUM_PATH)) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.rawPayload.subarray(0, 4).toString()).toBe('%PDF');
      if (process.env.REPORTS_PDF_OUT) fs.writeFileSync(process.env.REPORTS_PDF_OUT, res.rawPayload);
    } else {
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe('មិនអាចនាំចេញជា PDF បានទេ៖ ប្រព័ន្ធមិនមាន Chromium។ សូមនាំចេញជា Excel ជំនួសវិញ។');
    }
  });
});

describe('low stock, one definition', () => {
  it('counts on the dashboard, lists, counts and suggests reordering the same products', async () => {
    const store = await createStore(ctx.db, 'LOW');
    const product = (sku: string, reorder_level: number) =>
      made('/api/products', {
        name_en: sku,
        name_kh: sku,
        sku,
        category_id: ids.drinks,
        unit_id: ids.can,
        price_usd_cents: 100,
        taxable: false,
        reorder_level,
      });
    // sold out without a reorder level: not low (nobody asked to be told)
    const soldOut = await product('SOLD-OUT', 0);
    await stockIn(ctx.db, { store, product: soldOut, quantity: 1, valueCents: 100 });
    const sale = await send('POST', '/api/orders', {
      customer_id: ids.walkIn,
      store_id: store,
      items: [{ product_id: soldOut, quantity: 1 }],
      payments: [{ method: 'cash_usd', amount: 100 }],
    });
    expect(sale.status, JSON.stringify(sale.body)).toBe(201);
    // under its reorder level: low; above it: not; under it but no longer sold: not
    const low = await product('LOW-1', 10);
    await stockIn(ctx.db, { store, product: low, quantity: 3, valueCents: 300 });
    await stockIn(ctx.db, { store, product: await product('PLENTY-1', 10), quantity: 30, valueCents: 3000 });
    const retired = await product('RETIRED-1', 10);
    await stockIn(ctx.db, { store, product: retired, quantity: 2, valueCents: 200 });
    await ctx.db.updateTable('products').set({ status: 'inactive' }).where('id', '=', retired).execute();

    const listed = (await send('GET', `/api/stocks/low?filter[store_id]=${store}`)).body;
    expect(listed.data.map((r: { sku: string }) => r.sku)).toEqual(['LOW-1']);
    // enough to stand at twice the reorder level again
    expect(listed.data[0]).toMatchObject({ quantity: 3, reorder_level: 10, reorder_quantity: 17 });
    const all = (await send('GET', '/api/stocks/low?per_page=100')).body;
    const counted = (await send('GET', '/api/stocks/low/count')).body.data.count;
    const dashboard = (await send('GET', '/api/dashboard')).body.data;
    const alert = dashboard.alerts.find((f: Figure) => f.key === 'low_stock');
    expect(alert.value).toBe(all.meta.total);
    expect(counted).toBe(all.meta.total);
    const inventory = (await send('GET', `/api/reports/inventory?${q(`&store_id=${store}`)}`)).body.data;
    expect(section(inventory, 'reorder')).toEqual([expect.objectContaining({ sku: 'LOW-1', suggested: 17 })]);
  });
});

// last: its sale changes the known day's figures the tests above check
describe('the dashboard, remembered', () => {
  it("answers a manager's dashboard again after a sale, a change of their role, a sign-out", async () => {
    const user = await createUser(ctx.db, {
      permissions: ['dashboards.view', 'reports.view', 'costs.view'],
      store: ids.store,
    });
    const h = { ...bearer((await login(ctx.app, user.name, user.password)).token), 'x-localization': 'en' };
    const read = async () => (await send('GET', '/api/dashboard', undefined, h)).body.data;
    const day = (data: { today_figures: Figure[] }): Record<string, number> =>
      Object.fromEntries(data.today_figures.map((f: Figure) => [f.key, Number(f.value)]));
    const first = await read();
    expect(await read()).toEqual(first);
    expect(first.kind).toBe('manager');
    expect(day(first)).toHaveProperty('profit_cents');
    // a sale: counted on the next read
    const sold = await send('POST', '/api/orders', {
      customer_id: ids.walkIn,
      store_id: ids.store,
      items: [{ product_id: ids.rice, quantity: 1 }],
      payments: [{ method: 'cash_usd', amount: 1000 }],
    });
    expect(sold.status, JSON.stringify(sold.body)).toBe(201);
    const second = await read();
    expect(day(second).orders).toBe(day(first).orders + 1);
    expect(day(second).net_cents).toBe(day(first).net_cents + 1000);
    // their role loses costs.view: no profit on the next read
    const role = (await send('GET', '/api/roles')).body.data.find(
      (r: { name: string }) => r.name === `role_${user.name}`,
    );
    const saved = await send('PUT', `/api/roles/${role.id}`, {
      name: role.name,
      group: role.group,
      label_en: role.label_en,
      label_kh: role.label_kh,
      permissions: ['dashboards.view', 'reports.view'],
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const third = await read();
    expect(third.costs).toBe(false);
    expect(JSON.stringify(third)).not.toContain('profit');
    // signed out: refused on the next read
    expect((await send('POST', '/api/logout', undefined, h)).status).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/dashboard', headers: h })).statusCode).toBe(401);
  });
});
