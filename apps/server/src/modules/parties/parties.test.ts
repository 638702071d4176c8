import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, bearer, login, useTestApp } from '../../test/harness.ts';
import { type GazetteerUnit, importGazetteer, readGazetteerFile } from '../geography/gazetteer.import.ts';

const gazetteer: GazetteerUnit[] = readGazetteerFile() as GazetteerUnit[];

const ctx = useTestApp();
let headers: Record<string, string>;
let villageId: number;
beforeAll(async () => {
  headers = { ...bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token), 'x-localization': 'en' };
  await importGazetteer(ctx.db, gazetteer);
  villageId = (await get('/api/villages?search=1020104&sort=code')).data[0].id;
});
async function get(url: string) {
  return (await ctx.app.inject({ method: 'GET', url, headers })).json();
}
async function send(method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  const res = await ctx.app.inject({ method, url, headers, payload });
  return { status: res.statusCode, body: res.json() };
}

describe('stores', () => {
  it('keeps an address with its gazetteer location', async () => {
    const res = await send('POST', '/api/stores', {
      name: 'Poipet depot',
      code: 'PPT-1',
      phone: '+855 12 345 678',
      address: 'National Road 5',
      village_id: villageId,
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      code: 'PPT-1',
      phone: '+855 12 345 678',
      location: 'Kouk Pnov, Banteay Neang, Mongkol Borei, Banteay Meanchey',
      location_kh: expect.stringMatching(/^គោកព្នៅ, .+, បន្ទាយមានជ័យ$/),
      users_count: 0,
    });
    const bad = await send('POST', '/api/stores', {
      name: 'Nowhere',
      code: 'NW',
      phone: 'call me',
      village_id: 999_999,
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ phone: ['The format is not valid.'] });
    const noVillage = await send('POST', '/api/stores', { name: 'Nowhere', code: 'NW', village_id: 999_999 });
    expect(noVillage.body.errors).toEqual({ village_id: ['The selected record does not exist.'] });
  });

  it('refuses to delete a store its staff work in', async () => {
    const main = (await get('/api/stores?search=MAIN')).data[0];
    expect(main.users_count).toBe(1);
    const res = await send('DELETE', `/api/stores/${main.id}`);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Store cannot be deleted: users still use it (1).');
  });
});

describe('customers', () => {
  it('has a walk-in customer that cannot be deleted', async () => {
    const walkIn = (await get('/api/customers?per_page=100')).data.find((c: { is_walk_in: boolean }) => c.is_walk_in);
    expect(walkIn).toMatchObject({ name: 'អតិថិជនទូទៅ', status: 'active' });
    const res = await send('DELETE', `/api/customers/${walkIn.id}`);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(
      'The walk-in customer is used by every sale without a customer and cannot be deleted.',
    );
  });

  it('takes a two-character Khmer name, finds customers by phone, and keeps a shipping address', async () => {
    const res = await send('POST', '/api/customers', {
      name: 'ដា',
      phone: '012 888 999',
      address: 'Phsar Thmei',
      shipping_address: 'Street 63, Phnom Penh',
      vat_number: 'K002-100200300',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      is_walk_in: false,
      shipping_address: 'Street 63, Phnom Penh',
      vat_number: 'K002-100200300',
      location: null,
    });
    const found = await get('/api/customers?search=888');
    expect(found.data.map((c: { name: string }) => c.name)).toEqual(['ដា']);
  });
});

describe('suppliers', () => {
  it('filters by type and starts with no items received', async () => {
    await send('POST', '/api/suppliers', { name: 'Cambrew Ltd', type: 'company', village_id: villageId });
    await send('POST', '/api/suppliers', { name: 'Sok Farmer', type: 'individual' });
    const companies = await get('/api/suppliers?filter[type]=company');
    expect(companies.data.map((s: { name: string }) => s.name)).toEqual(['Cambrew Ltd']);
    expect(companies.data[0]).toMatchObject({ total_items: 0, location: expect.stringContaining('Kouk Pnov') });
    const short = await send('POST', '/api/suppliers', { name: 'AB' });
    expect(short.body.errors).toEqual({ name: ['Must be at least 3 characters.'] });
  });
});
