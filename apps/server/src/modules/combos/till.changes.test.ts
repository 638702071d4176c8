import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, bearer, createUser, login, useTestApp } from '../../test/harness.ts';

/**
 * `GET /api/{combos,discounts,customers}/changes`: what the till's local catalogue reads besides
 * products: paged in (updated_at, id) order, deleted and inactive rows included, the
 * list's permission.
 */
const ctx = useTestApp();
let headers: Record<string, string>;
let products: number[] = [];

async function send(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, as = headers) {
  const res = await ctx.app.inject({ method, url, headers: as, payload });
  return { status: res.statusCode, body: res.json() };
}

type Row = { id: number; status: string; deleted_at: string | null; updated_at: string } & Record<string, unknown>;
type Page = { data: Row[]; next: string | null; more: boolean };

async function readAll(path: string, after: string | null, perPage: number) {
  const seen: Row[] = [];
  let cursor = after;
  for (;;) {
    const query = new URLSearchParams({ per_page: String(perPage), ...(cursor && { after: cursor }) });
    const res = await send('GET', `/api/${path}/changes?${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const page = res.body as Page;
    seen.push(...page.data);
    cursor = page.next;
    if (!page.more) return { seen, cursor };
  }
}

const combo = (sku: string, over: object = {}) => ({
  name_en: `Pack ${sku}`,
  name_kh: `កញ្ចប់ ${sku}`,
  sku,
  selling_price_cents: 500,
  items: [
    { product_id: products[0], quantity: 2 },
    { product_id: products[1], quantity: 1 },
  ],
  ...over,
});
const discount = (name: string, over: object = {}) => ({
  name,
  type: 'fixed',
  amount: 50,
  scope: 'order',
  product_id: null,
  category_id: null,
  starts_on: null,
  ends_on: null,
  ...over,
});
const customer = (name: string, over: object = {}) => ({ name, phone: null, ...over });

/** A resource's writes as the till must see them: three made, one changed, one inactive, one deleted. */
const cases = [
  { path: 'combos', make: combo, key: 'sku', change: { selling_price_cents: 450 }, field: 'selling_price_cents' },
  { path: 'discounts', make: discount, key: 'name', change: { amount: 75 }, field: 'amount' },
  { path: 'customers', make: customer, key: 'name', change: { phone: '012345678' }, field: 'phone' },
] as const;

beforeAll(async () => {
  headers = { ...bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token), 'x-localization': 'en' };
  const category = (await send('POST', '/api/categories', { name_en: 'Sync packs', name_kh: 'កញ្ចប់ស៊ីង' })).body.data.id;
  const unit = (await send('POST', '/api/units', { name_en: 'Sync can', name_kh: 'កំប៉ុងស៊ីង', short_name: 'scan' })).body
    .data.id;
  products = [];
  for (const sku of ['TC-A', 'TC-B']) {
    const res = await send('POST', '/api/products', {
      name_en: `Can ${sku}`,
      name_kh: `កំប៉ុង ${sku}`,
      sku,
      barcode: null,
      category_id: category,
      unit_id: unit,
      price_usd_cents: 100,
      cost_usd_cents: 50,
      reorder_level: 0,
    });
    expect(res.status).toBe(201);
    products.push(res.body.data.id);
  }
});

describe.each(cases)('$path changes', ({ path, make, key, change, field }) => {
  it('pages through every row once in (updated_at, id) order, then only what changed since, deleted ones included', async () => {
    const names = [0, 1, 2, 3].map((i) => `TILL-${path}-${i}`);
    for (const name of names) {
      const res = await send('POST', `/api/${path}`, make(name));
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const first = await readAll(path, null, 2);
    const ours = first.seen.filter((row) => names.includes(row[key] as string));
    expect(ours.map((row) => row[key])).toEqual(names);
    expect(new Set(first.seen.map((row) => row.id)).size).toBe(first.seen.length);

    const none = await send('GET', `/api/${path}/changes?after=${first.cursor}`);
    expect(none.body).toEqual({ data: [], next: first.cursor, more: false });

    const id = (i: number) => ours[i].id;
    expect((await send('PUT', `/api/${path}/${id(1)}`, make(names[1], change))).status).toBe(200);
    expect((await send('PUT', `/api/${path}/${id(2)}`, make(names[2], { status: 'inactive' }))).status).toBe(200);
    expect((await send('DELETE', `/api/${path}/${id(3)}`)).status).toBe(200);
    const since = await readAll(path, first.cursor, 100);
    expect(since.seen.map((row) => [row[key], row.status, row.deleted_at !== null])).toEqual([
      [names[1], 'active', false],
      [names[2], 'inactive', false],
      [names[3], 'active', true],
    ]);
    expect(since.seen[0][field]).toEqual(Object.values(change)[0]);

    // restored: it comes again, live
    expect((await send('POST', `/api/${path}/${id(3)}/restore`)).status).toBe(200);
    const back = await readAll(path, since.cursor, 100);
    expect(back.seen.map((row) => [row[key], row.deleted_at])).toEqual([[names[3], null]]);
  });

  it(`refuses who may not list ${path} (403), as the list does`, async () => {
    const user = await createUser(ctx.db, { permissions: ['orders.list'] });
    const token = (await login(ctx.app, user.name, user.password)).token;
    const as = { ...bearer(token), 'x-localization': 'en' };
    expect((await send('GET', `/api/${path}`, undefined, as)).status).toBe(403);
    const refused = await send('GET', `/api/${path}/changes`, undefined, as);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: 'You do not have permission to do this.' });
  });
});
