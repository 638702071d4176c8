import {
  type Brand,
  type Category,
  GAZETTEER_ATTRIBUTION,
  GAZETTEER_ATTRIBUTION_KH,
  NO_KHQR,
  type Province,
  type Store,
} from '@depot/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { choose, fieldOf, listAnswer, stamp } from '../test/inventory.ts';
import { mockFetch, renderApp, signedIn } from '../test/render.tsx';

function brand(id: number, name: string, extra: Partial<Brand> = {}): Brand {
  return { id, name, description: null, status: 'active', ...stamp, ...extra };
}

const ALL = ['list', 'view', 'create', 'update', 'delete', 'restore'];
const allOf = (resource: string) => ALL.map((action) => `${resource}.${action}`);

describe('resource list', { timeout: 20_000 }, () => {
  it('says "more than 1,000" when a search counted its matches only up to 1,000', async () => {
    mockFetch({
      'GET brands': {
        body: listAnswer([brand(1, 'Noodle 1'), brand(2, 'Noodle 2')], { total: 1000, lowerBound: true }),
      },
    });
    signedIn({ permissions: allOf('brands') });
    renderApp('/en/brands?search=noodle');
    const table = await screen.findByTestId('list-table');
    await within(table).findByText('Noodle 1');
    expect(table.textContent).toContain('1–2 of more than 1,000');
  });

  it('shows the rows and the total of the server page, and asks for page 1 of 20', async () => {
    const { calls } = mockFetch({
      'GET brands': { body: listAnswer([brand(1, 'Coca-Cola'), brand(2, 'Angkor')], { total: 42 }) },
    });
    signedIn({ permissions: allOf('brands') });
    renderApp('/en/brands');
    const table = await screen.findByTestId('list-table');
    await within(table).findByText('Coca-Cola');
    expect(within(table).getByText('Angkor')).toBeTruthy();
    expect(within(table).getAllByText('Active')).toHaveLength(2);
    expect(table.textContent).toContain('1–2 of 42');
    // 42 rows at 20 a page: three pages
    expect(within(table).getByTitle('3')).toBeTruthy();
    expect(within(table).queryByTitle('4')).toBeNull();
    const [request] = calls('GET brands');
    expect(Object.fromEntries(request.query)).toEqual({ page: '1', per_page: '20' });
  });

  it('sends the rows-per-page choice and the search text, each from page 1', async () => {
    const { calls } = mockFetch({
      'GET brands': ({ query }) => ({
        body: listAnswer([brand(1, 'Coca-Cola')], { total: 300, page: Number(query.get('page')) }),
      }),
    });
    signedIn({ permissions: allOf('brands') });
    const { user } = renderApp('/en/brands?page=3');
    await screen.findByText('Coca-Cola');
    expect(calls('GET brands')[0].query.get('page')).toBe('3');

    await choose(user, screen.getByRole('combobox', { name: 'Rows per page' }), '50 / page');
    await waitFor(() => expect(calls('GET brands').at(-1)?.query.get('per_page')).toBe('50'));
    expect(calls('GET brands').at(-1)?.query.get('page')).toBe('1');

    await user.type(screen.getByTestId('list-search'), 'coca');
    await waitFor(() => expect(calls('GET brands').at(-1)?.query.get('search')).toBe('coca'));
    const last = calls('GET brands').at(-1);
    expect(last?.query.get('per_page')).toBe('50');
    expect(last?.query.get('page')).toBe('1');
    // typing is debounced: one request for the word, not one per letter
    expect(calls('GET brands').filter((r) => r.query.get('search'))).toHaveLength(1);
  });

  it('sorts and filters with the API names', async () => {
    const { calls } = mockFetch({ 'GET brands': { body: listAnswer([brand(1, 'Coca-Cola')]) } });
    signedIn({ permissions: allOf('brands') });
    const { user } = renderApp('/en/brands');
    await screen.findByText('Coca-Cola');
    // antd draws the header twice (one copy measures the columns); the first is the one people see
    await user.click(screen.getAllByText('Name')[0]);
    await waitFor(() => expect(calls('GET brands').at(-1)?.query.get('sort')).toBe('name'));
    await user.click(screen.getAllByText('Name')[0]);
    await waitFor(() => expect(calls('GET brands').at(-1)?.query.get('sort')).toBe('-name'));
    await choose(user, screen.getByRole('combobox', { name: 'Status' }), 'Inactive');
    await waitFor(() => expect(calls('GET brands').at(-1)?.query.get('filter[status]')).toBe('inactive'));
  });

  it('deletes only after the confirmation, and shows the server message', async () => {
    let deleted = false;
    const { calls } = mockFetch({
      'GET brands': () => ({ body: listAnswer(deleted ? [] : [brand(1, 'Coca-Cola')]) }),
      'DELETE brands/1': () => {
        deleted = true;
        return { body: { message: 'Brand deleted.', data: brand(1, 'Coca-Cola', { deleted_at: stamp.created_at }) } };
      },
    });
    signedIn({ permissions: allOf('brands') });
    const { user } = renderApp('/en/brands');
    await user.click(await screen.findByTestId('delete-1'));
    const popup = (await screen.findByText('Delete “Coca-Cola”?')).closest('.ant-popover') as HTMLElement;
    expect(popup.textContent).toContain('Show deleted');
    expect(calls('DELETE brands/1')).toHaveLength(0);
    await user.click(within(popup).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Brand deleted.')).toBeTruthy();
    expect(calls('DELETE brands/1')).toHaveLength(1);
    // the list is asked again, and the row is gone
    await waitFor(() => expect(screen.queryByTestId('delete-1')).toBeNull());
  });

  it("shows the server's refusal when the record is still in use", async () => {
    const category: Category = {
      id: 4,
      name_en: 'Drinks',
      name_kh: 'ភេសជ្ជៈ',
      description: null,
      status: 'active',
      sub_categories_count: 1,
      ...stamp,
    };
    mockFetch({
      'GET categories': { body: listAnswer([category]) },
      'DELETE categories/4': {
        status: 409,
        body: { message: 'Category cannot be deleted: sub-categories still use it (1).' },
      },
    });
    signedIn({ permissions: allOf('categories') });
    const { user } = renderApp('/en/categories');
    await user.click(await screen.findByTestId('delete-4'));
    const popup = (await screen.findByText('Delete “Drinks”?')).closest('.ant-popover') as HTMLElement;
    await user.click(within(popup).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Category cannot be deleted: sub-categories still use it (1).')).toBeTruthy();
    expect(screen.getByTestId('delete-4')).toBeTruthy();
  });

  it('lists deleted records on request and restores one after the confirmation', async () => {
    const gone = brand(7, 'Old Cola', { deleted_at: '2026-03-02T02:00:00.000Z' });
    const { calls } = mockFetch({
      'GET brands': ({ query }) => ({ body: listAnswer(query.get('trashed') === 'only' ? [gone] : []) }),
      'POST brands/7/restore': { body: { message: 'Brand restored.', data: { ...gone, deleted_at: null } } },
    });
    signedIn({ permissions: allOf('brands') });
    const { user } = renderApp('/en/brands');
    await screen.findByText('Nothing here yet');
    await user.click(screen.getByTestId('show-deleted'));
    await screen.findByText('Old Cola');
    expect(calls('GET brands').at(-1)?.query.get('trashed')).toBe('only');
    // a deleted row offers Restore, not Edit or Delete
    expect(screen.queryByTestId('edit-7')).toBeNull();
    expect(screen.queryByTestId('delete-7')).toBeNull();
    await user.click(screen.getByTestId('restore-7'));
    const popup = (await screen.findByText('Restore “Old Cola”?')).closest('.ant-popover') as HTMLElement;
    expect(calls('POST brands/7/restore')).toHaveLength(0);
    await user.click(within(popup).getByRole('button', { name: 'Restore' }));
    expect(await screen.findByText('Brand restored.')).toBeTruthy();
    expect(calls('POST brands/7/restore')).toHaveLength(1);
  });

  it('hides Create, Edit, Delete and the deleted records from a user who may only list', async () => {
    mockFetch({ 'GET brands': { body: listAnswer([brand(1, 'Coca-Cola')]) } });
    signedIn({ permissions: ['brands.list'] });
    renderApp('/en/brands');
    await screen.findByText('Coca-Cola');
    expect(screen.queryByTestId('create')).toBeNull();
    expect(screen.queryByTestId('edit-1')).toBeNull();
    expect(screen.queryByTestId('delete-1')).toBeNull();
    expect(screen.queryByTestId('show-deleted')).toBeNull();
    expect(screen.queryByText('Actions')).toBeNull();
  });

  it('shows each action the user holds, and not the others', async () => {
    mockFetch({ 'GET brands': { body: listAnswer([brand(1, 'Coca-Cola')]) } });
    signedIn({ permissions: ['brands.list', 'brands.update'] });
    renderApp('/en/brands');
    expect(await screen.findByTestId('edit-1')).toBeTruthy();
    expect(screen.queryByTestId('delete-1')).toBeNull();
    expect(screen.queryByTestId('create')).toBeNull();
  });

  it('empties the search box when the address loses its search (the menu entry clicked again)', async () => {
    const { calls } = mockFetch({ 'GET brands': { body: listAnswer([brand(1, 'Coca-Cola')]) } });
    signedIn({ permissions: allOf('brands') });
    const { user } = renderApp('/en/brands?search=coca');
    await screen.findByText('Coca-Cola');
    expect((screen.getByTestId('list-search') as HTMLInputElement).value).toBe('coca');
    expect(calls('GET brands')[0].query.get('search')).toBe('coca');
    // (antd keeps a second, hidden copy of the menu item for its collapsed state)
    await user.click((await screen.findAllByTestId('menu-/brands'))[0]);
    await waitFor(() => expect((screen.getByTestId('list-search') as HTMLInputElement).value).toBe(''));
    await waitFor(() => expect(calls('GET brands').at(-1)?.query.has('search')).toBe(false));
  });

  it('marks the walk-in customer and offers no Delete for it', async () => {
    const customer = (id: number, name: string, is_walk_in: boolean) => ({
      id,
      name,
      phone: null,
      address: null,
      shipping_address: null,
      vat_number: null,
      village_id: null,
      location: null,
      location_kh: null,
      status: 'active',
      is_walk_in,
      credit_limit_cents: null,
      payment_terms_days: 0,
      ...stamp,
    });
    mockFetch({
      'GET customers': { body: listAnswer([customer(1, 'Walk-in customer', true), customer(2, 'Sok Dara', false)]) },
    });
    signedIn({ permissions: allOf('customers') });
    renderApp('/en/customers');
    const walkIn = (await screen.findByText('Walk-in customer')).closest('tr') as HTMLElement;
    expect(within(walkIn).getByText('Walk-in')).toBeTruthy();
    expect(screen.queryByTestId('delete-1')).toBeNull();
    expect(screen.getByTestId('edit-1')).toBeTruthy();
    expect(screen.getByTestId('delete-2')).toBeTruthy();
  });

  it('credits the gazetteer under its lists, in Khmer on Khmer pages', async () => {
    mockFetch({ 'GET provinces': { body: listAnswer([]) } });
    signedIn({ permissions: allOf('provinces') });
    renderApp('/provinces');
    const credit = (await screen.findByTestId('gazetteer-attribution')).textContent;
    expect(credit).toContain(GAZETTEER_ATTRIBUTION_KH);
    expect(credit).not.toContain('normalized by');
  });

  it('credits the gazetteer in English on English pages', async () => {
    mockFetch({ 'GET provinces': { body: listAnswer([]) } });
    signedIn({ permissions: allOf('provinces') });
    renderApp('/en/provinces');
    expect((await screen.findByTestId('gazetteer-attribution')).textContent).toContain(GAZETTEER_ATTRIBUTION);
  });

  it('puts Khmer names first on Khmer pages, sorted by them', async () => {
    const category: Category = {
      id: 4,
      name_en: 'Drinks',
      name_kh: 'ភេសជ្ជៈ',
      description: null,
      status: 'active',
      sub_categories_count: 0,
      ...stamp,
    };
    const { calls } = mockFetch({ 'GET categories': { body: listAnswer([category]) } });
    signedIn({ permissions: allOf('categories') });
    renderApp('/categories');
    const cells = (await screen.findByText('ភេសជ្ជៈ')).closest('tr')?.querySelectorAll('td') ?? [];
    expect(cells[0]?.textContent).toBe('ភេសជ្ជៈ');
    expect(cells[1]?.textContent).toBe('Drinks');
    expect(calls('GET categories')[0].query.get('sort')).toBe('name_kh');
  });
});

describe('resource form', { timeout: 20_000 }, () => {
  it('shows the schema message on an empty required field and sends nothing', async () => {
    const { calls } = mockFetch();
    signedIn({ permissions: allOf('brands') });
    const { user } = renderApp('/en/brands/create');
    await user.click(await screen.findByTestId('save'));
    expect(await within(fieldOf(screen.getByLabelText('Name'))).findByText('This field is required!')).toBeTruthy();
    expect(calls('POST brands')).toHaveLength(0);
  });

  it('in Khmer too', async () => {
    mockFetch();
    signedIn({ permissions: allOf('brands') });
    const { user } = renderApp('/brands/create');
    await user.click(await screen.findByTestId('save'));
    expect(await within(fieldOf(screen.getByLabelText('ឈ្មោះ'))).findByText('ប្រអប់នេះត្រូវតែបំពេញ!')).toBeTruthy();
  });

  it("puts the server's 422 on its field", async () => {
    mockFetch({
      'POST brands': {
        status: 422,
        body: { message: 'The given data was invalid.', errors: { name: ['This value is already used.'] } },
      },
    });
    signedIn({ permissions: allOf('brands') });
    const { user, path } = renderApp('/en/brands/create');
    await user.type(await screen.findByLabelText('Name'), 'Coca-Cola');
    await user.click(screen.getByTestId('save'));
    expect(await within(fieldOf(screen.getByLabelText('Name'))).findByText('This value is already used.')).toBeTruthy();
    expect(path()).toBe('/en/brands/create');
  });

  it('creates with the trimmed values, shows the server message and returns to the list in the same language', async () => {
    const { calls } = mockFetch({
      'POST brands': { status: 201, body: { message: 'Brand created.', data: brand(9, 'Coca-Cola') } },
      'GET brands': { body: listAnswer([brand(9, 'Coca-Cola')]) },
    });
    signedIn({ permissions: allOf('brands') });
    const { user, path } = renderApp('/en/brands/create');
    await user.type(await screen.findByLabelText('Name'), '  Coca-Cola ');
    await user.click(screen.getByTestId('save'));
    expect(await screen.findByText('Brand created.')).toBeTruthy();
    await waitFor(() => expect(path()).toBe('/en/brands'));
    expect(calls('POST brands')[0].body).toEqual({ name: 'Coca-Cola', description: null, status: 'active' });
  });

  it('loads the record for update and sends the whole record back', async () => {
    const { calls } = mockFetch({
      'GET brands/3': { body: { data: brand(3, 'Angkor', { description: 'Beer', status: 'inactive' }) } },
      'PUT brands/3': { body: { message: 'Brand updated.', data: brand(3, 'Angkor Gold') } },
      'GET brands': { body: listAnswer([]) },
    });
    signedIn({ permissions: allOf('brands') });
    const { user, path } = renderApp('/brands/update/3');
    const name = await screen.findByDisplayValue('Angkor');
    expect(screen.getByText('កែប្រែម៉ាក')).toBeTruthy();
    await user.clear(name);
    await user.type(name, 'Angkor Gold');
    await user.click(screen.getByTestId('save'));
    expect(await screen.findByText('Brand updated.')).toBeTruthy();
    expect(calls('PUT brands/3')[0].body).toEqual({ name: 'Angkor Gold', description: 'Beer', status: 'inactive' });
    await waitFor(() => expect(path()).toBe('/brands'));
  });

  it('checks rules across fields: a unit made of a base unit counts at least 2 of it', async () => {
    const piece = {
      id: 1,
      name_en: 'Piece',
      name_kh: 'ដុំ',
      short_name: 'pc',
      base_unit_id: null,
      base_unit_name_en: null,
      base_unit_name_kh: null,
      factor: 1,
      decimals: 0,
      status: 'active' as const,
      ...stamp,
    };
    const { calls } = mockFetch({ 'GET units': { body: listAnswer([piece]) } });
    signedIn({ permissions: allOf('units') });
    const { user } = renderApp('/en/units/create');
    await user.type(await screen.findByLabelText('Name in English'), 'Carton');
    await user.type(screen.getByLabelText('Name in Khmer'), 'កេស');
    await user.type(screen.getByLabelText('Short name'), 'ctn');
    await choose(user, screen.getByLabelText('Base unit'), 'Piece (pc)');
    await user.click(screen.getByTestId('save'));
    expect(
      await within(fieldOf(screen.getByLabelText('Contains'))).findByText(
        'A base unit counts 1; a unit made of a base unit counts at least 2 of it.',
      ),
    ).toBeTruthy();
    expect(calls('POST units')).toHaveLength(0);
  });
});

const provinceRow = (id: number, name_en: string, name_kh: string): Province => ({
  id,
  code: String(id),
  name: name_en,
  name_en,
  name_kh,
  name_fr: null,
  type: 'province',
  districts_count: 1,
  ...stamp,
});
const place = (id: number, name_en: string, name_kh: string, parent: Record<string, unknown>) => ({
  id,
  code: String(id),
  name: name_en,
  name_en,
  name_kh,
  name_fr: null,
  ...parent,
  ...stamp,
});
const districtRow = (id: number, name: string, province_id: number) =>
  place(id, name, `ស្រុក${id}`, { province_id, province_name: 'Kampot', province_name_kh: 'កំពត', communes_count: 1 });
const communeRow = (id: number, name: string, district_id: number) =>
  place(id, name, `ឃុំ${id}`, { district_id, district_name: 'Kampot', district_name_kh: 'កំពត', villages_count: 1 });
const villageRow = (id: number, name: string, commune_id: number) =>
  place(id, name, `ភូមិ${id}`, {
    commune_id,
    commune_name: 'Andoung Khmer',
    commune_name_kh: 'អណ្ដូងខ្មែរ',
    path: `${name}, …`,
    path_kh: `ភូមិ${id}, …`,
  });

/** Two provinces; only Kampot (7) has a district (70), commune (700) and village (7000). */
function gazetteerMocks() {
  const byParent =
    (rows: Record<string, unknown>[], filter: string) =>
    ({ query }: { query: URLSearchParams }) => {
      const parent = query.get(`filter[${filter}]`);
      return { body: listAnswer(rows.filter((row) => String(row[filter]) === parent)) };
    };
  return {
    'GET provinces': { body: listAnswer([provinceRow(7, 'Kampot', 'កំពត'), provinceRow(8, 'Kep', 'កែប')]) },
    'GET districts': byParent([districtRow(70, 'Kampong Trach', 7)], 'province_id'),
    'GET communes': byParent([communeRow(700, 'Angk Sophy', 70)], 'district_id'),
    'GET villages': byParent([villageRow(7000, 'Tuol Sambuor', 700)], 'commune_id'),
    'GET villages/7000': { body: { data: villageRow(7000, 'Tuol Sambuor', 700) } },
    'GET communes/700': { body: { data: communeRow(700, 'Angk Sophy', 70) } },
    'GET districts/70': { body: { data: districtRow(70, 'Kampong Trach', 7) } },
  };
}

const PLACES = ['provinces', 'districts', 'communes', 'villages'].map((resource) => `${resource}.list`);
const PLACE_VIEWS = ['provinces', 'districts', 'communes', 'villages'].map((resource) => `${resource}.view`);

describe('location picker', { timeout: 20_000 }, () => {
  it('loads each level for the one chosen above it, and the village is the value sent', async () => {
    const { calls } = mockFetch({
      ...gazetteerMocks(),
      'POST stores': { status: 201, body: { message: 'Store created.', data: {} } },
    });
    signedIn({ permissions: [...allOf('stores'), ...PLACES] });
    const { user } = renderApp('/en/stores/create');
    const district = await screen.findByRole('combobox', { name: 'Choose a district' });
    // nothing below the province can be chosen, or is asked for, before the province
    expect(district.closest('.ant-select')?.className).toContain('ant-select-disabled');
    expect(calls('GET districts')).toHaveLength(0);

    await choose(user, screen.getByRole('combobox', { name: 'Choose a province' }), 'Kampot');
    await waitFor(() => expect(calls('GET districts').at(-1)?.query.get('filter[province_id]')).toBe('7'));
    expect(calls('GET districts').at(-1)?.query.get('per_page')).toBe('100');
    await choose(user, district, 'Kampong Trach');
    await waitFor(() => expect(calls('GET communes').at(-1)?.query.get('filter[district_id]')).toBe('70'));
    await choose(user, screen.getByRole('combobox', { name: 'Choose a commune' }), 'Angk Sophy');
    await waitFor(() => expect(calls('GET villages').at(-1)?.query.get('filter[commune_id]')).toBe('700'));
    await choose(user, screen.getByRole('combobox', { name: 'Choose a village' }), 'Tuol Sambuor');

    await user.type(screen.getByLabelText('Name'), 'Kampot depot');
    await user.type(screen.getByLabelText('Code'), 'KP-01');
    await user.click(screen.getByTestId('save'));
    await waitFor(() => expect(calls('POST stores')).toHaveLength(1));
    expect(calls('POST stores')[0].body).toMatchObject({ name: 'Kampot depot', code: 'KP-01', village_id: 7000 });
  });

  it('a new province empties the levels below it', async () => {
    mockFetch(gazetteerMocks());
    signedIn({ permissions: [...allOf('stores'), ...PLACES] });
    const { user } = renderApp('/en/stores/create');
    const province = await screen.findByRole('combobox', { name: 'Choose a province' });
    await choose(user, province, 'Kampot');
    await choose(user, screen.getByRole('combobox', { name: 'Choose a district' }), 'Kampong Trach');
    await choose(user, province, 'Kep');
    await waitFor(() => expect(screen.getByTestId('location-district').textContent).not.toContain('Kampong Trach'));
    expect(screen.getByTestId('location-district').textContent).toContain('Choose a district');
  });

  it('reads an existing record back up from its village', async () => {
    const kampotStore: Store = {
      id: 5,
      name: 'Kampot depot',
      code: 'KP-01',
      phone: null,
      address: null,
      village_id: 7000,
      location: 'Tuol Sambuor, Angk Sophy, Kampong Trach, Kampot',
      location_kh: 'ភូមិ, ឃុំ, ស្រុក, ខេត្ត',
      ...NO_KHQR,
      status: 'active',
      users_count: 0,
      ...stamp,
    };
    mockFetch({ ...gazetteerMocks(), 'GET stores/5': { body: { data: kampotStore } } });
    signedIn({ permissions: [...allOf('stores'), ...PLACES, ...PLACE_VIEWS] });
    renderApp('/en/stores/update/5');
    await waitFor(() => expect(screen.getByTestId('location-village').textContent).toContain('Tuol Sambuor'));
    expect(screen.getByTestId('location-commune').textContent).toContain('Angk Sophy');
    expect(screen.getByTestId('location-district').textContent).toContain('Kampong Trach');
    expect(screen.getByTestId('location-province').textContent).toContain('Kampot');
  });
});
