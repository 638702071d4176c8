import type { ComboDetail, ComboInput } from '@depot/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { BEER, factories, firstStore, RICE, WATER } from '../../test/factories.ts';
import { ADMIN_PASSWORD, bearer, createUser, login, useTestApp } from '../../test/harness.ts';

const ctx = useTestApp();
let token: string;
const ids = {} as Record<'drinks' | 'piece' | 'carton' | 'kilo' | 'beer' | 'water' | 'rice' | 'store', number>;

type Headers = Record<string, string>;
const en = (): Headers => ({ ...bearer(token), 'x-localization': 'en' });
const make = factories(ctx, en);

async function send(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, headers = en()) {
  const res = await ctx.app.inject({ method, url, headers, payload });
  return { status: res.statusCode, body: res.json() };
}

/** A carton of beer and three bottles of water, sold for $20.00. */
function party(overrides: Partial<ComboInput> = {}): ComboInput {
  return {
    name_en: 'Party pack',
    name_kh: 'កញ្ចប់ពិធីជប់លៀង',
    description: 'A carton of Angkor and three waters',
    sku: 'COMBO-PARTY',
    selling_price_cents: 2000,
    items: [
      { product_id: ids.beer, unit_id: ids.carton, quantity: 1 },
      { product_id: ids.water, quantity: 3 },
    ],
    ...overrides,
  };
}

async function create(body: ComboInput): Promise<ComboDetail> {
  const res = await send('POST', '/api/combos', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

/** Money and quantities of a combo, as every answer shows them. */
const numbers = (c: Partial<ComboDetail>) => ({
  items_count: c.items_count,
  total_quantity: c.total_quantity,
  price_cents: c.price_cents,
  total_cost_cents: c.total_cost_cents,
  profit_cents: c.profit_cents,
  margin_bp: c.margin_bp,
});

beforeAll(async () => {
  token = (await login(ctx.app, 'admin', ADMIN_PASSWORD)).token;
  const { drinks, can, carton, kilo } = await make.catalogue('carton', 'kilo');
  Object.assign(ids, { drinks, piece: can, carton, kilo });
  const product = async (
    name: { name_en: string; name_kh: string },
    sku: string,
    unit_id: number,
    price: number,
    cost: number,
  ) =>
    make.product({
      ...name,
      sku,
      barcode: sku === 'ANG-330' ? '8851234567898' : null,
      category_id: ids.drinks,
      unit_id,
      price_usd_cents: price,
      cost_usd_cents: cost,
    });
  ids.beer = await product(BEER, 'ANG-330', ids.piece, 100, 60);
  ids.water = await product(WATER, 'VIT-500', ids.piece, 50, 20);
  ids.rice = await product(RICE, 'RICE-1', ids.kilo, 120, 90);
  ids.store = await firstStore(ctx.db);

  // 30 cans of beer in stock worth $13.11 (30 × $0.43 and $0.21 shipping): the average is not whole cents
  const supplier = (await send('POST', '/api/suppliers', { name: 'Cambrew Ltd' })).body.data.id;
  const purchase = await send('POST', '/api/purchases', {
    supplier_id: supplier,
    store_id: ids.store,
    purchase_date: '2025-03-02',
    shipping_cents: 21,
    items: [{ product_id: ids.beer, unit_id: ids.piece, quantity: 30, unit_price_cents: 43 }],
  });
  const item = purchase.body.data.items[0].id;
  expect(
    (
      await send('POST', `/api/purchases/${purchase.body.data.id}/receive`, {
        items: [{ item_id: item, quantity: 30 }],
      })
    ).status,
  ).toBe(200);
});

describe('a combo’s money', () => {
  it('prices each item, costs it at the stock’s average (or the cost price) and sums them', async () => {
    const res = await send('POST', '/api/combos', party());
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Combo created.');
    const combo: ComboDetail = res.body.data;
    expect(combo.items).toEqual([
      {
        product_id: ids.beer,
        product_name_en: 'Angkor beer',
        product_name_kh: 'ស្រាបៀរអង្គរ',
        sku: 'ANG-330',
        unit_id: ids.carton,
        unit_name_en: 'Carton',
        unit_name_kh: 'កេស',
        factor: 24,
        quantity: 1,
        base_quantity: 24,
        unit_price_cents: 2400,
        price_cents: 2400,
        // 24 of 30 cans worth 1311: 1048.8, rounded half up
        cost_cents: 1049,
      },
      {
        product_id: ids.water,
        product_name_en: 'Vital water',
        product_name_kh: 'ទឹកវីតាល់',
        sku: 'VIT-500',
        unit_id: ids.piece,
        unit_name_en: 'Can',
        unit_name_kh: 'កំប៉ុង',
        factor: 1,
        quantity: 3,
        base_quantity: 3,
        unit_price_cents: 50,
        price_cents: 150,
        // none in stock: the cost price
        cost_cents: 60,
      },
    ]);
    expect(combo).toMatchObject({
      name_en: 'Party pack',
      name_kh: 'កញ្ចប់ពិធីជប់លៀង',
      description: 'A carton of Angkor and three waters',
      sku: 'COMBO-PARTY',
      barcode: null,
      selling_price_cents: 2000,
      status: 'active',
      items_count: 2,
      total_quantity: 27,
      price_cents: 2550,
      total_cost_cents: 1109,
      profit_cents: 891,
      margin_bp: 4455,
      created_by_name: 'Administrator',
      deleted_at: null,
    });
    expect(combo.created_by).toBe(
      (await ctx.db.selectFrom('users').select('id').where('name', '=', 'admin').executeTakeFirstOrThrow()).id,
    );
    expect((await send('GET', `/api/combos/${combo.id}`)).body.data).toEqual(combo);
  });

  it('shows in the list the numbers the detail computes, a loss as a negative margin', async () => {
    const loss = await create(party({ name_en: 'Clearance', sku: 'COMBO-LOSS', selling_price_cents: 1003 }));
    // cost 1109 for 1003: a loss of 106, -1056.8 bp rounded away from zero
    expect(numbers(loss)).toEqual({
      items_count: 2,
      total_quantity: 27,
      price_cents: 2550,
      total_cost_cents: 1109,
      profit_cents: -106,
      margin_bp: -1057,
    });
    const free = await create(party({ name_en: 'Free gift', sku: 'COMBO-FREE', selling_price_cents: 0 }));
    expect(numbers(free)).toMatchObject({ profit_cents: -1109, margin_bp: 0 });

    const list = await send('GET', '/api/combos?per_page=50');
    expect(list.status).toBe(200);
    for (const row of list.body.data) {
      const detail = (await send('GET', `/api/combos/${row.id}`)).body.data;
      const { items, ...head } = detail;
      expect(row, row.name_en).toEqual(head);
      expect(items.length).toBe(row.items_count);
    }
    const byMargin = await send('GET', '/api/combos?sort=-margin');
    expect(byMargin.body.data.map((c: ComboDetail) => c.sku)).toEqual(['COMBO-PARTY', 'COMBO-FREE', 'COMBO-LOSS']);
    const byProfit = await send('GET', '/api/combos?sort=profit');
    expect(byProfit.body.data.map((c: ComboDetail) => c.sku)).toEqual(['COMBO-FREE', 'COMBO-LOSS', 'COMBO-PARTY']);
  });

  it('follows the products’ prices', async () => {
    const combo = await create(party({ name_en: 'Follower', sku: 'COMBO-FOLLOW' }));
    await ctx.db.updateTable('products').set({ price_usd_cents: 110 }).where('id', '=', ids.water).execute();
    const after = (await send('GET', `/api/combos/${combo.id}`)).body.data;
    expect(after.items[1]).toMatchObject({ unit_price_cents: 110, price_cents: 330 });
    expect(after.price_cents).toBe(2400 + 330);
    await ctx.db.updateTable('products').set({ price_usd_cents: 50 }).where('id', '=', ids.water).execute();
  });

  it('previews the combo the body would make: the same numbers as once saved', async () => {
    const body = party({
      name_en: 'Preview pack',
      sku: 'COMBO-PREVIEW',
      barcode: '4006381333931',
      selling_price_cents: 3000,
      items: [
        { product_id: ids.beer, unit_id: ids.carton, quantity: 1 },
        { product_id: ids.beer, unit_id: ids.piece, quantity: 5 },
        { product_id: ids.rice, quantity: 2 },
      ],
    });
    const preview = await send('POST', '/api/combos/preview', body);
    expect(preview.status).toBe(200);
    expect(await ctx.db.selectFrom('combos').select('id').where('sku', '=', 'COMBO-PREVIEW').execute()).toEqual([]);
    const saved = await create(body);
    const { id, created_at, updated_at, deleted_at, abilities, ...same } = saved;
    expect(abilities).toEqual({ update: true, delete: true, restore: false });
    expect(preview.body.data).toEqual(same);
    // 24 and 5 of 30 cans worth 1311 (1048.8 and 218.5, each rounded half up), 2 kg of rice at cost 90
    expect(numbers(preview.body.data)).toEqual({
      items_count: 3,
      total_quantity: 31,
      price_cents: 2400 + 500 + 240,
      total_cost_cents: 1049 + 219 + 180,
      profit_cents: 3000 - 1448,
      margin_bp: 5173,
    });
    // and the list, which computes in SQL, says the same (218.5 rounds up there too)
    const row = (await send('GET', '/api/combos?search=COMBO-PREVIEW')).body.data[0];
    expect(numbers(row)).toEqual(numbers(saved));

    // editing it: its own SKU and barcode are no conflict, another combo's are
    const again = await send('POST', `/api/combos/preview?combo_id=${saved.id}`, body);
    expect(again.status).toBe(200);
    expect(again.body.data.created_by_name).toBe('Administrator');
    const other = await send('POST', '/api/combos/preview', body);
    expect(other.body.errors).toEqual({
      sku: ['This value is already used.'],
      barcode: ['This value is already used.'],
    });
  });
});

describe('a combo’s rules', () => {
  it('refuses a SKU or barcode a product or another combo has, whatever the case', async () => {
    const product = await send('POST', '/api/combos', party({ sku: 'ang-330', barcode: '8851234567898' }));
    expect(product.status).toBe(422);
    expect(product.body.errors).toEqual({
      sku: ['A product already uses this value.'],
      barcode: ['A product already uses this value.'],
    });
    const combo = await send('POST', '/api/combos', party({ sku: 'combo-party' }));
    expect(combo.body.errors).toEqual({ sku: ['This value is already used.'] });
    const check = await send('POST', '/api/combos', party({ sku: 'COMBO-NEW', barcode: '8851234567892' }));
    expect(check.body.errors).toEqual({ barcode: ['This barcode’s check digit is wrong: check the number.'] });
  });

  it('checks every field and item, in the reader’s language', async () => {
    const res = await send('POST', '/api/combos', {
      name_en: 'ab',
      name_kh: 'កញ្ចប់',
      sku: 'has space',
      selling_price_cents: -1,
      items: [
        { product_id: ids.beer, unit_id: ids.kilo, quantity: 1 },
        { product_id: 99_999, quantity: 1 },
        { product_id: ids.water, quantity: 0 },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      name_en: ['Must be at least 3 characters.'],
      sku: ['The format is not valid.'],
      selling_price_cents: ['Must be at least 0.'],
      'items.2.quantity': ['Must be at least 1.'],
    });
    const rules = await send('POST', '/api/combos', {
      ...party({ sku: 'COMBO-RULES' }),
      items: [
        { product_id: ids.beer, unit_id: ids.kilo, quantity: 1 },
        { product_id: 99_999, quantity: 1 },
        { product_id: ids.water, quantity: 1 },
        { product_id: ids.water, unit_id: ids.piece, quantity: 2 },
      ],
    });
    expect(rules.body.errors).toEqual({
      'items.0.unit_id': ['Choose the product’s own unit or one made of it.'],
      'items.1.product_id': ['The selected record does not exist.'],
      'items.3.product_id': ['This product is already in the combo in this unit.'],
    });
    const none = await send(
      'POST',
      '/api/combos',
      { ...party({ sku: 'COMBO-NONE' }), items: [] },
      {
        ...bearer(token),
        'x-localization': 'kh',
      },
    );
    expect(none.body.errors).toEqual({ items: ['សូមជ្រើសរើសយ៉ាងហោចណាស់ 1។'] });
    const kh = await send('POST', '/api/combos', party({ name_kh: 'ក', sku: 'ANG-330' }), {
      ...bearer(token),
      'x-localization': 'kh',
    });
    expect(kh.body.errors).toEqual({ name_kh: ['ត្រូវមានយ៉ាងហោចណាស់ 3 តួអក្សរ។'] });
    const khSku = await send('POST', '/api/combos', party({ sku: 'ANG-330' }), {
      ...bearer(token),
      'x-localization': 'kh',
    });
    expect(khSku.body.errors).toEqual({ sku: ['មានផលិតផលមួយកំពុងប្រើតម្លៃនេះរួចហើយ។'] });
  });

  it('refuses an inactive product', async () => {
    await ctx.db.updateTable('products').set({ status: 'inactive' }).where('id', '=', ids.rice).execute();
    const res = await send(
      'POST',
      '/api/combos',
      party({ sku: 'COMBO-RICE', items: [{ product_id: ids.rice, quantity: 1 }] }),
    );
    expect(res.body.errors).toEqual({ 'items.0.product_id': ['This product is not active.'] });
    await ctx.db.updateTable('products').set({ status: 'active' }).where('id', '=', ids.rice).execute();
  });

  it('replaces the whole combo on update, and is found by its new words', async () => {
    const combo = await create(party({ name_en: 'Rice bundle', sku: 'COMBO-RICE-2' }));
    const res = await send(
      'PUT',
      `/api/combos/${combo.id}`,
      party({
        name_en: 'Rice sack deal',
        sku: 'COMBO-RICE-3',
        status: 'inactive',
        selling_price_cents: 500,
        items: [{ product_id: ids.rice, quantity: 5 }],
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Combo updated.');
    expect(res.body.data).toMatchObject({
      name_en: 'Rice sack deal',
      sku: 'COMBO-RICE-3',
      status: 'inactive',
      items_count: 1,
      total_quantity: 5,
      price_cents: 600,
      total_cost_cents: 450,
      profit_cents: 50,
      margin_bp: 1000,
      created_by_name: 'Administrator',
    });
    const found = await send('GET', '/api/combos?search=sack');
    expect(found.body.data.map((c: ComboDetail) => c.id)).toEqual([combo.id]);
    expect((await send('GET', '/api/combos?search=bundle')).body.data).toEqual([]);
    const holding = await send('GET', `/api/combos?filter[product_id]=${ids.rice}`);
    expect(holding.body.data.map((c: ComboDetail) => c.sku)).toEqual(['COMBO-PREVIEW', 'COMBO-RICE-3']);
    expect((await send('GET', '/api/combos?filter[status]=inactive')).body.meta.total).toBe(1);
    expect((await send('PUT', '/api/combos/99999', party({ sku: 'X-1' }))).status).toBe(404);
  });

  it('keeps a product while a live combo holds it, and a deleted product’s combo deleted', async () => {
    const soda = (
      await send('POST', '/api/products', {
        name_en: 'Soda water',
        name_kh: 'ទឹកសូដា',
        sku: 'SODA-1',
        category_id: ids.drinks,
        unit_id: ids.piece,
        price_usd_cents: 70,
      })
    ).body.data.id;
    const combo = await create(
      party({ name_en: 'Soda pair', sku: 'COMBO-SODA', items: [{ product_id: soda, quantity: 2 }] }),
    );
    const refused = await send('DELETE', `/api/products/${soda}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('Product cannot be deleted: combos still use it (1).');

    const deleted = await send('DELETE', `/api/combos/${combo.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.message).toBe('Combo deleted.');
    expect(deleted.body.data.deleted_at).not.toBeNull();
    expect((await send('GET', '/api/combos?trashed=only')).body.data.map((c: ComboDetail) => c.sku)).toEqual([
      'COMBO-SODA',
    ]);
    expect((await send('DELETE', `/api/products/${soda}`)).status).toBe(200);

    const restore = await send('POST', `/api/combos/${combo.id}/restore`);
    expect(restore.status).toBe(409);
    expect(restore.body.message).toBe(
      'The product “Soda water” of this combo has been deleted: restore the product first.',
    );
    expect((await send('POST', `/api/products/${soda}/restore`)).status).toBe(200);
    const restored = await send('POST', `/api/combos/${combo.id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body.message).toBe('Combo restored.');
    expect(restored.body.data).toMatchObject({ deleted_at: null, items_count: 1, price_cents: 140 });
  });

  it('gives a deleted combo’s SKU back, and will not restore it once taken', async () => {
    const first = await create(party({ name_en: 'Old pack', sku: 'COMBO-OLD' }));
    await send('DELETE', `/api/combos/${first.id}`);
    const second = await create(party({ name_en: 'New pack', sku: 'combo-old' }));
    expect(second.sku).toBe('combo-old');
    const restore = await send('POST', `/api/combos/${first.id}/restore`);
    expect(restore.status).toBe(422);
    expect(restore.body.errors).toEqual({ sku: ['This value is already used.'] });
  });
});

describe('combo permissions', () => {
  it('lets a cashier read combos and nothing more', async () => {
    const cashier = await createUser(ctx.db, { roles: ['cashier'] });
    const headers = { ...bearer((await login(ctx.app, cashier.name, cashier.password)).token), 'x-localization': 'en' };
    const list = await send('GET', '/api/combos', undefined, headers);
    expect(list.status).toBe(200);
    const id = list.body.data[0].id;
    expect((await send('GET', `/api/combos/${id}`, undefined, headers)).status).toBe(200);
    const body = party({ sku: 'COMBO-CASHIER' });
    expect((await send('POST', '/api/combos', body, headers)).status).toBe(403);
    expect((await send('POST', '/api/combos/preview', body, headers)).status).toBe(403);
    expect((await send('PUT', `/api/combos/${id}`, body, headers)).status).toBe(403);
    expect((await send('DELETE', `/api/combos/${id}`, undefined, headers)).status).toBe(403);
    expect((await send('POST', `/api/combos/${id}/restore`, undefined, headers)).status).toBe(403);
  });
});
