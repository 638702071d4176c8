import { Readable } from 'node:stream';
import { gtinCheckDigit } from '@depot/contracts';
import ExcelJS from 'exceljs';
import { beforeAll, expect } from 'vitest';
import { factories } from '../../test/factories.ts';
import { ADMIN_PASSWORD, bearer, login, useTestApp } from '../../test/harness.ts';

/**
 * The product export and import suites' set-up (products.transfer.test.ts, products.import.test.ts):
 * the server on a fresh database, the admin signed in (`admin()`), a catalogue of drinks and food
 * with brands, sub-categories and units, and the helpers that send files and read them back. Call
 * it where `describe` bodies run; each call is its own suite.
 */
export function transferSuite() {
  const ctx = useTestApp();
  let headers: Record<string, string> = {};
  const admin = () => headers;
  const make = factories(ctx, admin);
  const ids: Record<string, number> = {};

  /** The header row every export writes and every import reads, spelled out. */
  const COLUMNS = [
    'sku',
    'barcode',
    'name_kh',
    'name_en',
    'short_name',
    'brand',
    'category',
    'sub_category',
    'unit',
    'price_usd',
    'price_khr',
    'cost_usd',
    'taxable',
    'expiry_date',
    'reorder_level',
    'status',
  ];

  const ean = (body: string) => `${body}${gtinCheckDigit(body)}`;

  async function send(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
    const res = await ctx.app.inject({ method, url, headers, payload });
    return { status: res.statusCode, body: res.json() };
  }

  function multipart(content: Buffer | string, filename = 'products.csv', field = 'file') {
    const boundary = '----depot-transfer';
    return {
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
        ),
        Buffer.from(content),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
      'content-type': `multipart/form-data; boundary=${boundary}`,
    };
  }

  async function importFile(
    content: Buffer | string,
    options: { as?: Record<string, string>; filename?: string } = {},
  ) {
    const { payload, 'content-type': type } = multipart(content, options.filename);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/products/import',
      headers: { ...(options.as ?? headers), 'content-type': type },
      payload,
    });
    return { status: res.statusCode, body: res.json() };
  }

  const exportFile = async (query: string) => {
    const res = await ctx.app.inject({ method: 'GET', url: `/api/products/export?${query}`, headers });
    return res;
  };

  async function readXlsx(bytes: Buffer) {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as never);
    return workbook;
  }

  /** A sheet's rows as arrays of cell values (1-based cells dropped to 0-based). */
  function rowsOf(sheet: ExcelJS.Worksheet): unknown[][] {
    const rows: unknown[][] = [];
    sheet.eachRow((row) => {
      rows.push(Array.from((row.values as unknown[]).slice(1), (v) => v ?? ''));
    });
    return rows;
  }

  /** The CSV read back by exceljs (values kept as text), after checking and removing the BOM. */
  async function readCsv(bytes: Buffer): Promise<string[][]> {
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const workbook = new ExcelJS.Workbook();
    const sheet = await workbook.csv.read(Readable.from([bytes.subarray(3)]), { map: (value: unknown) => value });
    return rowsOf(sheet) as string[][];
  }

  const csv = (rows: (string | number)[][]) => rows.map((r) => r.join(',')).join('\r\n');

  const countProducts = async () =>
    Number(
      (
        await ctx.db
          .selectFrom('products')
          .select((e) => e.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  const list = async (query = '') =>
    (await send('GET', `/api/products?per_page=100&sort=sku${query}`)).body.data as Record<string, unknown>[];

  beforeAll(async () => {
    headers = { ...bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token), 'x-localization': 'en' };
    const post = make.create;
    ids.drinks = await post('/api/categories', { name_en: 'Drinks', name_kh: 'ភេសជ្ជៈ' });
    ids.food = await post('/api/categories', { name_en: 'Food', name_kh: 'អាហារ' });
    ids.beer = await post('/api/sub-categories', { category_id: ids.drinks, name_en: 'Beer', name_kh: 'ស្រាបៀរ' });
    ids.noodles = await post('/api/sub-categories', { category_id: ids.food, name_en: 'Noodles', name_kh: 'មីកញ្ចប់' });
    ids.can = await post('/api/units', { name_en: 'Can', name_kh: 'កំប៉ុង', short_name: 'can' });
    ids.pack = await post('/api/units', { name_en: 'Pack', name_kh: 'កញ្ចប់', short_name: 'pk' });
    ids.carton = await post('/api/units', {
      name_en: 'Carton',
      name_kh: 'កេស',
      short_name: 'ctn',
      base_unit_id: ids.can,
      factor: 24,
    });
    ids.angkor = await post('/api/brands', { name: 'Angkor' });
    ids.mama = await post('/api/brands', { name: 'Mama' });

    const product = (over: object) => ({
      category_id: ids.drinks,
      unit_id: ids.can,
      price_usd_cents: 100,
      ...over,
    });
    await post(
      '/api/products',
      product({
        sku: 'ANG-330',
        barcode: '8851959132012',
        name_en: 'Angkor Beer 330ml',
        name_kh: 'ស្រាបៀរអង្គរ ៣៣០មល',
        short_name: 'Angkor 330',
        brand_id: ids.angkor,
        sub_category_id: ids.beer,
        price_usd_cents: 126,
        price_khr: 5000,
        cost_usd_cents: 90,
        expiry_date: '2027-03-31',
        reorder_level: 48,
      }),
    );
    await post('/api/products', product({ sku: 'WATER-1', name_en: 'Water 1.5L', name_kh: 'ទឹកសុទ្ធ ១.៥លីត្រ' }));
    await post(
      '/api/products',
      product({
        sku: 'MAMA-PORK',
        name_en: 'Mama noodles, pork',
        name_kh: 'មីម៉ាម៉ា សាច់ជ្រូក',
        brand_id: ids.mama,
        category_id: ids.food,
        sub_category_id: ids.noodles,
        unit_id: ids.pack,
        price_usd_cents: 35,
        taxable: false,
        status: 'inactive',
      }),
    );
    const gone = await post('/api/products', product({ sku: 'OLD-1', name_en: 'Old soda', name_kh: 'សូដាចាស់' }));
    await send('DELETE', `/api/products/${gone}`);
  });

  return {
    ctx,
    admin,
    ids,
    COLUMNS,
    ean,
    send,
    importFile,
    exportFile,
    readXlsx,
    rowsOf,
    readCsv,
    csv,
    countProducts,
    list,
  };
}
