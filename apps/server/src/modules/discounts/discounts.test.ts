import { type Discount, type DiscountInput, discountApplies, discountRule, priceCart } from '@depot/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { tableChanged } from '../../kit/totals.ts';
import { BEER, factories, WATER } from '../../test/factories.ts';
import { ADMIN_PASSWORD, bearer, createUser, login, useTestApp } from '../../test/harness.ts';
import { discountsFor } from './discounts.resources.ts';

const ctx = useTestApp();
let token: string;
const ids = {} as Record<'drinks' | 'rice' | 'beer' | 'water', number>;

type Headers = Record<string, string>;
const en = (): Headers => ({ ...bearer(token), 'x-localization': 'en' });
const make = factories(ctx, en);

async function send(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, headers = en()) {
  const res = await ctx.app.inject({ method, url, headers, payload });
  return { status: res.statusCode, body: res.json() };
}

async function create(body: DiscountInput): Promise<Discount> {
  const res = await send('POST', '/api/discounts', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

beforeAll(async () => {
  token = (await login(ctx.app, 'admin', ADMIN_PASSWORD)).token;
  const { drinks, can } = await make.catalogue();
  ids.drinks = drinks;
  ids.rice = await make.create('/api/categories', { name_en: 'Rice', name_kh: 'អង្ករ' });
  ids.beer = await make.product({ ...BEER, sku: 'ANG-330', category_id: drinks, unit_id: can });
  ids.water = await make.product({ ...WATER, sku: 'VIT-500', category_id: drinks, unit_id: can });
});

describe('creating a discount', () => {
  it('stores a product discount and shows the product’s names', async () => {
    const res = await send('POST', '/api/discounts', {
      name: 'Beer week',
      type: 'percentage',
      amount: 1500,
      scope: 'product',
      product_id: ids.beer,
      starts_on: '2025-04-10',
      ends_on: '2025-04-16',
    });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Discount created.');
    expect(res.body.data).toMatchObject({
      name: 'Beer week',
      type: 'percentage',
      amount: 1500,
      scope: 'product',
      product_id: ids.beer,
      product_name_en: 'Angkor beer',
      product_name_kh: 'ស្រាបៀរអង្គរ',
      category_id: null,
      category_name_en: null,
      starts_on: '2025-04-10',
      ends_on: '2025-04-16',
      status: 'active',
    });
    const shown = await send('GET', `/api/discounts/${res.body.data.id}`);
    expect(shown.body.data).toEqual(res.body.data);
  });

  it('keeps only the record its scope names', async () => {
    const order = await create({
      name: 'Big basket',
      type: 'value',
      amount: 500,
      scope: 'order',
      product_id: ids.beer,
      category_id: ids.drinks,
    });
    expect(order).toMatchObject({ scope: 'order', product_id: null, category_id: null, starts_on: null });
    const category = await create({
      name: 'Drinks at cost',
      type: 'fixed',
      amount: 80,
      scope: 'category',
      category_id: ids.drinks,
      product_id: ids.beer,
    });
    expect(category).toMatchObject({ product_id: null, category_id: ids.drinks, category_name_kh: 'ភេសជ្ជៈ' });
  });

  it('answers 422 on each field at fault, the scope’s record included', async () => {
    const res = await send('POST', '/api/discounts', {
      name: 'ab',
      type: 'percentage',
      amount: 0,
      scope: 'product',
      starts_on: '2025-05-02',
      ends_on: '2025-05-01',
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      name: ['Must be at least 3 characters.'],
      amount: ['A percentage must be more than 0 % and at most 100 %.'],
      product_id: ['This field is required!'],
      ends_on: ['The end date cannot be before the start date.'],
    });

    const category = await send('POST', '/api/discounts', {
      name: 'Rice days',
      type: 'value',
      amount: -5,
      scope: 'category',
    });
    expect(category.body.errors).toEqual({
      amount: ['Must be at least 0.'],
      category_id: ['This field is required!'],
    });

    const tooMuch = await send('POST', '/api/discounts', {
      name: 'Half off+',
      type: 'percentage',
      amount: 10_001,
      scope: 'order',
    });
    expect(tooMuch.body.errors).toEqual({
      amount: ['A percentage must be more than 0 % and at most 100 %.'],
    });
    const typo = await send('POST', '/api/discounts', { name: 'Typo', type: 'bogo', amount: 1, scope: 'shelf' });
    expect(typo.body.errors).toEqual({
      type: ['Choose one of the allowed values.'],
      scope: ['Choose one of the allowed values.'],
    });
  });

  it('says so in Khmer', async () => {
    const res = await send(
      'POST',
      '/api/discounts',
      { name: 'Beer', type: 'percentage', amount: 20_000, scope: 'product' },
      { ...bearer(token), 'x-localization': 'kh' },
    );
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('ទិន្នន័យដែលបានផ្ដល់មិនត្រឹមត្រូវ។');
    expect(res.body.errors).toEqual({
      amount: ['ភាគរយត្រូវធំជាង 0% និងមិនលើសពី 100%។'],
      product_id: ['ប្រអប់នេះត្រូវតែបំពេញ!'],
    });
  });

  it('refuses a product or category that does not exist or was deleted', async () => {
    const gone = (
      await send('POST', '/api/products', {
        name_en: 'Old soda',
        name_kh: 'សូដាចាស់',
        sku: 'OLD-1',
        category_id: ids.drinks,
        unit_id: (await ctx.db.selectFrom('units').select('id').executeTakeFirstOrThrow()).id,
        price_usd_cents: 50,
      })
    ).body.data.id;
    expect((await send('DELETE', `/api/products/${gone}`)).status).toBe(200);
    const product = await send('POST', '/api/discounts', {
      name: 'Soda',
      type: 'value',
      amount: 10,
      scope: 'product',
      product_id: gone,
    });
    expect(product.body.errors).toEqual({ product_id: ['The selected record does not exist.'] });
    const category = await send('POST', '/api/discounts', {
      name: 'Nothing',
      type: 'value',
      amount: 10,
      scope: 'category',
      category_id: 99_999,
    });
    expect(category.body.errors).toEqual({ category_id: ['The selected record does not exist.'] });
  });

  it('updates, deletes and restores through the kit', async () => {
    const d = await create({ name: 'Water promo', type: 'value', amount: 10, scope: 'product', product_id: ids.water });
    const updated = await send('PUT', `/api/discounts/${d.id}`, {
      name: 'Water promo',
      type: 'percentage',
      amount: 2500,
      scope: 'category',
      category_id: ids.rice,
      status: 'inactive',
    });
    expect(updated.status).toBe(200);
    expect(updated.body.message).toBe('Discount updated.');
    expect(updated.body.data).toMatchObject({
      type: 'percentage',
      amount: 2500,
      product_id: null,
      category_id: ids.rice,
    });
    expect((await send('DELETE', `/api/discounts/${d.id}`)).body.message).toBe('Discount deleted.');
    expect((await send('POST', `/api/discounts/${d.id}/restore`)).body.data.deleted_at).toBeNull();
  });
});

describe('which discounts apply', () => {
  let open: Discount;
  let april: Discount;
  let drinks: Discount;
  let order: Discount;
  let paused: Discount;

  beforeAll(async () => {
    // a clean slate for the dates below
    await ctx.db.deleteFrom('discounts').execute();
    tableChanged(ctx.db, 'discounts');
    open = await create({ name: 'Always beer', type: 'value', amount: 10, scope: 'product', product_id: ids.beer });
    april = await create({
      name: 'April beer',
      type: 'percentage',
      amount: 1000,
      scope: 'product',
      product_id: ids.beer,
      starts_on: '2025-04-01',
      ends_on: '2025-04-30',
    });
    drinks = await create({
      name: 'Drinks from May',
      type: 'fixed',
      amount: 90,
      scope: 'category',
      category_id: ids.drinks,
      starts_on: '2025-05-01',
    });
    order = await create({
      name: 'Order until April',
      type: 'value',
      amount: 200,
      scope: 'order',
      ends_on: '2025-04-15',
    });
    paused = await create({
      name: 'Paused',
      type: 'value',
      amount: 5,
      scope: 'product',
      product_id: ids.beer,
      status: 'inactive',
    });
  });

  it('on a day, within both dates (both included), active only', async () => {
    const beer = { product_id: ids.beer, category_id: ids.drinks };
    const water = { product_id: ids.water, category_id: ids.drinks };
    expect(discountApplies(april, beer, '2025-03-31')).toBe(false);
    expect(discountApplies(april, beer, '2025-04-01')).toBe(true);
    expect(discountApplies(april, beer, '2025-04-30')).toBe(true);
    expect(discountApplies(april, beer, '2025-05-01')).toBe(false);
    expect(discountApplies(open, beer, '1999-01-01')).toBe(true);
    expect(discountApplies(drinks, water, '2025-04-30')).toBe(false);
    expect(discountApplies(drinks, water, '2030-01-01')).toBe(true);
    expect(discountApplies(order, 'order', '2025-04-15')).toBe(true);
    expect(discountApplies(order, 'order', '2025-04-16')).toBe(false);
    expect(discountApplies(paused, beer, '2025-04-10')).toBe(false);
    expect(discountApplies({ ...open, deleted_at: '2025-01-01T00:00:00.000Z' }, beer, '2025-04-10')).toBe(false);
  });

  it('by scope: a product’s lines, its category’s lines, or the order', () => {
    const beer = { product_id: ids.beer, category_id: ids.drinks };
    const water = { product_id: ids.water, category_id: ids.drinks };
    const rice = { product_id: 12345, category_id: ids.rice };
    expect(discountApplies(open, beer, '2025-04-10')).toBe(true);
    expect(discountApplies(open, water, '2025-04-10')).toBe(false);
    expect(discountApplies(open, 'order', '2025-04-10')).toBe(false);
    expect(discountApplies(drinks, beer, '2025-06-01')).toBe(true);
    expect(discountApplies(drinks, rice, '2025-06-01')).toBe(false);
    expect(discountApplies(drinks, 'order', '2025-06-01')).toBe(false);
    expect(discountApplies(order, beer, '2025-04-10')).toBe(false);
    // and the pricing takes the rule as it is stored: 10 % of 3 × $1.00
    const cart = priceCart({
      lines: [{ unit_price_cents: 100, quantity: 3, taxable: false, discount: discountRule(april) }],
      vat_rate_bp: 0,
    });
    expect(cart.total_cents).toBe(270);
  });

  it('lists what is active on a day, and discountsFor gives the same', async () => {
    const names = async (query: string) =>
      (await send('GET', `/api/discounts?${query}`)).body.data.map((d: Discount) => d.name);
    expect(await names('filter[active_on]=2025-04-10')).toEqual(['Always beer', 'April beer', 'Order until April']);
    expect(await names('filter[active_on]=2025-06-01')).toEqual(['Always beer', 'Drinks from May']);
    expect((await discountsFor(ctx.db, '2025-04-10')).map((d) => d.name)).toEqual([
      'Always beer',
      'April beer',
      'Order until April',
    ]);
    const today = await discountsFor(ctx.db);
    expect(today.map((d) => d.name)).toEqual(['Always beer', 'Drinks from May']);
    expect(today[0]).toEqual((await send('GET', `/api/discounts/${open.id}`)).body.data);

    expect(await names('filter[status]=inactive')).toEqual(['Paused']);
    expect(await names('filter[scope]=category')).toEqual(['Drinks from May']);
    expect(await names('filter[type]=percentage')).toEqual(['April beer']);
    expect(await names('sort=-amount&filter[scope]=product')).toEqual(['April beer', 'Always beer', 'Paused']);
    expect(await names('search=april')).toEqual(['April beer', 'Order until April']);
    expect((await send('GET', '/api/discounts?filter[active_on]=April')).status).toBe(422);
  });
});

describe('discount permissions', () => {
  it('lets a cashier read discounts and nothing more', async () => {
    const cashier = await createUser(ctx.db, { roles: ['cashier'] });
    const headers = { ...bearer((await login(ctx.app, cashier.name, cashier.password)).token), 'x-localization': 'en' };
    const list = await send('GET', '/api/discounts?filter[active_on]=2025-04-10', undefined, headers);
    expect(list.status).toBe(200);
    const id = list.body.data[0].id;
    expect((await send('GET', `/api/discounts/${id}`, undefined, headers)).status).toBe(200);
    const body = { name: 'Cashier deal', type: 'value', amount: 1, scope: 'order' };
    const refused = await send('POST', '/api/discounts', body, headers);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('You do not have permission to do this.');
    expect((await send('PUT', `/api/discounts/${id}`, body, headers)).status).toBe(403);
    expect((await send('DELETE', `/api/discounts/${id}`, undefined, headers)).status).toBe(403);
    expect((await send('POST', `/api/discounts/${id}/restore`, undefined, headers)).status).toBe(403);
  });
});
