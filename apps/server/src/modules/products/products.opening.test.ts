import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, bearer, createStore, createUser, login, useTestApp } from '../../test/harness.ts';

/** A new product's opening stock, given in its form: an `opening` adjustment in the product's transaction. */

const ctx = useTestApp();
let admin: Record<string, string>;
const ids: Record<string, number> = {};

async function send(headers: Record<string, string>, method: 'GET' | 'POST', url: string, payload?: object) {
  const res = await ctx.app.inject({ method, url, headers, payload });
  return { status: res.statusCode, body: res.json() };
}

const productsWithSku = (sku: string) => ctx.db.selectFrom('products').select('id').where('sku', '=', sku).execute();

const product = (sku: string, over: object = {}) => ({
  name_en: `Fish sauce ${sku}`,
  name_kh: `ទឹកត្រី ${sku}`,
  sku,
  category_id: ids.food,
  unit_id: ids.bottle,
  price_usd_cents: 150,
  cost_usd_cents: 80,
  ...over,
});

beforeAll(async () => {
  admin = { ...bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token), 'x-localization': 'en' };
  ids.main = (await ctx.db.selectFrom('stores').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
  ids.second = await createStore(ctx.db, 'OS-2');
  ids.food = (await send(admin, 'POST', '/api/categories', { name_en: 'Food', name_kh: 'អាហារ' })).body.data.id;
  ids.bottle = (
    await send(admin, 'POST', '/api/units', { name_en: 'Bottle', name_kh: 'ដប', short_name: 'btl' })
  ).body.data.id;
});

describe('a new product with opening stock', () => {
  it('receives it in each store as an opening adjustment, by the user, at the cost given or the cost price', async () => {
    const keeper = await createUser(ctx.db, { roles: ['stock_keeper'], covers: [ids.second] });
    const headers = { ...bearer((await login(ctx.app, keeper.name, keeper.password)).token), 'x-localization': 'en' };
    const res = await send(
      headers,
      'POST',
      '/api/products',
      product('OPEN-1', {
        opening_stock: [
          { store_id: ids.main, quantity: 12 },
          { store_id: ids.second, quantity: 5, unit_cost_cents: 100, lot: 'L-7', expiry_date: '2031-06-30' },
        ],
      }),
    );
    expect(res.status).toBe(201);
    const id = res.body.data.id as number;

    const levels = await send(admin, 'GET', `/api/stocks/levels?filter[product_id]=${id}&per_page=100`);
    const byStore = Object.fromEntries(
      levels.body.data.map((l: { store_id: number; quantity: number }) => [l.store_id, l.quantity]),
    );
    expect(byStore).toEqual({ [ids.main]: 12, [ids.second]: 5 });
    // one average cost per product, all stores together: (12 × 80 + 5 × 100) / 17
    expect(levels.body.data[0].average_cost_cents).toBe(86);

    const movements = await send(admin, 'GET', `/api/stocks/movements?filter[product_id]=${id}&per_page=100`);
    expect(movements.body.meta.total).toBe(2);
    const rows = [...movements.body.data].sort((a, b) => a.store_id - b.store_id);
    for (const row of rows) {
      expect(row).toMatchObject({ type: 'adjustment', reason: 'opening', document_type: 'adjustment' });
      expect(row.user_name).toBe(`Test ${keeper.name}`);
    }
    expect(rows[0]).toMatchObject({ store_id: ids.main, quantity: 12, value_cents: 960, lot: null });
    expect(rows[1]).toMatchObject({
      store_id: ids.second,
      quantity: 5,
      value_cents: 500,
      lot: 'L-7',
      expiry_date: '2031-06-30',
    });

    const valuation = await ctx.db
      .selectFrom('stock_valuations')
      .select(['quantity', 'value_cents'])
      .where('product_id', '=', id)
      .executeTakeFirstOrThrow();
    expect({ quantity: Number(valuation.quantity), value: Number(valuation.value_cents) }).toEqual({
      quantity: 17,
      value: 1460,
    });
    const adjustments = await ctx.db
      .selectFrom('stock_adjustments')
      .select(['reason', 'created_by'])
      .where('id', 'in', [rows[0].document_id, rows[1].document_id])
      .execute();
    expect(adjustments).toEqual([
      { reason: 'opening', created_by: keeper.id },
      { reason: 'opening', created_by: keeper.id },
    ]);
  });

  it('refuses opening stock to a user who may not adjust stock (403) and creates no product', async () => {
    const clerk = await createUser(ctx.db, {
      permissions: ['products.create', 'products.list', 'products.view', 'costs.view'],
    });
    const token = bearer((await login(ctx.app, clerk.name, clerk.password)).token);
    const body = product('OPEN-2', { opening_stock: [{ store_id: ids.main, quantity: 3 }] });
    const en = await send({ ...token, 'x-localization': 'en' }, 'POST', '/api/products', body);
    expect(en.status).toBe(403);
    expect(en.body.message).toBe('You may not give a product opening stock: stock adjustments are not yours.');
    const kh = await send({ ...token, 'x-localization': 'kh' }, 'POST', '/api/products', body);
    expect(kh.status).toBe(403);
    expect(kh.body.message).toBe('អ្នកមិនមានសិទ្ធិបញ្ចូលស្តុកដើមគ្រាទេ៖ អ្នកមិនមានសិទ្ធិកែតម្រូវស្តុក។');
    expect(await productsWithSku('OPEN-2')).toEqual([]);
    // the same user creates the product without opening stock
    const plain = await send({ ...token, 'x-localization': 'en' }, 'POST', '/api/products', product('OPEN-2'));
    expect(plain.status).toBe(201);
  });

  it('refuses a bad quantity or a store not covered (422, localized) and creates nothing', async () => {
    const zero = await send(
      admin,
      'POST',
      '/api/products',
      product('OPEN-3', { opening_stock: [{ store_id: ids.main, quantity: 0 }] }),
    );
    expect(zero.status).toBe(422);
    expect(Object.keys(zero.body.errors)).toEqual(['opening_stock.0.quantity']);
    const fraction = await send(
      { ...admin, 'x-localization': 'kh' },
      'POST',
      '/api/products',
      product('OPEN-3', { opening_stock: [{ store_id: ids.main, quantity: 1.5 }] }),
    );
    expect(fraction.status).toBe(422);
    expect(fraction.body.errors['opening_stock.0.quantity'][0]).toMatch(/[\u1780-\u17FF]/);
    const negativeCost = await send(
      admin,
      'POST',
      '/api/products',
      product('OPEN-3', { opening_stock: [{ store_id: ids.main, quantity: 2, unit_cost_cents: -1 }] }),
    );
    expect(negativeCost.status).toBe(422);
    expect(Object.keys(negativeCost.body.errors)).toEqual(['opening_stock.0.unit_cost_cents']);
    const tooMuch = await send(
      admin,
      'POST',
      '/api/products',
      product('OPEN-3', { opening_stock: [{ store_id: ids.main, quantity: 1_000_000_000, unit_cost_cents: 100_000 }] }),
    );
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.errors).toEqual({
      'opening_stock.0.quantity': ['This line comes to more than $100,000,000.00.'],
    });

    // a store the user does not cover: refused after the product was written, so the product goes too
    const elsewhere = await createStore(ctx.db, 'OS-3');
    const keeper = await createUser(ctx.db, { roles: ['stock_keeper'] });
    const token = bearer((await login(ctx.app, keeper.name, keeper.password)).token);
    const uncovered = await send(
      { ...token, 'x-localization': 'en' },
      'POST',
      '/api/products',
      product('OPEN-3', {
        opening_stock: [
          { store_id: ids.main, quantity: 2 },
          { store_id: elsewhere, quantity: 2 },
        ],
      }),
    );
    expect(uncovered.status).toBe(422);
    expect(Object.keys(uncovered.body.errors)).toEqual(['opening_stock.1.store_id']);
    expect(await productsWithSku('OPEN-3')).toEqual([]);
    const moved = await ctx.db
      .selectFrom('stock_adjustments')
      .select('id')
      .where('store_id', '=', ids.main)
      .where('reason', '=', 'opening')
      .where('created_by', '=', keeper.id)
      .execute();
    expect(moved).toEqual([]);
  });
});
