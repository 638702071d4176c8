import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, bearer, createUser, login, useTestApp } from '../../test/harness.ts';

/** `GET /api/products/changes`: what the till's local catalogue reads. */
const ctx = useTestApp();
let headers: Record<string, string>;
let category: number;
let unit: number;

async function send(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, as = headers) {
  const res = await ctx.app.inject({ method, url, headers: as, payload });
  return { status: res.statusCode, body: res.json() };
}

const product = (sku: string, over: object = {}) => ({
  name_en: `Tea ${sku}`,
  name_kh: `តែ ${sku}`,
  sku,
  barcode: null,
  category_id: category,
  unit_id: unit,
  price_usd_cents: 100,
  cost_usd_cents: 50,
  reorder_level: 0,
  ...over,
});

type Page = {
  data: { id: number; sku: string; status: string; deleted_at: string | null }[];
  next: string | null;
  more: boolean;
};

/** Every change after a cursor, page by page: what a sync reads. */
async function readAll(after: string | null, perPage: number, between?: (page: Page) => Promise<void>) {
  const seen: Page['data'] = [];
  let cursor = after;
  for (;;) {
    const query = new URLSearchParams({ per_page: String(perPage), ...(cursor && { after: cursor }) });
    const res = await send('GET', `/api/products/changes?${query}`);
    expect(res.status).toBe(200);
    const page = res.body as Page;
    seen.push(...page.data);
    cursor = page.next;
    await between?.(page);
    if (!page.more) return { seen, cursor };
  }
}

beforeAll(async () => {
  headers = { ...bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token), 'x-localization': 'en' };
  category = (await send('POST', '/api/categories', { name_en: 'Sync tea', name_kh: 'តែស៊ីង' })).body.data.id;
  unit = (await send('POST', '/api/units', { name_en: 'Sync box', name_kh: 'ប្រអប់ស៊ីង', short_name: 'sbox' })).body.data
    .id;
});

describe('product changes', () => {
  it('pages through every product once in (updated_at, id) order, then only what changed since', async () => {
    for (let i = 0; i < 7; i++) expect((await send('POST', '/api/products', product(`CH-${i}`))).status).toBe(201);
    const first = await readAll(null, 3);
    const skus = first.seen.map((row) => row.sku).filter((sku) => sku.startsWith('CH-'));
    expect(skus).toEqual(['CH-0', 'CH-1', 'CH-2', 'CH-3', 'CH-4', 'CH-5', 'CH-6']);
    expect(new Set(first.seen.map((row) => row.id)).size).toBe(first.seen.length);

    // nothing changed: nothing comes, and the cursor stays
    const none = await send('GET', `/api/products/changes?after=${first.cursor}`);
    expect(none.body).toEqual({ data: [], next: first.cursor, more: false });

    // a price changed, one made inactive, one deleted: those three only, as they are now
    const ids = Object.fromEntries(first.seen.map((row) => [row.sku, row.id]));
    await send('PUT', `/api/products/${ids['CH-1']}`, product('CH-1', { price_usd_cents: 150 }));
    await send('PUT', `/api/products/${ids['CH-2']}`, product('CH-2', { status: 'inactive' }));
    await send('DELETE', `/api/products/${ids['CH-3']}`);
    const since = await readAll(first.cursor, 100);
    expect(since.seen.map((row) => [row.sku, row.status, row.deleted_at !== null])).toEqual([
      ['CH-1', 'active', false],
      ['CH-2', 'inactive', false],
      ['CH-3', 'active', true],
    ]);
    expect((since.seen[0] as unknown as { price_usd_cents: number }).price_usd_cents).toBe(150);
  });

  it('misses nothing written while it pages: a product changed behind the cursor comes again at the end', async () => {
    const made: number[] = [];
    for (let i = 0; i < 4; i++) made.push((await send('POST', '/api/products', product(`MID-${i}`))).body.data.id);
    const start = (await readAll(null, 1000)).seen.find((row) => row.id === made[0]);
    expect(start).toBeDefined();
    let wrote = false;
    const { seen } = await readAll(null, 2, async (page) => {
      // after the first page: one already read is renamed, and a new one is made
      if (wrote) return;
      wrote = true;
      await send('PUT', `/api/products/${page.data[0].id}`, product(page.data[0].sku, { name_en: 'Renamed' }));
      await send('POST', '/api/products', product('MID-NEW'));
    });
    const last = seen.filter((row) => row.sku.startsWith('MID-')).map((row) => row.sku);
    expect(last).toContain('MID-NEW');
    const renamed = seen.filter((row) => (row as unknown as { name_en: string }).name_en === 'Renamed');
    expect(renamed).toHaveLength(1);
  });

  it('refuses a cursor it did not make (422) and who may not list products (403)', async () => {
    const bad = await send('GET', '/api/products/changes?after=yesterday');
    expect(bad.status).toBe(422);
    const user = await createUser(ctx.db, { permissions: ['orders.list'] });
    const token = (await login(ctx.app, user.name, user.password)).token;
    const refused = await send('GET', '/api/products/changes', undefined, { ...bearer(token), 'x-localization': 'en' });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: 'You do not have permission to do this.' });
  });
});
