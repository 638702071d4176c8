import { formatUsdCents, gtinCheckDigit, PRODUCT_SHEET_COLUMNS, productInput } from '@depot/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { DRINKS, factories } from '../../test/factories.ts';
import { ADMIN_PASSWORD, bearer, login, useTestApp } from '../../test/harness.ts';

/*
 * The product form (POST /api/products) and the product import go through the same rules: every
 * input the API refuses, a row of a file refuses too, on the same column, in the same words.
 */

const ctx = useTestApp();
let headers: Record<string, string>;
const make = factories(ctx, () => headers);
const ids: Record<string, number> = {};
/** Names of brands, categories, sub-categories and units by path and id (deleted ones too): what a file names. */
const names = new Map<string, string>();

const ean = (body: string) => `${body}${gtinCheckDigit(body)}`;
const CODES = { product: ean('885100000001'), combo: ean('885100000002') };

async function send(method: 'POST' | 'DELETE', url: string, payload?: object) {
  const res = await ctx.app.inject({ method, url, headers, payload });
  return { status: res.statusCode, body: res.json() };
}

async function importCsv(text: string) {
  const boundary = '----depot-rules';
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/products/import',
    headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.csv"\r\n\r\n${text}\r\n--${boundary}--\r\n`,
    ),
  });
  return { status: res.statusCode, body: res.json() };
}

const csvCell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

type Input = Record<string, unknown>;
const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));
const money = (value: unknown) => (typeof value === 'number' ? formatUsdCents(value) : text(value));
const named = (path: string) => (value: unknown) =>
  typeof value === 'number' ? (names.get(`${path}/${value}`) ?? String(value)) : text(value);

/** The spreadsheet cell of each column for an API input: names for ids, dollars for cents. */
const CELL: Record<(typeof PRODUCT_SHEET_COLUMNS)[number], [field: string, cell: (value: unknown) => string]> = {
  sku: ['sku', text],
  barcode: ['barcode', text],
  name_kh: ['name_kh', text],
  name_en: ['name_en', text],
  short_name: ['short_name', text],
  brand: ['brand_id', named('/api/brands')],
  category: ['category_id', named('/api/categories')],
  sub_category: ['sub_category_id', named('/api/sub-categories')],
  unit: ['unit_id', named('/api/units')],
  price_usd: ['price_usd_cents', money],
  price_khr: ['price_khr', text],
  cost_usd: ['cost_usd_cents', money],
  taxable: ['taxable', (v) => (v === true ? 'yes' : v === false ? 'no' : text(v))],
  expiry_date: ['expiry_date', text],
  reorder_level: ['reorder_level', text],
  status: ['status', text],
};
const COLUMN_OF = new Map(Object.entries(CELL).map(([column, [field]]) => [field, column]));

/** A file of one row holding what the API was sent. */
function fileOf(input: Input): { file: string; cell: (field: string) => string } {
  const cell = (field: string) => {
    const [, write] = CELL[COLUMN_OF.get(field) as keyof typeof CELL];
    return write(input[field]);
  };
  const row = PRODUCT_SHEET_COLUMNS.map((column) => csvCell(cell(CELL[column][0])));
  return { file: `${PRODUCT_SHEET_COLUMNS.join(',')}\r\n${row.join(',')}`, cell };
}

beforeAll(async () => {
  headers = { ...bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token), 'x-localization': 'en' };
  const post = async (url: string, payload: Input, name: string) => {
    const id = await make.create(url, payload);
    names.set(`${url}/${id}`, name);
    return id;
  };
  const made = await make.catalogue('carton');
  Object.assign(ids, made);
  names.set(`/api/categories/${made.drinks}`, DRINKS.name_en);
  names.set(`/api/units/${made.can}`, 'Can');
  names.set(`/api/units/${made.carton}`, 'Carton');
  ids.food = await post('/api/categories', { name_en: 'Food', name_kh: 'អាហារ' }, 'Food');
  ids.oldCategory = await post('/api/categories', { name_en: 'Old shelf', name_kh: 'ធ្នើចាស់' }, 'Old shelf');
  ids.beer = await post('/api/sub-categories', { category_id: ids.drinks, name_en: 'Beer', name_kh: 'ស្រាបៀរ' }, 'Beer');
  ids.noodles = await post(
    '/api/sub-categories',
    { category_id: ids.food, name_en: 'Noodles', name_kh: 'មីកញ្ចប់' },
    'Noodles',
  );
  ids.oldSub = await post(
    '/api/sub-categories',
    { category_id: ids.drinks, name_en: 'Old beer', name_kh: 'ស្រាបៀរចាស់' },
    'Old beer',
  );
  ids.oldUnit = await post('/api/units', { name_en: 'Crate', name_kh: 'ក្រាត', short_name: 'crt' }, 'Crate');
  ids.angkor = await post('/api/brands', { name: 'Angkor' }, 'Angkor');
  ids.oldBrand = await post('/api/brands', { name: 'Gone brand' }, 'Gone brand');
  for (const [path, id] of [
    ['categories', ids.oldCategory],
    ['sub-categories', ids.oldSub],
    ['units', ids.oldUnit],
    ['brands', ids.oldBrand],
  ] as const) {
    expect((await send('DELETE', `/api/${path}/${id}`)).status).toBe(200);
  }
  ids.product = await post(
    '/api/products',
    {
      sku: 'HELD-1',
      barcode: CODES.product,
      name_en: 'Angkor Beer 330ml',
      name_kh: 'ស្រាបៀរអង្គរ',
      category_id: ids.drinks,
      unit_id: ids.can,
      price_usd_cents: 100,
    },
    'Angkor Beer 330ml',
  );
  await post(
    '/api/combos',
    {
      sku: 'PARTY-6',
      barcode: CODES.combo,
      name_en: 'Party six',
      name_kh: 'ឈុតជប់លៀង',
      selling_price_cents: 550,
      items: [{ product_id: ids.product, quantity: 6 }],
    },
    'Party six',
  );
});

let serial = 0;
/** A product both the API and the import take: every field given, every reference live. */
const valid = (): Input => ({
  sku: `RULE-${++serial}`,
  barcode: ean(`8852000${String(serial).padStart(5, '0')}`),
  name_kh: 'ផលិតផលថ្មី',
  name_en: 'A new product',
  short_name: 'New',
  brand_id: ids.angkor,
  category_id: ids.drinks,
  sub_category_id: ids.beer,
  unit_id: ids.can,
  price_usd_cents: 150,
  price_khr: 6000,
  cost_usd_cents: 90,
  taxable: true,
  expiry_date: '2027-12-31',
  reorder_level: 12,
  status: 'active',
});

interface Rule {
  rule: string;
  /** Read when the test runs: the records it names are made before. */
  change: () => Input;
  field: string;
  /** The import tells it in its own words: a name that names nothing, a cell that is no number. */
  ownWords?: true;
}

/** Every rule the API applies to a product, as an input that breaks that rule alone. */
const RULES: Rule[] = [
  { rule: 'SKU of a combo', change: () => ({ sku: 'party-6' }), field: 'sku' },
  { rule: 'SKU with a space', change: () => ({ sku: 'NEW 1' }), field: 'sku' },
  { rule: 'SKU too long', change: () => ({ sku: 'S'.repeat(41) }), field: 'sku' },
  { rule: 'barcode of a combo', change: () => ({ barcode: CODES.combo }), field: 'barcode' },
  { rule: 'barcode of another product', change: () => ({ barcode: CODES.product }), field: 'barcode' },
  { rule: 'barcode with a wrong check digit', change: () => ({ barcode: '8851959132013' }), field: 'barcode' },
  { rule: 'barcode with odd characters', change: () => ({ barcode: 'AB_12' }), field: 'barcode' },
  { rule: 'English name too short', change: () => ({ name_en: 'ab' }), field: 'name_en' },
  { rule: 'Khmer name missing', change: () => ({ name_kh: '' }), field: 'name_kh', ownWords: true },
  { rule: 'Khmer name too long', change: () => ({ name_kh: 'ក'.repeat(51) }), field: 'name_kh' },
  { rule: 'short name too long', change: () => ({ short_name: 'S'.repeat(31) }), field: 'short_name' },
  { rule: 'brand deleted', change: () => ({ brand_id: ids.oldBrand }), field: 'brand_id', ownWords: true },
  {
    rule: 'category deleted',
    change: () => ({ category_id: ids.oldCategory, sub_category_id: null }),
    field: 'category_id',
    ownWords: true,
  },
  {
    rule: 'sub-category deleted',
    change: () => ({ sub_category_id: ids.oldSub }),
    field: 'sub_category_id',
    ownWords: true,
  },
  {
    rule: 'sub-category of another category',
    change: () => ({ sub_category_id: ids.noodles }),
    field: 'sub_category_id',
  },
  { rule: 'unit deleted', change: () => ({ unit_id: ids.oldUnit }), field: 'unit_id', ownWords: true },
  { rule: 'unit made of another unit', change: () => ({ unit_id: ids.carton }), field: 'unit_id' },
  { rule: 'price below zero', change: () => ({ price_usd_cents: -100 }), field: 'price_usd_cents' },
  { rule: 'price too large', change: () => ({ price_usd_cents: 100_000_100 }), field: 'price_usd_cents' },
  { rule: 'riel price below zero', change: () => ({ price_khr: -5 }), field: 'price_khr', ownWords: true },
  { rule: 'riel price too large', change: () => ({ price_khr: 100_000_000_001 }), field: 'price_khr' },
  { rule: 'cost below zero', change: () => ({ cost_usd_cents: -1 }), field: 'cost_usd_cents' },
  { rule: 'taxable neither yes nor no', change: () => ({ taxable: 'maybe' }), field: 'taxable', ownWords: true },
  { rule: 'expiry date not a date', change: () => ({ expiry_date: '31/12/2027' }), field: 'expiry_date' },
  { rule: 'expiry date that does not exist', change: () => ({ expiry_date: '2027-02-30' }), field: 'expiry_date' },
  { rule: 'reorder level below zero', change: () => ({ reorder_level: -1 }), field: 'reorder_level', ownWords: true },
  { rule: 'reorder level too large', change: () => ({ reorder_level: 1_000_000_001 }), field: 'reorder_level' },
  { rule: 'status unknown', change: () => ({ status: 'archived' }), field: 'status' },
];

describe('product import and the product API', () => {
  it('refuses a row whose SKU or barcode a combo uses, with the row’s message, and writes nothing', async () => {
    const header = 'sku,barcode,name_kh,name_en,category,unit,price_usd';
    const res = await importCsv(
      [
        header,
        `FINE-1,,ផលិតផលល្អ,A fine product,Drinks,Can,1.00`,
        `Party-6,,ផលិតផលមួយ,Product one,Drinks,Can,1.00`,
        `FINE-2,${CODES.combo},ផលិតផលពីរ,Product two,Drinks,Can,1.00`,
      ].join('\r\n'),
    );
    expect(res.status).toBe(422);
    expect(res.body.rows).toEqual([
      { row: 3, column: 'sku', value: 'Party-6', message: 'This value is already used.' },
      { row: 4, column: 'barcode', value: CODES.combo, message: 'This value is already used.' },
    ]);
    expect((await send('POST', '/api/products', { ...valid(), sku: 'FINE-1' })).status).toBe(201);
  });

  it('walks every field of the product schema', () => {
    // opening stock is the form's and the API's on create, not a column of a file; so far the serial
    // flag and the warranty are too (an import keeps a product's own: products.transfer.ts `inputOf`)
    const walked = new Set<string>([
      ...RULES.map((r) => r.field),
      'opening_stock',
      'serial_tracked',
      'warranty_months',
    ]);
    expect(Object.keys(productInput.shape).filter((field) => !walked.has(field))).toEqual([]);
  });

  it('takes from a file what the API takes', async () => {
    const input = valid();
    expect((await importCsv(fileOf(input).file)).body.data).toEqual({ created: 1, updated: 0, total: 1 });
    const api = await send('POST', '/api/products', valid());
    expect(api.status).toBe(201);
  });

  it.each(RULES)('refuses in a file what the API refuses: $rule', async ({ change, field, ownWords }) => {
    const input = { ...valid(), ...change() };
    const api = await send('POST', '/api/products', input);
    expect(api.status).toBe(422);
    expect(Object.keys(api.body.errors)).toEqual([field]);

    const { file, cell } = fileOf(input);
    const res = await importCsv(file);
    expect(res.status).toBe(422);
    expect(res.body.rows).toEqual([
      {
        row: 2,
        column: COLUMN_OF.get(field),
        value: cell(field),
        message: ownWords ? expect.any(String) : api.body.errors[field][0],
      },
    ]);
  });
});
