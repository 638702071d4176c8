import type { Permission } from '@depot/contracts';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { BEER, factories, firstStore, stockIn, walkIn } from '../../test/factories.ts';
import { ADMIN_PASSWORD, bearer, createUser, login, useTestApp } from '../../test/harness.ts';

const ctx = useTestApp();
let admin: Record<string, string>;
const ids: Record<string, number> = {};
const make = factories(ctx, () => admin);
const post = make.create;

async function send(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
  headers: Record<string, string> = admin,
) {
  const res = await ctx.app.inject({ method, url, headers, payload });
  return { status: res.statusCode, body: res.json() };
}

async function as(permissions: Permission[], locale = 'en') {
  const user = await createUser(ctx.db, { permissions });
  return { ...bearer((await login(ctx.app, user.name, user.password)).token), 'x-localization': locale };
}

beforeAll(async () => {
  admin = { ...bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token), 'x-localization': 'en' };
  Object.assign(ids, await make.catalogue('carton'));
  ids.beer = await make.product({
    ...BEER,
    sku: 'BEER-1',
    category_id: ids.drinks,
    unit_id: ids.can,
    price_usd_cents: 125,
    taxable: false,
  });
  ids.wholesale = await post('/api/customer-groups', { name_en: 'Wholesale', name_kh: 'លក់ដុំ' });
  ids.shop = await post('/api/customers', { name: 'Sok shop', customer_group_id: ids.wholesale });
  ids.walkIn = await walkIn(ctx.db);
  await stockIn(ctx.db, {
    store: await firstStore(ctx.db),
    product: ids.beer,
    quantity: 24 * 20,
    valueCents: 24 * 20 * 60,
  });
});

describe('customer groups and price lists', () => {
  it('creates a group, puts a customer in it and shows its counts', async () => {
    const shown = await send('GET', `/api/customers/${ids.shop}`);
    expect(shown.body.data).toMatchObject({ customer_group_id: ids.wholesale, customer_group_name_en: 'Wholesale' });
    const group = await send('GET', `/api/customer-groups/${ids.wholesale}`);
    expect(group.body.data).toMatchObject({ name_kh: 'លក់ដុំ', customers_count: 1 });
  });

  it('refuses bad rows with localized 422s on their fields, never a 5xx', async () => {
    const kh = { ...admin, 'x-localization': 'kh' };
    const bad = await send('POST', '/api/price-lists', { scope: 'product', product_id: ids.beer }, kh);
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['price_cents', 'unit_id']);
    expect(bad.body.errors.unit_id[0]).toBe('ប្រអប់នេះត្រូវតែបំពេញ!');

    const category = await send('POST', '/api/price-lists', {
      scope: 'category',
      category_id: ids.drinks,
      off_bp: 500,
      min_quantity: 1,
    });
    expect(category.status).toBe(422);
    expect(category.body.errors.min_quantity[0]).toBe('A category price is a quantity break: from 2 units or more.');

    const ownUnit = await send('POST', '/api/price-lists', {
      scope: 'product',
      product_id: ids.beer,
      unit_id: ids.can,
      price_cents: 100,
    });
    expect(ownUnit.status).toBe(422);
    expect(ownUnit.body.errors.unit_id[0]).toMatch(/product’s own unit|product's own unit/);

    const missing = await send('POST', '/api/price-lists', {
      customer_group_id: 999_999,
      scope: 'product',
      product_id: ids.beer,
      unit_id: ids.carton,
      price_cents: 100,
    });
    expect(missing.status).toBe(422);
    expect(missing.body.errors.customer_group_id[0]).toBe('The selected record does not exist.');

    for (const body of [
      { scope: 'product', product_id: 'x', unit_id: -1, price_cents: 1.5 },
      { scope: 'nope' },
      { scope: 'product', product_id: ids.beer, unit_id: ids.carton, price_cents: 10 ** 12 },
      { scope: 'category', category_id: ids.drinks, off_bp: 20_000, min_quantity: 2 },
    ]) {
      const res = await send('POST', '/api/price-lists', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    const group = await send('POST', '/api/customers', { name: 'X', customer_group_id: 999_999 });
    expect(group.status).toBe(422);
    expect(group.body.errors.customer_group_id).toBeDefined();
  });

  it('needs prices.update to write a price list or move a customer to another group', async () => {
    const lister = await as(['price_lists.list', 'price_lists.view', 'price_lists.create', 'customers.update']);
    const body = {
      customer_group_id: ids.wholesale,
      scope: 'product',
      product_id: ids.beer,
      unit_id: ids.carton,
      price_cents: 2400,
    };
    const refused = await send('POST', '/api/price-lists', body, lister);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('You may not change selling prices.');
    expect((await send('GET', '/api/price-lists', undefined, lister)).status).toBe(200);
    const moved = await send(
      'PUT',
      `/api/customers/${ids.walkIn}`,
      { name: 'Walk-in', customer_group_id: ids.wholesale },
      lister,
    );
    expect(moved.status).toBe(403);
    const nobody = await as([]);
    expect((await send('GET', '/api/price-lists', undefined, nobody)).status).toBe(403);
    expect((await send('POST', '/api/customer-groups', { name_en: 'A', name_kh: 'ក' }, nobody)).status).toBe(403);
    expect((await send('POST', '/api/prices/quote', { customer_id: ids.shop, items: [] }, nobody)).status).toBe(403);
  });
});

describe('a wholesale sale', () => {
  it('sells cartons at the group price, a break from 5 cartons, and records why', async () => {
    const carton = await post('/api/price-lists', {
      customer_group_id: ids.wholesale,
      scope: 'product',
      product_id: ids.beer,
      unit_id: ids.carton,
      price_cents: 2400,
      price_khr: 98_000,
    });
    const dup = await send('POST', '/api/price-lists', {
      customer_group_id: ids.wholesale,
      scope: 'product',
      product_id: ids.beer,
      unit_id: ids.carton,
      price_cents: 2300,
    });
    expect(dup.status).toBe(422);
    expect(dup.body.errors.min_quantity[0]).toBe('This price list already has a price for this from that quantity.');
    await post('/api/price-lists', {
      customer_group_id: ids.wholesale,
      scope: 'product',
      product_id: ids.beer,
      unit_id: ids.carton,
      min_quantity: 5,
      price_cents: 2300,
    });
    const listed = await send('GET', `/api/price-lists?filter[customer_group_id]=${ids.wholesale}`);
    expect(listed.body.meta.total).toBe(2);
    expect((await send('GET', `/api/price-lists/${carton}`)).body.data).toMatchObject({
      group_name_en: 'Wholesale',
      unit_name_en: 'Carton',
      price_khr: 98_000,
    });

    const quote = await send('POST', '/api/prices/quote', {
      customer_id: ids.shop,
      items: [
        { product_id: ids.beer, unit_id: ids.carton, quantity: 3 },
        { product_id: ids.beer, unit_id: ids.carton, quantity: 5 },
        { product_id: ids.beer, quantity: 2 },
      ],
    });
    expect(quote.status).toBe(200);
    expect(quote.body.data.group_name_en).toBe('Wholesale');
    expect(
      quote.body.data.lines.map((l: { unit_price_cents: number; source: string }) => [l.unit_price_cents, l.source]),
    ).toEqual([
      [2400, 'group'],
      [2300, 'break'],
      [125, 'product'],
    ]);
    // the walk-in customer buys a carton at factor × the piece price
    const walkIn = await send('POST', '/api/prices/quote', {
      customer_id: ids.walkIn,
      items: [{ product_id: ids.beer, unit_id: ids.carton, quantity: 3 }],
    });
    expect(walkIn.body.data.lines[0]).toMatchObject({ unit_price_cents: 3000, source: 'product', price_list_en: null });

    const sold = await send('POST', '/api/orders', {
      customer_id: ids.shop,
      items: [{ product_id: ids.beer, unit_id: ids.carton, quantity: 3 }],
      payments: [{ method: 'cash_usd', amount: 7200 }],
    });
    expect(sold.status, JSON.stringify(sold.body)).toBe(201);
    expect(sold.body.data.total_cents).toBe(7200);
    expect(sold.body.data.items[0]).toMatchObject({
      unit_price_cents: 2400,
      list_price_cents: 2400,
      price_source: 'group',
      price_list_en: 'Wholesale',
      price_list_kh: 'លក់ដុំ',
    });
    const shown = await send('GET', `/api/orders/${sold.body.data.id}`);
    expect(shown.body.data.items[0].price_source).toBe('group');

    // the group can no longer be deleted: a customer and prices use it
    const del = await send('DELETE', `/api/customer-groups/${ids.wholesale}`);
    expect(del.status).toBe(409);
  });
});

function multipart(content: Buffer | string, filename = 'prices.csv') {
  const boundary = '----depot-prices';
  return {
    payload: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      Buffer.from(content),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

async function importPrices(content: Buffer | string, headers = admin, filename?: string) {
  const { payload, type } = multipart(content, filename);
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/price-lists/import',
    headers: { ...headers, 'content-type': type },
    payload,
  });
  return { status: res.statusCode, body: res.json() };
}

describe('price lists in spreadsheets', () => {
  it('exports the list as xlsx and imports it back: the same rows update, new ones are added', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/price-lists/export?filter[customer_group_id]=${ids.wholesale}`,
      headers: admin,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as never);
    // the sheets are named in both languages, as the products workbook's
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['តម្លៃ · Prices', 'ការណែនាំ · Guide']);
    const sheet = workbook.getWorksheet('តម្លៃ · Prices');
    const rows = (sheet?.getSheetValues() ?? [])
      .slice(1)
      .map((r) => Array.from((r as unknown[]).slice(1), (v) => v ?? ''));
    expect(rows[0]).toEqual([
      'list',
      'scope',
      'sku',
      'unit',
      'category',
      'min_quantity',
      'price_usd',
      'price_khr',
      'percent_off',
      'status',
    ]);
    expect(rows).toContainEqual(['Wholesale', 'product', 'BEER-1', 'Carton', '', 1, '24.00', 98000, '', 'active']);
    expect(workbook.getWorksheet('ការណែនាំ · Guide')?.getRow(3).getCell(2).value).toBe('ចាំបាច់ · yes');

    // the exported file, one price changed and a category break added, imported back
    rows.push(['លក់ដុំ', 'category', '', '', 'Drinks', 48, '', '', '5', 'active']);
    const carton = rows.findIndex((r) => r[5] === 1);
    rows[carton][6] = '23.50';
    const back = new ExcelJS.Workbook();
    const out = back.addWorksheet('Prices');
    for (const row of rows) out.addRow(row);
    const imported = await importPrices(Buffer.from(await back.xlsx.writeBuffer()), admin, 'prices.xlsx');
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body.data).toEqual({ created: 1, updated: 2, total: 3 });
    expect(imported.body.message).toBe('Prices imported: 3 (1 created, 2 updated).');
    const quote = await send('POST', '/api/prices/quote', {
      customer_id: ids.shop,
      items: [
        { product_id: ids.beer, unit_id: ids.carton, quantity: 1 },
        { product_id: ids.beer, unit_id: ids.carton, quantity: 4 },
      ],
    });
    // 1 carton: $23.50; 4 cartons = 96 cans: the category's 5 % off $23.50 = $22.33 (half up)
    expect(quote.body.data.lines.map((l: { unit_price_cents: number }) => l.unit_price_cents)).toEqual([2350, 2233]);
  });

  it('refuses a file with mistakes row by row, in Khmer too, and writes nothing', async () => {
    const before = (await send('GET', '/api/price-lists')).body.meta.total;
    const csv = [
      'list,scope,sku,unit,min_quantity,price_usd',
      'Nobody,product,BEER-1,Carton,2,1.00',
      ',product,NOPE,Carton,1,1.00',
      ',product,BEER-1,Carton,3,abc',
      'Wholesale,product,BEER-1,Carton,2,22.00',
    ].join('\n');
    const refused = await importPrices(csv);
    expect(refused.status).toBe(422);
    expect(refused.body.rows.map((r: { row: number; column: string }) => [r.row, r.column])).toEqual([
      [2, 'list'],
      [3, 'sku'],
      [4, 'price_usd'],
    ]);
    const kh = await importPrices(csv, { ...admin, 'x-localization': 'kh' });
    expect(kh.status).toBe(422);
    expect(kh.body.rows[0].message).toContain('មិនមានទេ');
    expect((await send('GET', '/api/price-lists')).body.meta.total).toBe(before);
    const junk = await importPrices(Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]), admin, 'x.xlsx');
    expect(junk.status).toBe(422);
  });

  it('needs prices.update to import', async () => {
    const clerk = await as(['price_lists.list', 'price_lists.create']);
    const refused = await importPrices('scope,sku,unit,price_usd\nproduct,BEER-1,Carton,1.00', clerk);
    expect(refused.status).toBe(403);
    const exported = await ctx.app.inject({ method: 'GET', url: '/api/price-lists/export', headers: clerk });
    expect(exported.statusCode).toBe(200);
  });
});
