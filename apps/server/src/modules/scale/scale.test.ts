import { encodeScaleBarcode, type ScaleLayout } from '@depot/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { firstStore, stockIn, walkIn } from '../../test/factories.ts';
import { ADMIN_PASSWORD, bearer, createUser, login, useTestApp } from '../../test/harness.ts';

/**
 * Weighed goods (issue 28): a unit with decimals, quantities kept in its steps (grams), the line
 * priced once (price × grams / 1000); the store's scale barcode layouts; the till's code lookup
 * answering a label's product.
 */
const ctx = useTestApp();
let admin: Record<string, string>;
let cashier: Record<string, string>;
const ids: Record<string, number> = {};
const WEIGHT: ScaleLayout = { prefix: '20', code_length: 5, value_length: 5, decimals: 3, kind: 'weight' };
const PRICE: ScaleLayout = { prefix: '21', code_length: 5, value_length: 5, decimals: 2, kind: 'price' };

async function send(method: 'GET' | 'POST' | 'PUT', url: string, headers: Record<string, string>, payload?: object) {
  const res = await ctx.app.inject({ method, url, headers, payload });
  return { status: res.statusCode, body: res.json() };
}

beforeAll(async () => {
  admin = { ...bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token), 'x-localization': 'en' };
  await createUser(ctx.db, { name: 'weigher', password: 'password-123', roles: ['cashier'] });
  cashier = { ...bearer((await login(ctx.app, 'weigher', 'password-123')).token), 'x-localization': 'kh' };
  const post = async (url: string, body: object) => {
    const res = await send('POST', url, admin, body);
    if (res.status !== 201) throw new Error(`${url}: ${JSON.stringify(res.body)}`);
    return res.body.data.id as number;
  };
  ids.store = await firstStore(ctx.db);
  ids.walkIn = await walkIn(ctx.db);
  ids.meat = await post('/api/categories', { name_en: 'Meat', name_kh: 'សាច់' });
  ids.kg = await post('/api/units', { name_en: 'Kilogram', name_kh: 'គីឡូក្រាម', short_name: 'kg', decimals: 3 });
  ids.pork = await post('/api/products', {
    name_en: 'Pork belly',
    name_kh: 'សាច់ជ្រូកបីជាន់',
    sku: 'PORK-KG',
    barcode: '00042',
    category_id: ids.meat,
    unit_id: ids.kg,
    price_usd_cents: 499,
    taxable: false,
  });
  // 20 kg on the shelf, kept in grams
  await stockIn(ctx.db, { store: ids.store, product: ids.pork, quantity: 20_000, valueCents: 6_000 });
});

describe('units with decimals', () => {
  it('says how a product counts, and keeps it while products are counted in it', async () => {
    const unit = await send('GET', `/api/units/${ids.kg}`, admin);
    expect(unit.body.data).toMatchObject({ short_name: 'kg', decimals: 3 });
    const product = await send('GET', `/api/products/${ids.pork}?stock_store=${ids.store}`, admin);
    expect(product.body.data).toMatchObject({ unit_decimals: 3, stock: 20_000 });

    const changed = await send('PUT', `/api/units/${ids.kg}`, admin, {
      name_en: 'Kilogram',
      name_kh: 'គីឡូក្រាម',
      short_name: 'kg',
      decimals: 2,
      status: 'active',
    });
    expect(changed.status).toBe(422);
    expect(changed.body.errors.decimals).toEqual(['Products are counted in this unit: its decimals cannot change.']);
    expect((await send('GET', `/api/units/${ids.kg}`, admin)).body.data.decimals).toBe(3);

    const sack = await send('POST', '/api/units', admin, {
      name_en: 'Sack',
      name_kh: 'បាវ',
      short_name: 'sk',
      base_unit_id: ids.kg,
      factor: 50_000,
      decimals: 1,
    });
    expect(sack.status).toBe(422);
    expect(sack.body.errors.decimals).toEqual(['Only a base unit has decimals; a unit made of it is sold whole.']);
  });
});

describe('a weighed sale', () => {
  it('prices 1.250 kg at $4.99 a kg once, exactly, and takes 1250 g from the shelf', async () => {
    const sold = await send('POST', '/api/orders', admin, {
      customer_id: ids.walkIn,
      items: [{ product_id: ids.pork, quantity: 1250 }],
      payments: [{ method: 'cash_usd', amount: 700 }],
    });
    expect(sold.status).toBe(201);
    // $4.99 × 1.250 = $6.2375: $6.24
    expect(sold.body.data.total_cents).toBe(624);
    expect(sold.body.data.items[0]).toMatchObject({ quantity: 1250, decimals: 3, total_cents: 624 });
    const product = await send('GET', `/api/products/${ids.pork}?stock_store=${ids.store}`, admin);
    expect(product.body.data.stock).toBe(20_000 - 1250);
  });

  it("tells the stock screens the unit's decimals with each level and low-stock row", async () => {
    const changed = await send('PUT', `/api/products/${ids.pork}`, admin, {
      name_en: 'Pork belly',
      name_kh: 'សាច់ជ្រូកបីជាន់',
      sku: 'PORK-KG',
      barcode: '00042',
      category_id: ids.meat,
      unit_id: ids.kg,
      price_usd_cents: 499,
      taxable: false,
      reorder_level: 50_000,
    });
    expect(changed.status).toBe(200);
    const rows = [
      ...(await send('GET', `/api/stocks/levels?filter[store_id]=${ids.store}&search=PORK-KG`, admin)).body.data,
      ...(await send('GET', '/api/stocks/low?search=PORK-KG', admin)).body.data,
    ];
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row).toMatchObject({ unit_name_en: 'Kilogram', unit_decimals: 3 });
  });
});

describe('scale barcode layouts', () => {
  it('are none until the store sets them; only an administrator changes them', async () => {
    expect((await send('GET', '/api/scale/settings', cashier)).body.data).toEqual({ layouts: [] });
    const refused = await send('PUT', '/api/scale/settings', cashier, { layouts: [WEIGHT] });
    expect(refused.status).toBe(403);
    const saved = await send('PUT', '/api/scale/settings', admin, { layouts: [WEIGHT, PRICE] });
    expect(saved.status).toBe(200);
    expect(saved.body.message).toBe('Scale barcode layouts saved.');
    expect((await send('GET', '/api/scale/settings', cashier)).body.data).toEqual({ layouts: [WEIGHT, PRICE] });
  });

  it('refuses a layout outside 20–29, lengths that do not fill the code, or a prefix twice: in Khmer, nothing changed', async () => {
    const kh = { ...admin, 'x-localization': 'kh' };
    const bad = await send('PUT', '/api/scale/settings', kh, {
      layouts: [{ ...WEIGHT, prefix: '30' }, { ...PRICE, value_length: 4 }, WEIGHT],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors['layouts.0.prefix']).toEqual(['បុព្វបទបាកូដជញ្ជីងគឺពី 20 ដល់ 29។']);
    expect(bad.body.errors['layouts.1.value_length']).toEqual(['លេខកូដ និងតម្លៃរួមគ្នាត្រូវមាន 10 ខ្ទង់។']);
    const twice = await send('PUT', '/api/scale/settings', admin, { layouts: [WEIGHT, WEIGHT] });
    expect(twice.status).toBe(422);
    expect((await send('GET', '/api/scale/settings', admin)).body.data).toEqual({ layouts: [WEIGHT, PRICE] });
  });

  it("answers a label's product to the till's code lookup, not a code with a wrong check digit", async () => {
    const label = encodeScaleBarcode(WEIGHT, '00042', 1250);
    const found = await send(
      'GET',
      `/api/products/till?filter[status]=active&filter[code]=${label}&stock_store=${ids.store}`,
      cashier,
    );
    expect(found.status).toBe(200);
    expect(found.body.data.map((p: { id: number }) => p.id)).toEqual([ids.pork]);
    expect(found.body.data[0]).toMatchObject({ barcode: '00042', unit_decimals: 3, price_usd_cents: 499 });
    const wrong = `${label.slice(0, 12)}${(Number(label[12]) + 1) % 10}`;
    const none = await send('GET', `/api/products/till?filter[status]=active&filter[code]=${wrong}`, cashier);
    expect(none.body.data).toEqual([]);
  });
});
