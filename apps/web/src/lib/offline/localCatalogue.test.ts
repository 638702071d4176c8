import type { Product, ProductSnapshotAnswer } from '@depot/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * The till's catalogue on the device (fake-indexeddb): a new till's from the server's snapshot in
 * bulk, then from the changes route page by page; a deletion or a deactivation leaves it, and after
 * a reload it is searched from IndexedDB alone.
 */
let clock = Date.parse('2026-11-25T01:00:00.000Z');
const server = new Map<number, Product>();

function put(id: number, over: Partial<Product> = {}) {
  clock += 1000;
  const at = new Date(clock).toISOString();
  server.set(id, {
    id,
    created_at: at,
    deleted_at: null,
    name_en: `Tea ${id}`,
    name_kh: `តែ ${id}`,
    short_name: null,
    sku: `TEA-${id}`,
    barcode: `99${id}`,
    brand_id: null,
    brand_name: null,
    category_id: 1,
    category_name_en: 'Tea',
    category_name_kh: 'តែ',
    sub_category_id: null,
    sub_category_name_en: null,
    sub_category_name_kh: null,
    unit_id: 1,
    unit_name_en: 'Box',
    unit_name_kh: 'ប្រអប់',
    unit_decimals: 0,
    price_usd_cents: 100,
    price_khr: null,
    price_khr_effective: 4100,
    cost_usd_cents: 50,
    taxable: true,
    image_url: null,
    thumbnail_url: null,
    expiry_date: null,
    reorder_level: 0,
    serial_tracked: false,
    warranty_months: 0,
    status: 'active',
    ...server.get(id),
    ...over,
    updated_at: at,
  });
}

/** The snapshot route as the server answers it (products.snapshot.ts): the active products by column, in id order. */
function snapshotAnswer(): ProductSnapshotAnswer {
  const rows = [...server.values()].sort((a, b) => a.id - b.id);
  const key = (row: Product) => `${row.updated_at}~${String(row.id).padStart(15, '0')}`;
  const last = rows.reduce<Product | null>((a, b) => (a && key(a) > key(b) ? a : b), null);
  const live = rows.filter((row) => row.status === 'active' && row.deleted_at === null);
  const units = [...new Map(live.map((row) => [row.unit_id, row])).values()];
  return {
    cursor: last ? `${last.updated_at}~${last.id}` : null,
    units: units.map((row) => ({
      id: row.unit_id,
      name_en: row.unit_name_en,
      name_kh: row.unit_name_kh,
      decimals: row.unit_decimals,
    })),
    id: live.map((row) => row.id),
    name_en: live.map((row) => row.name_en),
    name_kh: live.map((row) => row.name_kh),
    sku: live.map((row) => row.sku),
    barcode: live.map((row) => row.barcode),
    category_id: live.map((row) => row.category_id),
    thumbnail_url: live.map((row) => row.thumbnail_url),
    unit: live.map((row) => units.findIndex((unit) => unit.unit_id === row.unit_id)),
    price_usd_cents: live.map((row) => row.price_usd_cents),
    taxable: live.map((row) => row.taxable),
    serial_tracked: live.map(() => false),
    updated_at: live.map((row) => row.updated_at),
  };
}

/** The snapshots asked, and what the snapshot route answers (null: now's; a number: that status). */
let snapshots = 0;
let snapshotOverride: ProductSnapshotAnswer | number | null = null;

/** The changes route as the server answers it: (updated_at, id) after the cursor, a page at a time. */
const asked: string[] = [];
function fakeFetch(url: string) {
  if (url.includes('products/snapshot')) {
    snapshots++;
    if (typeof snapshotOverride === 'number')
      return Promise.resolve(new Response(JSON.stringify({ message: 'No.' }), { status: snapshotOverride }));
    return Promise.resolve(new Response(JSON.stringify(snapshotOverride ?? snapshotAnswer()), { status: 200 }));
  }
  const query = new URL(url, 'http://till').searchParams;
  asked.push(query.get('after') ?? '');
  const after = query.get('after');
  const perPage = Number(query.get('per_page'));
  const key = (row: Product) => `${row.updated_at}~${String(row.id).padStart(15, '0')}`;
  const cut = after ? `${after.split('~')[0]}~${after.split('~')[1].padStart(15, '0')}` : '';
  const rows = [...server.values()].filter((row) => key(row) > cut).sort((a, b) => (key(a) < key(b) ? -1 : 1));
  const page = rows.slice(0, perPage);
  const last = page.at(-1);
  const body = { data: page, next: last ? `${last.updated_at}~${last.id}` : after, more: rows.length > perPage };
  return Promise.resolve(new Response(JSON.stringify(body), { status: 200 }));
}

let n = 0;
/** The till's modules as a page (re)loaded finds them: nothing in memory, the test's database. */
async function freshModules() {
  vi.resetModules();
  const outbox = await import('./outbox.ts');
  outbox.resetOutboxDb(`depot-till-catalogue-${n}`);
  return import('./localCatalogue.ts');
}

beforeEach(() => {
  n++;
  server.clear();
  asked.length = 0;
  snapshots = 0;
  snapshotOverride = null;
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) => fakeFetch(url)),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe('the till’s local catalogue', () => {
  it('is read from the changes, searched locally, and follows a deletion, a deactivation and a rename', async () => {
    for (let id = 1; id <= 2500; id++) put(id);
    put(7, { name_en: 'Jasmine tea', name_kh: 'តែម្លិះ', barcode: '8850001' });
    const catalogue = await freshModules();
    expect(catalogue.catalogueState().ready).toBe(false);
    expect(await catalogue.syncCatalogue()).toBe(2500);
    // one snapshot, then one page of the changes after it
    expect(snapshots).toBe(1);
    expect(asked).toHaveLength(1);
    const index = catalogue.catalogueState().index;
    expect(catalogue.catalogueState().ready).toBe(true);
    expect(index?.search('JASMINE').map((row) => row.id)).toEqual([7]);
    expect(index?.search('ម្លិះ').map((row) => row.id)).toEqual([7]);
    expect(index?.byCode('8850001')?.id).toBe(7);
    // the till keeps no cost
    expect(index?.byCode('8850001')).not.toHaveProperty('cost_usd_cents');

    put(7, { status: 'inactive' });
    put(8, { deleted_at: new Date(clock).toISOString() });
    put(9, { name_en: 'Oolong tea' });
    asked.length = 0;
    expect(await catalogue.syncCatalogue()).toBeGreaterThanOrEqual(3);
    // only what changed since (from a little before the cursor), not the catalogue again
    expect(asked).toHaveLength(1);
    expect(snapshots).toBe(1);
    const after = catalogue.catalogueState().index;
    expect(after?.search('jasmine')).toEqual([]);
    expect(after?.byCode('998')).toBeUndefined();
    expect(after?.search('oolong').map((row) => row.id)).toEqual([9]);
    expect(after?.size).toBe(2498);

    // a reload with no connection: the catalogue comes from IndexedDB alone
    const sameDb = await freshModules();
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('offline'))),
    );
    await sameDb.loadCatalogue();
    expect(sameDb.catalogueState().ready).toBe(true);
    expect(
      sameDb
        .catalogueState()
        .index?.search('oolong')
        .map((row) => row.id),
    ).toEqual([9]);
    await expect(sameDb.syncCatalogue()).rejects.toThrow();
    expect(sameDb.catalogueState().index?.size).toBe(2498);
  });

  it('starts from its snapshot: the stock last told kept, and rows changed after the snapshot rebuilt into it', async () => {
    for (let id = 1; id <= 30; id++) put(id);
    const catalogue = await freshModules();
    await catalogue.syncCatalogue();
    await catalogue.rememberStock(2, [{ id: 5, stock: 12 }]);
    expect(catalogue.catalogueState().index?.byCode('TEA-5')).toMatchObject({ stock: 12, stock_store: 2 });

    // a reload: the stock comes back with the snapshot
    const reloaded = await freshModules();
    await reloaded.loadCatalogue();
    expect(reloaded.catalogueState().index?.byCode('tea-5')).toMatchObject({ stock: 12, stock_store: 2 });
    expect(reloaded.catalogueState().index?.byCode('TEA-6')).not.toHaveProperty('stock');

    // a row written to the table after the snapshot (the till closed before rebuilding it)
    const { outboxDb } = await import('./outbox.ts');
    const db = outboxDb();
    const row = await db.products.get(9);
    if (!row) throw new Error('not kept');
    await db.products.put({ ...row, name_en: 'Oolong tea' });
    await db.meta.put({
      name: 'catalogue_version',
      value: Number((await db.meta.get('catalogue_version'))?.value) + 1,
    });
    const again = await freshModules();
    await again.loadCatalogue();
    expect(
      again
        .catalogueState()
        .index?.search('oolong')
        .map((found) => found.id),
    ).toEqual([9]);
    expect(again.catalogueState().ready).toBe(true);
  });

  it('does not take back an older copy of a product (a kept answer replayed)', async () => {
    put(1, { name_en: 'Green tea' });
    const catalogue = await freshModules();
    await catalogue.syncCatalogue();
    const old = server.get(1) as Product;
    put(1, { name_en: 'Black tea' });
    await catalogue.syncCatalogue();
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response(JSON.stringify({ data: [old], next: null, more: false })))),
    );
    await catalogue.syncCatalogue();
    expect(
      catalogue
        .catalogueState()
        .index?.search('black')
        .map((row) => row.id),
    ).toEqual([1]);
  });

  it('is forgotten when the server says this user may not list products', async () => {
    put(1, { name_en: 'Green tea' });
    const catalogue = await freshModules();
    await catalogue.syncCatalogue();
    expect(catalogue.catalogueState().ready).toBe(true);
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response(JSON.stringify({ message: 'No.' }), { status: 403 }))),
    );
    await expect(catalogue.syncCatalogue()).rejects.toThrow();
    expect(catalogue.catalogueState().ready).toBe(false);
    const reloaded = await freshModules();
    await reloaded.loadCatalogue();
    expect(reloaded.catalogueState().index?.size).toBe(0);
  });

  it('a new till writes the server’s snapshot in bulk, then loses no change made after it was built', async () => {
    for (let id = 1; id <= 1500; id++) put(id);
    put(3, { status: 'inactive' });
    const built = snapshotAnswer();
    const cursorAt = Date.parse(String(built.cursor).split('~')[0]);
    // after the build: one renamed, one new; and one written before the cursor but committed after
    // the build (a slower transaction), so not in the snapshot
    put(5, { name_en: 'Jasmine tea' });
    put(2001, { name_en: 'Late lemongrass' });
    server.set(2002, {
      ...(server.get(1) as Product),
      id: 2002,
      sku: 'TEA-2002',
      name_en: 'Slow sesame',
      updated_at: new Date(cursorAt - 10_000).toISOString(),
    });
    snapshotOverride = built;

    const catalogue = await freshModules();
    expect(await catalogue.syncCatalogue()).toBeGreaterThanOrEqual(1499 + 3);
    expect(snapshots).toBe(1);
    // the changes from a little before the snapshot's cursor
    expect(asked).toContain(`${new Date(cursorAt - 30_000).toISOString()}~0`);
    const index = catalogue.catalogueState().index;
    expect(catalogue.catalogueState().ready).toBe(true);
    expect(index?.search('jasmine').map((row) => row.id)).toEqual([5]);
    expect(index?.search('lemongrass').map((row) => row.id)).toEqual([2001]);
    expect(index?.search('sesame').map((row) => row.id)).toEqual([2002]);
    expect(index?.byCode('TEA-3')).toBeUndefined();
    expect(index?.byCode('991200')).toMatchObject({ id: 1200, unit_name_kh: 'ប្រអប់', price_usd_cents: 100 });
    expect(index?.size).toBe(1499 + 2);

    // the table holds what the till sells with (no cost), with the server's time of each row
    const { outboxDb } = await import('./outbox.ts');
    const kept = await outboxDb().products.get(1200);
    expect(kept).toEqual({
      id: 1200,
      name_en: 'Tea 1200',
      name_kh: 'តែ 1200',
      sku: 'TEA-1200',
      barcode: '991200',
      category_id: 1,
      thumbnail_url: null,
      unit_id: 1,
      unit_name_en: 'Box',
      unit_name_kh: 'ប្រអប់',
      unit_decimals: 0,
      price_usd_cents: 100,
      taxable: true,
      serial_tracked: false,
      updated_at: server.get(1200)?.updated_at,
    });
    expect(await outboxDb().products.count()).toBe(1501);

    // a reload: read from the device, and the next sync asks no snapshot again
    const reloaded = await freshModules();
    await reloaded.syncCatalogue();
    expect(snapshots).toBe(1);
    expect(
      reloaded
        .catalogueState()
        .index?.search('sesame')
        .map((row) => row.id),
    ).toEqual([2002]);
  });

  it('reads the changes page by page where the server has no snapshot, and forgets on a 403', async () => {
    for (let id = 1; id <= 1200; id++) put(id);
    snapshotOverride = 403;
    const refused = await freshModules();
    await expect(refused.syncCatalogue()).rejects.toThrow();
    expect(refused.catalogueState().ready).toBe(false);
    expect(asked).toEqual([]);

    snapshotOverride = 404;
    const catalogue = await freshModules();
    expect(await catalogue.syncCatalogue()).toBe(1200);
    expect(snapshots).toBe(2);
    expect(asked.length).toBeGreaterThanOrEqual(2);
    expect(catalogue.catalogueState().index?.size).toBe(1200);
  });
});
