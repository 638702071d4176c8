import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * The rest of the till's catalogue on the device (fake-indexeddb): combos with their items,
 * discounts, customers and the rates, each read from its changes route page by page; a deletion
 * or a deactivation leaves it; an older copy is not taken back; a 403 forgets that one only; after
 * a reload they are read from IndexedDB alone.
 */
type Row = { id: number; updated_at: string; deleted_at: string | null; status: string } & Record<string, unknown>;
let clock = Date.parse('2026-11-25T01:00:00.000Z');
const server: Record<'combos' | 'discounts' | 'customers', Map<number, Row>> = {
  combos: new Map(),
  discounts: new Map(),
  customers: new Map(),
};
const refused = new Set<string>();
const asked: string[] = [];

const base = (table: keyof typeof server, id: number): Record<string, unknown> => {
  if (table === 'combos')
    return {
      name_en: `Pack ${id}`,
      name_kh: `កញ្ចប់ ${id}`,
      description: null,
      sku: `PACK-${id}`,
      barcode: `77${id}`,
      selling_price_cents: 500,
      items_count: 1,
      total_quantity: 2,
      price_cents: 600,
      total_cost_cents: 300,
      profit_cents: 200,
      margin_bp: 4000,
      created_by: null,
      created_by_name: null,
      abilities: { update: false, delete: false, restore: false },
    };
  if (table === 'discounts')
    return {
      name: `Off ${id}`,
      type: 'fixed',
      amount: 50,
      scope: 'order',
      product_id: null,
      product_name_en: null,
      product_name_kh: null,
      category_id: null,
      category_name_en: null,
      category_name_kh: null,
      starts_on: null,
      ends_on: null,
    };
  return {
    name: `Customer ${id}`,
    phone: `012${id}`,
    address: 'Street 1',
    shipping_address: null,
    vat_number: 'VAT-1',
    village_id: null,
    location: null,
    location_kh: null,
    is_walk_in: id === 1,
    customer_group_id: null,
    credit_limit_cents: 100000,
    payment_terms_days: 30,
    customer_group_name_en: null,
    customer_group_name_kh: null,
  };
};

function put(table: keyof typeof server, id: number, over: Record<string, unknown> = {}) {
  clock += 1000;
  const at = new Date(clock).toISOString();
  server[table].set(id, {
    id,
    created_at: at,
    deleted_at: null,
    status: 'active',
    ...base(table, id),
    ...server[table].get(id),
    ...over,
    updated_at: at,
  } as Row);
}

const json = (body: unknown, status = 200) => Promise.resolve(new Response(JSON.stringify(body), { status }));

/** The changes routes, a combo's detail and the current rates as the server answers them. */
function fakeFetch(url: string) {
  const parsed = new URL(url, 'http://till');
  const path = parsed.pathname.replace(/^.*\/api\//, '');
  asked.push(path);
  const table = path.split('/')[0] as keyof typeof server;
  if (refused.has(table)) return json({ message: 'No.' }, 403);
  if (path === 'exchange-rates/current')
    return json({
      data: {
        rate_khr: 4100,
        rate_in_khr: null,
        rate_out_khr: null,
        khr_step: 100,
        vat_rate_bp: 1000,
        stale_after_hours: 24,
        updated_at: null,
        updated_by_name: null,
        stale: false,
        receipt_title: 'Depot',
        receipt_footer: 'Thanks',
      },
    });
  const detail = path.match(/^combos\/(\d+)$/);
  if (detail) {
    const row = server.combos.get(Number(detail[1]));
    if (!row || row.deleted_at) return json({ message: 'Not found.' }, 404);
    const item = {
      product_id: 5,
      product_name_en: 'Tea',
      product_name_kh: 'តែ',
      sku: 'TEA-5',
      unit_id: 1,
      unit_name_en: 'Box',
      unit_name_kh: 'ប្រអប់',
      factor: 1,
      quantity: 2,
      base_quantity: 2,
      unit_price_cents: 300,
      price_cents: 600,
      cost_cents: 300,
    };
    return json({ data: { ...row, items: [item] } });
  }
  const query = parsed.searchParams;
  const after = query.get('after');
  const perPage = Number(query.get('per_page'));
  const key = (row: Row) => `${row.updated_at}~${String(row.id).padStart(15, '0')}`;
  const cut = after ? `${after.split('~')[0]}~${after.split('~')[1].padStart(15, '0')}` : '';
  const rows = [...server[table].values()].filter((row) => key(row) > cut).sort((a, b) => (key(a) < key(b) ? -1 : 1));
  const page = rows.slice(0, perPage);
  const last = page.at(-1);
  return json({ data: page, next: last ? `${last.updated_at}~${last.id}` : after, more: rows.length > perPage });
}

let n = 0;
async function freshModules() {
  vi.resetModules();
  const outbox = await import('./outbox.ts');
  outbox.resetOutboxDb(`depot-till-kept-${n}`);
  return import('./localLists.ts');
}

beforeEach(() => {
  n++;
  for (const table of Object.values(server)) table.clear();
  refused.clear();
  asked.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) => fakeFetch(url)),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe('the till’s combos, discounts, customers and rates on the device', () => {
  it('are read from the changes, follow a deletion and a deactivation, and come back from IndexedDB alone', async () => {
    for (let id = 1; id <= 1500; id++) put('customers', id);
    for (let id = 1; id <= 3; id++) put('combos', id);
    for (let id = 1; id <= 3; id++) put('discounts', id);
    const local = await freshModules();
    expect(local.localListsState()).toEqual({ combos: null, discounts: null, customers: null, rates: null });
    await local.syncLocalLists();
    expect(asked.filter((path) => path === 'customers/changes')).toHaveLength(2); // 1000 a page
    const state = local.localListsState();
    expect(state.customers).toHaveLength(1500);
    // the picker's fields and the addresses a delivery starts at: no credit, no VAT number
    expect(state.customers?.find((row) => row.id === 2)).toEqual({
      id: 2,
      name: 'Customer 2',
      phone: '0122',
      address: 'Street 1',
      shipping_address: null,
      status: 'active',
      is_walk_in: false,
      customer_group_id: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      deleted_at: null,
    });
    // a combo with its items, found by its code, without its cost
    const pack = state.combos?.byCode('772');
    expect(pack?.items.map((item) => [item.product_id, item.base_quantity])).toEqual([[5, 2]]);
    expect(pack).not.toHaveProperty('total_cost_cents');
    expect(pack?.items[0]).not.toHaveProperty('cost_cents');
    expect(state.combos?.search('pack').map((row) => row.id)).toEqual([1, 2, 3]);
    expect(state.discounts?.map((row) => row.name)).toEqual(['Off 1', 'Off 2', 'Off 3']);
    expect(state.rates?.rate_khr).toBe(4100);

    put('combos', 2, { deleted_at: new Date(clock).toISOString() });
    put('discounts', 3, { status: 'inactive' });
    put('customers', 7, { name: 'Sok Dara' });
    put('customers', 8, { deleted_at: new Date(clock).toISOString() });
    asked.length = 0;
    await local.syncLocalLists();
    // only what changed since: one page each, no combo detail asked again but for a changed one
    expect(asked.filter((path) => path === 'customers/changes')).toHaveLength(1);
    expect(asked.filter((path) => /^combos\/\d+$/.test(path))).toEqual([]);
    const after = local.localListsState();
    expect(after.combos?.search('pack').map((row) => row.id)).toEqual([1, 3]);
    expect(after.combos?.byCode('772')).toBeUndefined();
    expect(after.discounts?.map((row) => row.name)).toEqual(['Off 1', 'Off 2']);
    expect(after.customers).toHaveLength(1499);
    expect(after.customers?.find((row) => row.id === 7)?.name).toBe('Sok Dara');

    // a reload with no connection: all of it from IndexedDB
    const sameDb = await freshModules();
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('offline'))),
    );
    await sameDb.loadLocalLists();
    const reloaded = sameDb.localListsState();
    expect(reloaded.combos?.size).toBe(2);
    expect(reloaded.discounts).toHaveLength(2);
    expect(reloaded.customers).toHaveLength(1499);
    expect(reloaded.rates?.rate_khr).toBe(4100);
    await expect(sameDb.syncLocalLists()).rejects.toThrow();
    expect(sameDb.localListsState().customers).toHaveLength(1499);
  });

  it('does not take back an older copy (a kept answer replayed)', async () => {
    put('discounts', 1, { amount: 50 });
    const local = await freshModules();
    await local.syncLocalLists();
    const old = server.discounts.get(1);
    put('discounts', 1, { amount: 80 });
    await local.syncLocalLists();
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string) =>
        url.includes('discounts/changes') ? json({ data: [old], next: null, more: false }) : fakeFetch(url),
      ),
    );
    await local.syncLocalLists();
    expect(local.localListsState().discounts?.map((row) => row.amount)).toEqual([80]);
  });

  it('forgets only what the server says this user may not list', async () => {
    put('customers', 1);
    put('combos', 1);
    const local = await freshModules();
    await local.syncLocalLists();
    expect(local.localListsState().customers).toHaveLength(1);
    refused.add('customers');
    await expect(local.syncLocalLists()).rejects.toThrow();
    expect(local.localListsState().customers).toBeNull();
    expect(local.localListsState().combos?.size).toBe(1);
    const reloaded = await freshModules();
    await reloaded.loadLocalLists();
    expect(reloaded.localListsState().customers).toBeNull();
    expect(reloaded.localListsState().combos?.size).toBe(1);
  });
});
