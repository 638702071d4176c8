import { gtinCheckDigit, tillOrder } from '@depot/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { factories, firstStore, stockIn } from '../../test/factories.ts';
import { ADMIN_PASSWORD, bearer, createStore, createUser, login, useTestApp } from '../../test/harness.ts';

const ctx = useTestApp();
const code = (i: number) => `88500000000${i}${gtinCheckDigit(`88500000000${i}`)}`;
let headers: Record<string, string>;
const ids: Record<string, number> = {};

async function get(url: string, as = headers) {
  const res = await ctx.app.inject({ method: 'GET', url, headers: as });
  return { status: res.statusCode, body: res.json() };
}

// names whose order tells a byte-wise comparison from a dictionary's: case, accents, Khmer, digits
const NAMES = ['noodle Zeta', 'Noodle beta', 'Noodle Alpha', 'NOODLE 10', 'Noodle 9', 'Noodle ö', 'Noodle alpha'];

beforeAll(async () => {
  headers = { ...bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token), 'x-localization': 'en' };
  const make = factories(ctx, () => headers);
  Object.assign(ids, await make.catalogue());
  for (const [i, name] of NAMES.entries()) {
    ids[name] = await make.product({
      name_en: name,
      name_kh: `មី ${i}`,
      sku: `NOOD-${i}`,
      barcode: code(i),
      category_id: ids.drinks,
      unit_id: ids.can,
    });
  }
  ids.main = await firstStore(ctx.db);
  ids.other = await createStore(ctx.db, 'OTHER');
  await stockIn(ctx.db, { store: ids.main, product: ids['Noodle 9'], quantity: 12, valueCents: 1200 });
});

describe('GET /api/products/till: the till before its catalogue is on the device', () => {
  it('answers what a tile needs, in the order the device ranks (contracts tillOrder)', async () => {
    const res = await get('/api/products/till?search=noodle&per_page=50');
    expect(res.status).toBe(200);
    const names = res.body.data.map((row: { name_en: string }) => row.name_en);
    const ranked = NAMES.map((name) => ({ name_en: name, id: ids[name] }))
      .sort(tillOrder)
      .map((row) => row.name_en);
    expect(names).toEqual(ranked);
    expect(Object.keys(res.body.data[0]).sort()).toEqual(
      [
        'id',
        'name_en',
        'name_kh',
        'sku',
        'barcode',
        'category_id',
        'unit_id',
        'unit_name_en',
        'unit_name_kh',
        'price_usd_cents',
        'taxable',
        'thumbnail_url',
        'serial_tracked',
        'unit_decimals',
      ].sort(),
    );
    // Khmer and two words, as the list searches
    expect((await get('/api/products/till?search=មី%203')).body.data.map((r: { sku: string }) => r.sku)).toEqual([
      'NOOD-3',
    ]);
  });

  it('finds a scanned barcode or a SKU in any case, with the store stock', async () => {
    const scan = await get(`/api/products/till?filter[code]=${code(4)}&stock_store=${ids.main}`);
    expect(scan.body.data).toMatchObject([{ name_en: 'Noodle 9', stock: 12, unit_name_en: 'Can' }]);
    const sku = await get('/api/products/till?filter[code]=nood-2');
    expect(sku.body.data).toMatchObject([{ name_en: 'Noodle Alpha' }]);
    expect(sku.body.data[0]).not.toHaveProperty('stock');
    // a part of a code is no code
    expect((await get(`/api/products/till?filter[code]=${code(4).slice(0, -1)}`)).body.data).toEqual([]);
    // a code no product could have is refused on its field, never a 5xx
    for (const bad of ['x'.repeat(101), '%00']) {
      expect((await get(`/api/products/till?filter[code]=${bad}`)).status).toBe(422);
    }
    // bytes that are no text are read as the replacement character: a code of nothing
    expect((await get('/api/products/till?filter[code]=%ED%A0%80')).body.data).toEqual([]);
    const empty = await get('/api/products/till?filter[code]=');
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toHaveProperty(['filter[code]']);
  });

  it('holds the list’s permission and its rule on a store’s stock', async () => {
    const none = await createUser(ctx.db, { permissions: [] });
    const without = { ...bearer((await login(ctx.app, none.name, none.password)).token), 'x-localization': 'en' };
    expect((await get('/api/products/till?search=noodle', without)).status).toBe(403);
    const cashier = await createUser(ctx.db, { roles: ['cashier'], store: ids.main });
    const theirs = { ...bearer((await login(ctx.app, cashier.name, cashier.password)).token), 'x-localization': 'kh' };
    expect((await get(`/api/products/till?search=noodle&stock_store=${ids.main}`, theirs)).status).toBe(200);
    const outside = await get(`/api/products/till?search=noodle&stock_store=${ids.other}`, theirs);
    expect(outside.status).toBe(422);
    expect(outside.body.errors.stock_store[0]).toMatch(/[\u1780-\u17FF]/);
    // read only: nothing but the list is there
    expect((await ctx.app.inject({ method: 'POST', url: '/api/products/till', headers, payload: {} })).statusCode).toBe(
      404,
    );
  });
});
