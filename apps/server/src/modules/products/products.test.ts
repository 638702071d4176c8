import { todayInCambodia, usdCentsToKhr } from '@depot/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { factories } from '../../test/factories.ts';
import { ADMIN_PASSWORD, bearer, login, useTestApp } from '../../test/harness.ts';

const ctx = useTestApp();
let headers: Record<string, string>;
const ids: Record<string, number> = {};

async function send(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  const res = await ctx.app.inject({ method, url, headers, payload });
  return { status: res.statusCode, body: res.json() };
}

beforeAll(async () => {
  headers = { ...bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token), 'x-localization': 'en' };
  const make = factories(ctx, () => headers);
  Object.assign(ids, await make.catalogue('carton'));
  ids.food = await make.create('/api/categories', { name_en: 'Food', name_kh: 'អាហារ' });
  ids.beer = await make.create('/api/sub-categories', { category_id: ids.drinks, name_en: 'Beer', name_kh: 'ស្រាបៀរ' });
  ids.brand = await make.create('/api/brands', { name: 'Angkor' });
});

const beer = (over: object = {}) => ({
  name_en: 'Angkor Beer 330ml',
  name_kh: 'ស្រាបៀរអង្គរ ៣៣០មល',
  sku: 'ANG-330',
  barcode: '8851959132012',
  brand_id: ids.brand,
  category_id: ids.drinks,
  sub_category_id: ids.beer,
  unit_id: ids.can,
  price_usd_cents: 126,
  cost_usd_cents: 90,
  reorder_level: 48,
  ...over,
});

describe('products', () => {
  it('creates a product with its riel price following the exchange rate', async () => {
    const res = await send('POST', '/api/products', beer());
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Product created.');
    expect(res.body.data).toMatchObject({
      sku: 'ANG-330',
      brand_name: 'Angkor',
      category_name_kh: 'ភេសជ្ជៈ',
      sub_category_name_en: 'Beer',
      unit_name_en: 'Can',
      price_usd_cents: 126,
      price_khr: null,
      price_khr_effective: 5200, // 1.26 × 4100 = 5166 → 5200
      taxable: true,
      image_url: null,
    });
    ids.product = res.body.data.id;
  });

  it('shows the riel price by the money module’s one function, on large prices too, whatever its own riel price', async () => {
    for (const [i, cents] of [1, 49, 125, 2499, 999_999, 87_654_321].entries()) {
      const res = await send('POST', '/api/products', beer({ sku: `P-${i}`, barcode: null, price_usd_cents: cents }));
      expect(res.body.data.price_khr_effective, `${cents} cents`).toBe(usdCentsToKhr(cents, 4100, 100));
    }
    await ctx.db.updateTable('settings').set({ value: '500' }).where('key', '=', 'khr_rounding_step').execute();
    const shown = (await send('GET', `/api/products/${ids.product}`)).body.data;
    expect(shown.price_khr_effective).toBe(usdCentsToKhr(126, 4100, 500));
    await ctx.db.updateTable('settings').set({ value: '100' }).where('key', '=', 'khr_rounding_step').execute();
    // its own riel price is kept, but no sale charges it: the riel price is what the till takes
    const own = await send('PUT', `/api/products/${ids.product}`, beer({ price_khr: 5000 }));
    expect(own.body.data).toMatchObject({ price_khr: 5000, price_khr_effective: 5200 });
    const listed = (await send('GET', '/api/products?search=ANG-330')).body.data[0];
    expect(listed).toMatchObject({ price_khr: 5000, price_khr_effective: 5200 });
  });

  it('keeps SKU and barcode unique and checks the barcode check digit', async () => {
    const dup = await send('POST', '/api/products', beer({ sku: 'ang-330', barcode: '8851959132012' }));
    expect(dup.status).toBe(422);
    expect(dup.body.errors).toEqual({ sku: ['This value is already used.'], barcode: ['This value is already used.'] });
    const wrong = await send('POST', '/api/products', beer({ sku: 'X-1', barcode: '8851959132013' }));
    expect(wrong.body.errors).toEqual({ barcode: ['This barcode’s check digit is wrong: check the number.'] });
    const own = await send('POST', '/api/products', beer({ sku: 'X-2', barcode: 'DEPOT-77' }));
    expect(own.status).toBe(201);
  });

  it('asks for a missing price rather than taking it as free, and refuses a price in text or with fractions of a cent', async () => {
    const { price_usd_cents: _, ...noPrice } = beer({ sku: 'X-0', barcode: null });
    const missing = await send('POST', '/api/products', noPrice);
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({ price_usd_cents: ['This field is required!'] });
    const nulls = await send('POST', '/api/products', beer({ sku: 'X-0', barcode: null, price_usd_cents: null }));
    expect(nulls.body.errors).toEqual({ price_usd_cents: ['This field is required!'] });
    const text = await send(
      'POST',
      '/api/products',
      beer({ sku: 'X-0', barcode: null, price_usd_cents: '1.26', price_khr: 12.5 }),
    );
    expect(text.body.errors).toEqual({
      price_usd_cents: ['The value is not valid.'],
      price_khr: ['The value is not valid.'],
    });
    expect((await send('GET', '/api/products?search=X-0')).body.meta.total).toBe(0);
  });

  it('refuses a sub-category of another category, a unit that is not a base unit, and a missing brand', async () => {
    const res = await send(
      'POST',
      '/api/products',
      beer({ sku: 'X-3', barcode: null, category_id: ids.food, unit_id: ids.carton, brand_id: 999_999 }),
    );
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      brand_id: ['The selected record does not exist.'],
      sub_category_id: ['This sub-category belongs to another category.'],
      unit_id: ['Choose a base unit: one that is not itself made of another unit.'],
    });
  });

  it('finds a product by barcode, by SKU, or by either name', async () => {
    const names = async (search: string) =>
      (await send('GET', `/api/products?search=${encodeURIComponent(search)}&per_page=100`)).body.data.map(
        (p: { sku: string }) => p.sku,
      );
    expect(await names('8851959132012')).toEqual(['ANG-330']);
    expect(await names('ang-330')).toEqual(['ANG-330']);
    expect(await names('អង្គរ')).toContain('ANG-330');
    expect(await names('beer 330')).toContain('ANG-330');
  });

  it('lists expired products: an expiry date before today in Cambodia', async () => {
    const yesterday = new Date(Date.now() - 86_400_000);
    await send('POST', '/api/products', beer({ sku: 'OLD-1', barcode: null, expiry_date: todayInCambodia(yesterday) }));
    await send('POST', '/api/products', beer({ sku: 'TODAY-1', barcode: null, expiry_date: todayInCambodia() }));
    const expired = await send('GET', '/api/products?filter[expired]=true&per_page=100');
    expect(expired.body.data.map((p: { sku: string }) => p.sku)).toEqual(['OLD-1']);
  });

  it('keeps a combo’s SKU for the combo, and a product a discount names', async () => {
    const combo = await send('POST', '/api/combos', {
      name_en: 'Beer pack',
      name_kh: 'ឈុតស្រាបៀរ',
      sku: 'PACK-1',
      selling_price_cents: 500,
      items: [{ product_id: ids.product, quantity: 4 }],
    });
    expect(combo.status).toBe(201);
    const taken = await send('POST', '/api/products', beer({ sku: 'pack-1', barcode: null }));
    expect(taken.body.errors).toEqual({ sku: ['This value is already used.'] });
    const loose = await send('POST', '/api/products', beer({ sku: 'LOOSE-1', barcode: null }));
    await send('POST', '/api/discounts', {
      name: 'Loose deal',
      type: 'value',
      amount: 10,
      scope: 'product',
      product_id: loose.body.data.id,
    });
    const kept = await send('DELETE', `/api/products/${loose.body.data.id}`);
    expect(kept.status).toBe(409);
    expect(kept.body.message).toBe('Product cannot be deleted: discounts still use it (1).');
  });

  it('keeps a category, sub-category, brand or unit its products use', async () => {
    const category = await send('DELETE', `/api/categories/${ids.drinks}`);
    expect(category.status).toBe(409);
    expect(category.body.message).toMatch(
      /^Category cannot be deleted: (sub-categories|products) still use it \(\d+\)\.$/,
    );
    const brand = await send('DELETE', `/api/brands/${ids.brand}`);
    expect(brand.body.message).toMatch(/^Brand cannot be deleted: products still use it \(\d+\)\.$/);
  });
});
