import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, bearer, createUser, login, useTestApp } from '../../test/harness.ts';

const ctx = useTestApp();
let admin: Record<string, string>;
beforeAll(async () => {
  admin = { ...bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token), 'x-localization': 'en' };
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
async function call(method: Method, url: string, payload?: object, headers = admin) {
  const res = await ctx.app.inject({ method, url, payload, headers });
  return { status: res.statusCode, body: res.json() };
}

describe('brands: the resource kit end to end', () => {
  it('creates, shows, updates, deletes and restores with localized messages', async () => {
    const created = await call('POST', '/api/brands', { name: 'Angkor Beer', description: 'Brewery' });
    expect(created.status).toBe(201);
    expect(created.body.message).toBe('Brand created.');
    expect(created.body.data).toMatchObject({
      name: 'Angkor Beer',
      description: 'Brewery',
      status: 'active',
      deleted_at: null,
    });
    const id = created.body.data.id;

    expect((await call('GET', `/api/brands/${id}`)).body.data.name).toBe('Angkor Beer');

    const updated = await call(
      'PUT',
      `/api/brands/${id}`,
      { name: 'Angkor', status: 'inactive' },
      {
        ...admin,
        'x-localization': 'kh',
      },
    );
    expect(updated.status).toBe(200);
    expect(updated.body.message).toBe('បានកែប្រែម៉ាកដោយជោគជ័យ។');
    expect(updated.body.data).toMatchObject({ name: 'Angkor', status: 'inactive', description: null });

    const deleted = await call('DELETE', `/api/brands/${id}`);
    expect(deleted.body).toMatchObject({ message: 'Brand deleted.' });
    expect(deleted.body.data.deleted_at).not.toBeNull();
    expect((await call('PUT', `/api/brands/${id}`, { name: 'Angkor' })).status).toBe(404);
    expect((await call('DELETE', `/api/brands/${id}`)).status).toBe(404);

    const restored = await call('POST', `/api/brands/${id}/restore`);
    expect(restored.body.message).toBe('Brand restored.');
    expect(restored.body.data.deleted_at).toBeNull();
  });

  it('refuses a name already used by a live brand, whatever its case, and frees it on delete', async () => {
    const first = await call('POST', '/api/brands', { name: 'Vital Water' });
    const dup = await call('POST', '/api/brands', { name: 'VITAL water' });
    expect(dup.status).toBe(422);
    expect(dup.body.errors).toEqual({ name: ['This value is already used.'] });

    await call('DELETE', `/api/brands/${first.body.data.id}`);
    const again = await call('POST', '/api/brands', { name: 'Vital Water' });
    expect(again.status).toBe(201);
    // the first cannot come back while the second holds its name
    const restore = await call('POST', `/api/brands/${first.body.data.id}/restore`);
    expect(restore.status).toBe(422);
    expect(restore.body.errors.name).toEqual(['This value is already used.']);
  });

  it('validates with the spec messages and changes nothing', async () => {
    const before = (await call('GET', '/api/brands?per_page=100&trashed=with')).body.meta.total;
    const res = await call('POST', '/api/brands', { name: 'ab', status: 'sold' });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      name: ['Must be at least 3 characters.'],
      status: ['Choose one of the allowed values.'],
    });
    expect((await call('POST', '/api/brands', {})).body.errors.name).toEqual(['This field is required!']);
    expect((await call('GET', '/api/brands?per_page=100&trashed=with')).body.meta.total).toBe(before);
  });

  it('paginates in the Laravel shape, searches, sorts, filters and shows deleted records on request', async () => {
    for (const name of ['Zeta Foods', 'Alpha Rice', 'Mekong Fish', 'Alpha Oil'])
      await call('POST', '/api/brands', { name });
    const inactive = await call('POST', '/api/brands', { name: 'Alpha Salt', status: 'inactive' });
    const gone = await call('POST', '/api/brands', { name: 'Alpha Gone' });
    await call('DELETE', `/api/brands/${gone.body.data.id}`);

    const page = await call('GET', '/api/brands?search=alpha&per_page=10&sort=-name');
    expect(page.status).toBe(200);
    expect(page.body.data.map((b: { name: string }) => b.name)).toEqual(['Alpha Salt', 'Alpha Rice', 'Alpha Oil']);
    expect(page.body.meta).toEqual({ current_page: 1, per_page: 10, total: 3, last_page: 1, from: 1, to: 3 });
    expect(page.body.links.next).toBeNull();

    const active = await call('GET', '/api/brands?search=alpha&filter[status]=active');
    expect(active.body.data.map((b: { name: string }) => b.name)).toEqual(['Alpha Oil', 'Alpha Rice']);
    const trashed = await call('GET', '/api/brands?search=alpha&trashed=only');
    expect(trashed.body.data.map((b: { name: string }) => b.name)).toEqual(['Alpha Gone']);
    expect((await call('GET', '/api/brands?search=alpha&trashed=with')).body.meta.total).toBe(4);
    expect(inactive.body.data.status).toBe('inactive');

    const paged = await call('GET', '/api/brands?per_page=10&page=1&search=a');
    expect(paged.body.links.first).toBe('/api/brands?per_page=10&page=1&search=a');
    const wildcard = await call('GET', `/api/brands?search=${encodeURIComponent('100%')}`);
    expect(wildcard.body.data).toEqual([]);
  });

  it('rejects an unknown sort column and a page size outside the choice', async () => {
    expect((await call('GET', '/api/brands?sort=password')).body.errors).toEqual({
      sort: ['This column cannot be sorted.'],
    });
    expect((await call('GET', '/api/brands?per_page=7')).status).toBe(422);
  });
});

describe('categories and sub-categories', () => {
  it('links a sub-category to a live category and refuses to delete a category still in use', async () => {
    const drinks = await call('POST', '/api/categories', { name_en: 'Drinks', name_kh: 'ភេសជ្ជៈ' });
    expect(drinks.status).toBe(201);
    const soda = await call('POST', '/api/sub-categories', {
      category_id: drinks.body.data.id,
      name_en: 'Soft drinks',
      name_kh: 'ភេសជ្ជៈឥតជាតិអាល់កុល',
    });
    expect(soda.status).toBe(201);
    expect(soda.body.data).toMatchObject({ category_name_en: 'Drinks', category_name_kh: 'ភេសជ្ជៈ' });
    expect((await call('GET', `/api/categories/${drinks.body.data.id}`)).body.data.sub_categories_count).toBe(1);

    const blocked = await call('DELETE', `/api/categories/${drinks.body.data.id}`);
    expect(blocked.status).toBe(409);
    expect(blocked.body.message).toBe('Category cannot be deleted: sub-categories still use it (1).');
    const blockedKh = await call('DELETE', `/api/categories/${drinks.body.data.id}`, undefined, {
      ...admin,
      'x-localization': 'kh',
    });
    expect(blockedKh.body.message).toBe('មិនអាចលុបប្រភេទបានទេ ព្រោះនៅមានប្រភេទរង 1 កំពុងប្រើ។');

    await call('DELETE', `/api/sub-categories/${soda.body.data.id}`);
    expect((await call('DELETE', `/api/categories/${drinks.body.data.id}`)).status).toBe(200);
    const orphan = await call('POST', '/api/sub-categories', {
      category_id: drinks.body.data.id,
      name_en: 'Juice',
      name_kh: 'ទឹកផ្លែឈើ',
    });
    expect(orphan.status).toBe(422);
    expect(orphan.body.errors).toEqual({ category_id: ['The selected record does not exist.'] });
  });

  it('filters sub-categories by category', async () => {
    const food = await call('POST', '/api/categories', { name_en: 'Food', name_kh: 'អាហារ' });
    await call('POST', '/api/sub-categories', {
      category_id: food.body.data.id,
      name_en: 'Noodles',
      name_kh: 'មី' + 'សម្រេច',
    });
    const list = await call('GET', `/api/sub-categories?filter[category_id]=${food.body.data.id}`);
    expect(list.body.data.map((s: { name_en: string }) => s.name_en)).toEqual(['Noodles']);
  });
});

describe('units and conversions', () => {
  it('defines a carton as 24 pieces, one level deep', async () => {
    const piece = await call('POST', '/api/units', { name_en: 'Piece', name_kh: 'ដុំ', short_name: 'pcs' });
    expect(piece.body.data).toMatchObject({ factor: 1, base_unit_id: null });
    const carton = await call('POST', '/api/units', {
      name_en: 'Carton',
      name_kh: 'កេស',
      short_name: 'ctn',
      base_unit_id: piece.body.data.id,
      factor: 24,
    });
    expect(carton.status).toBe(201);
    expect(carton.body.data).toMatchObject({ factor: 24, base_unit_name_en: 'Piece', base_unit_name_kh: 'ដុំ' });

    const nested = await call('POST', '/api/units', {
      name_en: 'Pallet',
      name_kh: 'ប៉ាឡែត',
      short_name: 'plt',
      base_unit_id: carton.body.data.id,
      factor: 40,
    });
    expect(nested.body.errors).toEqual({
      base_unit_id: ['Choose a base unit: one that is not itself made of another unit.'],
    });

    const noFactor = await call('POST', '/api/units', {
      name_en: 'Pack',
      name_kh: 'កញ្ចប់',
      short_name: 'pk',
      base_unit_id: piece.body.data.id,
      factor: 1,
    });
    expect(noFactor.body.errors.factor).toHaveLength(1);

    const inUse = await call('DELETE', `/api/units/${piece.body.data.id}`);
    expect(inUse.status).toBe(409);
    expect(inUse.body.message).toBe('Unit cannot be deleted: units still use it (1).');
    const demote = await call('PUT', `/api/units/${piece.body.data.id}`, {
      name_en: 'Piece',
      name_kh: 'ដុំ',
      short_name: 'pcs',
      base_unit_id: carton.body.data.id,
      factor: 2,
    });
    expect(demote.status).toBe(422);
  });

  it('lists only base units when asked, for the pickers', async () => {
    const bases = await call('GET', '/api/units?filter[is_base]=true&per_page=100');
    expect(bases.body.data.length).toBeGreaterThan(0);
    expect(bases.body.data.every((u: { base_unit_id: number | null }) => u.base_unit_id === null)).toBe(true);
    const all = await call('GET', '/api/units?per_page=100');
    expect(all.body.meta.total).toBeGreaterThan(bases.body.meta.total);
  });

  it('accepts a two-character Khmer unit name', async () => {
    const bottle = await call('POST', '/api/units', { name_en: 'Bottle', name_kh: 'ដប', short_name: 'btl' });
    expect(bottle.status).toBe(201);
  });
});

describe('permissions', () => {
  it('lets a cashier list categories but not change them, and a stock keeper create but not delete', async () => {
    const cashier = await createUser(ctx.db, { roles: ['cashier'] });
    const keeper = await createUser(ctx.db, { roles: ['stock_keeper'] });
    const as = async (user: { name: string; password: string }) =>
      bearer((await login(ctx.app, user.name, user.password)).token);
    const c = await as(cashier);
    const k = await as(keeper);
    expect((await call('GET', '/api/categories', undefined, c)).status).toBe(200);
    expect((await call('POST', '/api/categories', { name_en: 'Toys', name_kh: 'ប្រដាប់ក្មេងលេង' }, c)).status).toBe(403);
    expect((await call('GET', '/api/brands', undefined, c)).status).toBe(403);
    const made = await call('POST', '/api/brands', { name: 'Keeper Brand' }, k);
    expect(made.status).toBe(201);
    expect((await call('DELETE', `/api/brands/${made.body.data.id}`, undefined, k)).status).toBe(403);
  });
});
