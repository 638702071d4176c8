import type { Category, SubCategory } from '@depot/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { choose, listAnswer, productRow as product, STORES, stamp, unitRow } from '../test/inventory.ts';
import { mockFetch, renderApp, signedIn } from '../test/render.tsx';

const ALL = ['list', 'view', 'create', 'update', 'delete', 'restore'].map((action) => `products.${action}`);
const LOOKUPS = ['brands', 'categories', 'sub_categories', 'units'].map((resource) => `${resource}.list`);

const category = (id: number, name_en: string, name_kh: string): Category => ({
  id,
  name_en,
  name_kh,
  description: null,
  sub_categories_count: 1,
  status: 'active',
  ...stamp,
});
const sub = (id: number, category_id: number, name_en: string): SubCategory => ({
  id,
  category_id,
  category_name_en: 'x',
  category_name_kh: 'x',
  name_en,
  name_kh: `${name_en} kh`,
  status: 'active',
  ...stamp,
});
const can = unitRow(5, {
  name_en: 'Can',
  name_kh: 'កំប៉ុង',
  short_name: 'can',
  base_unit_id: null,
  base_unit_name_en: null,
  base_unit_name_kh: null,
  factor: 1,
});

/** The lists the product form picks from. */
function lookups() {
  return {
    'GET brands': { body: listAnswer([]) },
    'GET categories': { body: listAnswer([category(1, 'Drinks', 'ភេសជ្ជៈ'), category(2, 'Food', 'អាហារ')]) },
    'GET sub-categories': ({ query }: { query: URLSearchParams }) => ({
      body: listAnswer(
        [sub(11, 1, 'Beer'), sub(21, 2, 'Noodles')].filter(
          (row) => String(row.category_id) === query.get('filter[category_id]'),
        ),
      ),
    }),
    'GET units': { body: listAnswer([can]) },
  };
}

/** Uploads go through XMLHttpRequest (for their progress); this one answers as the server would. */
function fakeUploads(answer: (url: string) => { status: number; body: unknown }) {
  const sent: { url: string; method: string; headers: Record<string, string>; body: FormData }[] = [];
  class FakeXhr {
    status = 0;
    responseText = '';
    upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    private url = '';
    private method = '';
    private headers: Record<string, string> = {};
    open(method: string, url: string) {
      this.method = method;
      this.url = url;
    }
    setRequestHeader(name: string, value: string) {
      this.headers[name] = value;
    }
    send(body: FormData) {
      sent.push({ url: this.url, method: this.method, headers: this.headers, body });
      setTimeout(() => {
        this.upload.onprogress?.({ lengthComputable: true, loaded: 1, total: 1 } as ProgressEvent);
        const reply = answer(this.url);
        this.status = reply.status;
        this.responseText = JSON.stringify(reply.body);
        this.onload?.();
      }, 5);
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return sent;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('products list', { timeout: 20_000 }, () => {
  it('shows dollars and riel, the expiry and the names in the page language first', async () => {
    const { calls } = mockFetch({
      'GET products': {
        body: listAnswer([
          product(1),
          product(2, {
            sku: 'MILK-1',
            name_kh: 'ទឹកដោះគោ',
            name_en: 'Milk',
            expiry_date: '2020-01-31',
            price_khr: 9000,
            price_khr_effective: 9000,
            price_usd_cents: 250,
          }),
        ]),
      },
    });
    signedIn({ permissions: ALL });
    renderApp('/products');
    const table = await screen.findByTestId('list-table');
    await within(table).findByText('ANG-330');
    expect(within(table).getByTestId('price-1').textContent).toBe('$1.26 / កំប៉ុង5,200៛');
    expect(within(table).getByTestId('price-2').textContent).toBe('$2.50 / កំប៉ុង9,000៛');
    // the price keeps to its two lines: its cell does not wrap (kit/table.ts)
    expect(within(table).getByTestId('price-1').closest('td')?.classList.contains('cell-wrap')).toBe(false);
    expect(within(table).getByTestId('price-1').closest('td')?.className).toContain('ant-table-cell');
    expect(within(table).getByText('ផុតកំណត់ 31 មករា 2020')).toBeTruthy();
    // Khmer pages sort by the Khmer name
    expect(calls('GET products')[0].query.get('sort')).toBe('name_kh');
    expect(screen.getByTestId('export')).toBeTruthy();
    expect(screen.getByTestId('import')).toBeTruthy();
  });

  it('exports what the list shows, every page of it', async () => {
    const { calls } = mockFetch({
      'GET products': { body: listAnswer([product(1)]) },
      'GET products/export': { body: {} },
    });
    URL.createObjectURL = vi.fn(() => 'blob:x');
    URL.revokeObjectURL = vi.fn();
    signedIn({ permissions: ALL });
    const { user } = renderApp('/en/products?search=beer&filter[status]=active&page=2');
    await screen.findByText('ANG-330');
    await user.hover(screen.getByTestId('export'));
    await user.click(await screen.findByText('Excel (.xlsx)'));
    await waitFor(() => expect(calls('GET products/export')).toHaveLength(1));
    const query = calls('GET products/export')[0].query;
    expect(Object.fromEntries(query)).toEqual({
      format: 'xlsx',
      search: 'beer',
      'filter[status]': 'active',
      sort: 'name_en',
    });
  });
});

describe('product form', { timeout: 30_000 }, () => {
  it('sends dollars as cents, the riel override empty, and uploads the picture once the product exists', async () => {
    const created = product(9);
    const { calls } = mockFetch({
      ...lookups(),
      'POST products': { status: 201, body: { message: 'Product created.', data: created } },
      'GET products': { body: listAnswer([created]) },
    });
    const uploads = fakeUploads(() => ({
      status: 200,
      body: {
        message: 'Product updated.',
        data: { ...created, image_url: '/uploads/p.webp', thumbnail_url: '/uploads/t.webp' },
      },
    }));
    signedIn({ permissions: [...ALL, ...LOOKUPS] });
    const { user, path } = renderApp('/en/products/create');
    await user.type(await screen.findByLabelText('Name in English'), 'Angkor Beer 330ml');
    await user.type(screen.getByLabelText('Name in Khmer'), 'ស្រាបៀរអង្គរ');
    await user.type(screen.getByLabelText('SKU'), 'ANG-330');
    await choose(user, screen.getByLabelText('Category'), 'Drinks');
    await choose(user, screen.getByLabelText('Sub-category'), 'Beer');
    await choose(user, screen.getByLabelText('Unit'), 'Can (can)');
    const price = screen.getByLabelText('Price in dollars');
    await user.type(price, '1.2.6');
    await user.click(screen.getByTestId('save'));
    expect(
      await within(price.closest('.ant-form-item') as HTMLElement).findByText('The value is not valid.'),
    ).toBeTruthy();
    expect(calls('POST products')).toHaveLength(0);
    await user.clear(price);
    await user.type(price, '1.26');
    const picture = new File([new Uint8Array([137, 80, 78, 71])], 'beer.png', { type: 'image/png' });
    URL.createObjectURL = vi.fn(() => 'blob:beer');
    URL.revokeObjectURL = vi.fn();
    await user.upload(document.querySelector('input[type=file]') as HTMLInputElement, picture);
    await user.click(screen.getByTestId('save'));
    await waitFor(() => expect(path()).toBe('/en/products'));
    expect(calls('POST products')[0].body).toMatchObject({
      name_en: 'Angkor Beer 330ml',
      sku: 'ANG-330',
      category_id: 1,
      sub_category_id: 11,
      unit_id: 5,
      price_usd_cents: 126,
      price_khr: null,
      cost_usd_cents: 0,
      taxable: true,
      barcode: null,
    });
    expect(calls('POST products')[0].body).not.toHaveProperty('image');
    expect(uploads).toHaveLength(1);
    expect(uploads[0].url).toBe('/api/products/9/image');
    expect(uploads[0].headers.Authorization).toBe('Bearer token-1');
    expect((uploads[0].body.get('image') as File).name).toBe('beer.png');
  });

  it('opening stock: shown to whoever may adjust stock, sent per store with the cost given or left empty', async () => {
    const created = product(9);
    const { calls } = mockFetch({
      ...lookups(),
      'GET stores': { body: listAnswer(STORES) },
      'POST products': { status: 201, body: { message: 'Product created.', data: created } },
      'GET products': { body: listAnswer([created]) },
    });
    signedIn({ permissions: [...ALL, ...LOOKUPS, 'stocks.create'] });
    const { user, path } = renderApp('/en/products/create');
    await user.type(await screen.findByLabelText('Name in English'), 'Fish sauce');
    await user.type(screen.getByLabelText('Name in Khmer'), 'ទឹកត្រី');
    await user.type(screen.getByLabelText('SKU'), 'FISH-1');
    await choose(user, screen.getByLabelText('Category'), 'Food');
    await choose(user, screen.getByLabelText('Unit'), 'Can (can)');
    await user.type(screen.getByLabelText('Price in dollars'), '1.50');
    expect(screen.getByText('Opening stock (optional)')).toBeTruthy();
    await user.type(await screen.findByLabelText('Opening quantity · Phnom Penh Depot (PP01)'), '12');
    await user.type(screen.getByLabelText('Opening quantity · Siem Reap Depot (SR01)'), '5');
    await user.type(screen.getByLabelText('Unit cost · Siem Reap Depot (SR01)'), '0.80');
    await user.click(screen.getByTestId('save'));
    await waitFor(() => expect(path()).toBe('/en/products'));
    expect(calls('POST products')[0].body).toMatchObject({
      opening_stock: [
        { store_id: 1, quantity: 12, unit_cost_cents: null, lot: null, expiry_date: null },
        { store_id: 2, quantity: 5, unit_cost_cents: 80, lot: null, expiry_date: null },
      ],
    });
  });

  it('opening stock: only the stores the user covers, as the server said at sign-in', async () => {
    mockFetch({ ...lookups(), 'GET stores': { body: listAnswer(STORES) } });
    signedIn({ permissions: [...ALL, ...LOOKUPS, 'stocks.create'], coverage: { all: false, store_ids: [2] } });
    renderApp('/en/products/create');
    expect(await screen.findByLabelText('Opening quantity · Siem Reap Depot (SR01)')).toBeTruthy();
    expect(screen.queryByLabelText('Opening quantity · Phnom Penh Depot (PP01)')).toBeNull();
    expect(within(screen.getByTestId('opening-stock')).queryByText(/PP01/)).toBeNull();
  });

  it('opening stock: not on an edited product, even to whoever may adjust stock', async () => {
    mockFetch({
      ...lookups(),
      'GET stores': { body: listAnswer(STORES) },
      'GET products/3': { body: { data: product(3) } },
    });
    signedIn({ permissions: [...ALL, ...LOOKUPS, 'stocks.create'] });
    renderApp('/en/products/update/3');
    await screen.findByDisplayValue(product(3).sku);
    expect(screen.queryByText('Opening stock (optional)')).toBeNull();
  });

  it('opening stock: hidden without the stock adjustment permission', async () => {
    mockFetch({ ...lookups(), 'GET stores': { body: listAnswer(STORES) } });
    signedIn({ permissions: [...ALL, ...LOOKUPS] });
    renderApp('/en/products/create');
    await screen.findByLabelText('Name in English');
    expect(screen.queryByText('Opening stock (optional)')).toBeNull();
    expect(screen.queryByLabelText('Opening quantity · Phnom Penh Depot (PP01)')).toBeNull();
  });

  it('marks the required fields, and an empty category or unit says “This field is required!”', async () => {
    const { calls } = mockFetch({ ...lookups() });
    signedIn({ permissions: [...ALL, ...LOOKUPS] });
    const { user } = renderApp('/en/products/create');
    const form = await screen.findByTestId('record-form');
    const marked = [...form.querySelectorAll('.ant-form-item-required')].map((label) => label.textContent);
    expect(marked).toEqual(expect.arrayContaining(['Category', 'Unit', 'SKU']));
    expect(marked).not.toContain('Brand');
    await user.click(screen.getByTestId('save'));
    for (const name of ['category_id', 'unit_id']) {
      const item = form.querySelector(`#record_${name}`)?.closest('.ant-form-item') as HTMLElement;
      await waitFor(() => expect(item.textContent).toContain('This field is required!'));
      expect(item.textContent).not.toMatch(/invalid|at least 1/i);
    }
    expect(calls('POST products')).toEqual([]);
  });

  it('a new category empties the sub-category, whose choices follow the category', async () => {
    mockFetch({
      ...lookups(),
      'GET products/3': { body: { data: product(3, { sub_category_id: 11, sub_category_name_en: 'Beer' }) } },
    });
    signedIn({ permissions: [...ALL, ...LOOKUPS] });
    const { user } = renderApp('/en/products/update/3');
    await screen.findByDisplayValue('ANG-330');
    expect(await screen.findByText('Beer')).toBeTruthy();
    expect(screen.getByDisplayValue('1.26')).toBeTruthy();
    await choose(user, screen.getByLabelText('Category'), 'Food');
    await waitFor(() => expect(screen.queryByText('Beer')).toBeNull());
    await choose(user, screen.getByLabelText('Sub-category'), 'Noodles');
  });

  it('a picture that fails after the product was created leaves the user on the new product, not a second one', async () => {
    const created = product(9);
    mockFetch({
      ...lookups(),
      'POST products': { status: 201, body: { message: 'Product created.', data: created } },
      'GET products/9': { body: { data: created } },
    });
    fakeUploads(() => ({
      status: 422,
      body: { message: 'The given data was invalid.', errors: { image: ['Choose a JPEG, PNG or WebP picture.'] } },
    }));
    URL.createObjectURL = vi.fn(() => 'blob:beer');
    URL.revokeObjectURL = vi.fn();
    signedIn({ permissions: [...ALL, ...LOOKUPS] });
    const { user, path } = renderApp('/en/products/create');
    await user.type(await screen.findByLabelText('Name in English'), 'Angkor Beer 330ml');
    await user.type(screen.getByLabelText('Name in Khmer'), 'ស្រាបៀរអង្គរ');
    await user.type(screen.getByLabelText('SKU'), 'ANG-330');
    await choose(user, screen.getByLabelText('Category'), 'Drinks');
    await choose(user, screen.getByLabelText('Unit'), 'Can (can)');
    await user.type(screen.getByLabelText('Price in dollars'), '1');
    await user.upload(
      document.querySelector('input[type=file]') as HTMLInputElement,
      new File(['x'], 'beer.png', { type: 'image/png' }),
    );
    await user.click(screen.getByTestId('save'));
    await waitFor(() => expect(path()).toBe('/en/products/update/9'));
    expect(await screen.findByText('The given data was invalid.')).toBeTruthy();
  });
});

describe('product import', { timeout: 20_000 }, () => {
  it('lists every refused row with its column and offers the report; nothing imported', async () => {
    mockFetch({ 'GET products': { body: listAnswer([product(1)]) } });
    const uploads = fakeUploads(() => ({
      status: 422,
      body: {
        message: 'The file has 2 mistakes; nothing was imported.',
        errors: { file: ['The file has 2 mistakes; nothing was imported.'] },
        rows: [
          { row: 3, column: 'price_usd', value: 'abc', message: 'The value is not valid.' },
          { row: 4, column: 'category', value: 'Toys', message: 'No category has this name.' },
        ],
      },
    }));
    signedIn({ permissions: ALL });
    const { user } = renderApp('/en/products');
    await screen.findByText('ANG-330');
    await user.click(screen.getByTestId('import'));
    const dialog = await screen.findByTestId('import-dialog');
    await user.upload(
      dialog.querySelector('input[type=file]') as HTMLInputElement,
      new File(['sku,name_kh\n'], 'products.csv', { type: 'text/csv' }),
    );
    const result = await within(dialog).findByTestId('import-result');
    expect(within(result).getAllByText('The file has 2 mistakes; nothing was imported.').length).toBeGreaterThan(0);
    expect(within(result).getByText('2 mistakes to fix')).toBeTruthy();
    expect(within(result).getByText('No category has this name.')).toBeTruthy();
    expect(within(result).getByText('price_usd')).toBeTruthy();
    expect(uploads[0].url).toBe('/api/products/import');
    expect(within(result).getByTestId('import-report')).toBeTruthy();
  });
});
