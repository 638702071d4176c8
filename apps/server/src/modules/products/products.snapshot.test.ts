import { gunzipSync } from 'node:zlib';
import type { ProductSnapshotAnswer } from '@depot/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, bearer, createUser, login, useTestApp } from '../../test/harness.ts';

/** `GET /api/products/snapshot`: a new till's first sync, then the changes after its cursor. */
const ctx = useTestApp();
let headers: Record<string, string>;
let category: number;
let unit: number;

async function send(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, as = headers) {
  const res = await ctx.app.inject({ method, url, headers: as, payload });
  return { status: res.statusCode, body: res.json() };
}

const product = (sku: string, over: object = {}) => ({
  name_en: `Rice ${sku}`,
  name_kh: `អង្ករ ${sku}`,
  sku,
  barcode: null,
  category_id: category,
  unit_id: unit,
  price_usd_cents: 250,
  cost_usd_cents: 170,
  reorder_level: 0,
  ...over,
});

/** The snapshot as a browser asks it (gzip accepted), decoded. */
async function snapshot(as = headers, extra: Record<string, string> = {}) {
  const res = await ctx.app.inject({
    method: 'GET',
    url: '/api/products/snapshot',
    headers: { ...as, 'accept-encoding': 'gzip, deflate, br', ...extra },
  });
  const body =
    res.statusCode === 200 && res.headers['content-encoding'] === 'gzip'
      ? (JSON.parse(gunzipSync(res.rawPayload).toString('utf8')) as ProductSnapshotAnswer)
      : null;
  return { res, body };
}

const tokenOf = async (permissions: string[]) => {
  const user = await createUser(ctx.db, { permissions: permissions as never });
  return { ...bearer((await login(ctx.app, user.name, user.password)).token), 'x-localization': 'en' };
};

beforeAll(async () => {
  headers = { ...bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token), 'x-localization': 'en' };
  category = (await send('POST', '/api/categories', { name_en: 'Snap rice', name_kh: 'អង្ករស្នប' })).body.data.id;
  unit = (await send('POST', '/api/units', { name_en: 'Snap sack', name_kh: 'បាវស្នប', short_name: 'ssack' })).body.data
    .id;
});

describe('the products snapshot', () => {
  it('holds the active products, only what the till needs, compressed, with the cursor of the changes', async () => {
    const ids: Record<string, number> = {};
    for (const sku of ['SN-1', 'SN-2', 'SN-3', 'SN-4']) {
      ids[sku] = (await send('POST', '/api/products', product(sku, { barcode: `885${sku.slice(3)}` }))).body.data.id;
    }
    await send('PUT', `/api/products/${ids['SN-2']}`, product('SN-2', { status: 'inactive', barcode: '8852' }));
    await send('DELETE', `/api/products/${ids['SN-3']}`);

    const { res, body } = await snapshot();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(res.headers.etag).toMatch(/^W\/".+"$/);
    expect(res.headers.vary).toMatch(/Accept-Encoding/);
    if (!body) throw new Error('no body');

    // each column one value a product, in id order; inactive and deleted ones left out
    const n = body.id.length;
    for (const column of ['name_en', 'name_kh', 'sku', 'barcode', 'price_usd_cents', 'taxable', 'updated_at'] as const)
      expect(body[column]).toHaveLength(n);
    expect(body.id).toEqual([...body.id].sort((a, b) => a - b));
    expect(body.sku.filter((sku) => sku.startsWith('SN-'))).toEqual(['SN-1', 'SN-4']);
    const at = body.id.indexOf(ids['SN-4']);
    expect({
      name_kh: body.name_kh[at],
      barcode: body.barcode[at],
      price: body.price_usd_cents[at],
      taxable: body.taxable[at],
      thumbnail: body.thumbnail_url[at],
      unit: body.units[body.unit[at]],
    }).toEqual({
      name_kh: 'អង្ករ SN-4',
      barcode: '8854',
      price: 250,
      taxable: true,
      thumbnail: null,
      unit: { id: unit, name_en: 'Snap sack', name_kh: 'បាវស្នប', decimals: 0 },
    });
    // no cost for anyone, and the cursor is where the changes feed ends now (the deletion, last)
    expect(JSON.stringify(body)).not.toContain('cost');
    const changes = await send('GET', `/api/products/changes?after=${encodeURIComponent(body.cursor ?? '')}`);
    expect(changes.body).toEqual({ data: [], next: body.cursor, more: false });
    expect(body.cursor).toMatch(new RegExp(`~${ids['SN-3']}$`));

    // a client that does not take gzip gets the same JSON plain
    const plain = await ctx.app.inject({ method: 'GET', url: '/api/products/snapshot', headers });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json()).toEqual(body);
  });

  it('answers 304 to its ETag until a product or a unit changes, and never to who may not list products', async () => {
    const first = await snapshot();
    const etag = String(first.res.headers.etag);
    const again = await snapshot(headers, { 'if-none-match': etag });
    expect(again.res.statusCode).toBe(304);
    expect(again.res.rawPayload).toHaveLength(0);
    expect(again.res.headers.etag).toBe(etag);

    // another user who may list products, without costs.view: the same answer (nothing in it is per user)
    const clerk = await tokenOf(['products.list']);
    const theirs = await snapshot(clerk);
    expect(theirs.res.headers.etag).toBe(etag);
    expect(theirs.body).toEqual(first.body);

    // who may not list products gets no snapshot, nor a 304 that says theirs is current
    const other = await tokenOf(['orders.list']);
    for (const extra of [{}, { 'if-none-match': etag }] as Record<string, string>[]) {
      const refused = await snapshot(other, extra);
      expect(refused.res.statusCode).toBe(403);
      expect(refused.res.headers.etag).toBeUndefined();
      expect(refused.res.json()).toEqual({ message: 'You do not have permission to do this.' });
    }
    const anonymous = await ctx.app.inject({
      method: 'GET',
      url: '/api/products/snapshot',
      headers: { 'if-none-match': etag },
    });
    expect(anonymous.statusCode).toBe(401);

    // a unit renamed: its name is on the till's lines, so a new snapshot
    await send('PUT', `/api/units/${unit}`, { name_en: 'Snap bag', name_kh: 'បាវស្នប', short_name: 'ssack' });
    const renamed = await snapshot(headers, { 'if-none-match': etag });
    expect(renamed.res.statusCode).toBe(200);
    expect(renamed.body?.units.find((u) => u.id === unit)?.name_en).toBe('Snap bag');
  });

  it('loses no change made after it was built: the changes after its cursor bring it', async () => {
    const made = (await send('POST', '/api/products', product('SN-LATE'))).body.data.id as number;
    const { res, body } = await snapshot();
    if (!body?.cursor) throw new Error('no cursor');
    expect(body.id).toContain(made);

    // renamed after the snapshot was built; another product made after it
    await send('PUT', `/api/products/${made}`, product('SN-LATE', { name_en: 'Jasmine rice' }));
    const added = (await send('POST', '/api/products', product('SN-NEW'))).body.data.id as number;
    const changes = await send('GET', `/api/products/changes?after=${encodeURIComponent(body.cursor)}`);
    expect(changes.body.data.map((row: { id: number; name_en: string }) => [row.id, row.name_en])).toEqual([
      [made, 'Jasmine rice'],
      [added, 'Rice SN-NEW'],
    ]);

    // and the next snapshot is built again, with both
    const next = await snapshot(headers, { 'if-none-match': String(res.headers.etag) });
    expect(next.res.statusCode).toBe(200);
    expect(next.body?.name_en[next.body.id.indexOf(made)]).toBe('Jasmine rice');
    expect(next.body?.id).toContain(added);
  });
});
