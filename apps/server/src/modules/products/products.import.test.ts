import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { bearer, createUser, login } from '../../test/harness.ts';
import { transferSuite } from './products.transfer.suite.ts';

/** Products imported from a workbook or CSV, and who may import (products.transfer.suite.ts sets up). */
const { ctx, admin, ids, ean, importFile, exportFile, readCsv, csv, countProducts, list } = transferSuite();

describe('product import', () => {
  it('takes an exported file back unchanged: every row an update, nothing different', async () => {
    const before = await list();
    const count = await countProducts();
    for (const format of ['xlsx', 'csv']) {
      const file = (await exportFile(`format=${format}`)).rawPayload;
      const res = await importFile(file, { filename: `whatever.${format === 'xlsx' ? 'csv' : 'xlsx'}` });
      expect(res.status, format).toBe(200);
      expect(res.body).toEqual({
        message: 'Products imported: 3 (0 created, 3 updated).',
        data: { created: 0, updated: 3, total: 3 },
      });
    }
    expect(await countProducts()).toBe(count);
    // not even updated_at: a row that changes nothing is not written
    expect(await list()).toEqual(before);
  });

  it('creates products from names in Khmer, a short unit name, any column order and case', async () => {
    const file = csv([
      [' Name_EN ', 'SKU', 'name_kh', 'category', 'unit', 'price_usd', 'brand', 'sub_category', 'taxable', 'price_khr'],
      [
        'Angkor Beer 640ml',
        'ANG-640',
        'ស្រាបៀរអង្គរ ៦៤០មល',
        'ភេសជ្ជៈ',
        'កំប៉ុង',
        '2.5',
        'angkor',
        'ស្រាបៀរ',
        'no',
        '"10,000"',
      ],
      ['', '', '', '', '', '', '', '', '', ''],
      ['"Mama noodles, chicken"', 'MAMA-CHK', 'មីម៉ាម៉ា សាច់មាន់', 'អាហារ', 'PK', '$0.35', '', '', '', ''],
    ]);
    const res = await importFile(file);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ created: 2, updated: 0, total: 2 });

    const [beer] = await list('&search=ANG-640');
    expect(beer).toMatchObject({
      name_kh: 'ស្រាបៀរអង្គរ ៦៤០មល',
      brand_id: ids.angkor,
      category_id: ids.drinks,
      sub_category_id: ids.beer,
      unit_id: ids.can,
      price_usd_cents: 250,
      price_khr: 10000,
      cost_usd_cents: 0,
      taxable: false,
      barcode: null,
      status: 'active',
    });
    const [noodles] = await list('&search=MAMA-CHK');
    expect(noodles).toMatchObject({ category_id: ids.food, unit_id: ids.pack, brand_id: null, taxable: true });
  });

  it('updates by SKU, keeping what the file leaves out', async () => {
    const res = await importFile(
      csv([
        ['sku', 'name_kh', 'name_en', 'category', 'unit', 'price_usd'],
        ['ang-330', 'ស្រាបៀរអង្គរ កំប៉ុង', 'Angkor Beer can', 'Drinks', 'can', '1.30'],
      ]),
    );
    expect(res.body.data).toEqual({ created: 0, updated: 1, total: 1 });
    const [beer] = await list('&search=ang-330');
    // the SKU is written as the file has it; barcode, brand, expiry… are those it had
    expect(beer).toMatchObject({
      sku: 'ang-330',
      price_usd_cents: 130,
      barcode: '8851959132012',
      brand_id: ids.angkor,
      sub_category_id: ids.beer,
      price_khr: 5000,
      expiry_date: '2027-03-31',
      reorder_level: 48,
    });
  });

  it('reads a workbook made elsewhere: numbers, dates, formulas, rich text, shared strings', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Stock list');
    sheet.addRow(['SKU', 'Barcode', 'Name_KH', 'Name_EN', 'Category', 'Unit', 'Price_USD', 'Expiry_Date', 'Taxable']);
    sheet.addRow([
      'XL-1',
      Number(ean('885000000003')), // typed as a number in Excel
      { richText: [{ text: 'ទឹកក្រូច ' }, { font: { bold: true }, text: 'ស្រស់' }] },
      'Orange juice',
      'Drinks',
      'Can',
      { formula: '1.1+0.16', result: 1.1 + 0.16 },
      new Date(Date.UTC(2027, 0, 15)),
      false,
    ]);
    sheet.getCell('H2').numFmt = 'dd/mm/yyyy';
    workbook.addWorksheet('Notes').addRow(['anything']);
    const res = await importFile(Buffer.from(await workbook.xlsx.writeBuffer()), { filename: 'stock.bin' });
    // the answer in full when it is not a success (this failed once on PostgreSQL in CI, unexplained)
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({ created: 1, updated: 0, total: 1 });
    const [juice] = await list('&search=XL-1');
    expect(juice).toMatchObject({
      barcode: ean('885000000003'),
      name_kh: 'ទឹកក្រូច ស្រស់',
      price_usd_cents: 126,
      expiry_date: '2027-01-15',
      taxable: false,
    });
  });

  it('answers every mistake of every row and writes nothing', async () => {
    const count = await countProducts();
    const before = await list();
    const file = csv([
      [
        'sku',
        'barcode',
        'name_kh',
        'name_en',
        'category',
        'sub_category',
        'unit',
        'price_usd',
        'taxable',
        'expiry_date',
      ],
      ['NEW-1', ean('885000000001'), 'ផលិតផលថ្មី', 'A new product', 'Drinks', '', 'can', '1.00', 'yes', ''], // right
      ['NEW-2', '8850000000012', 'ផលិតផល', 'Bad barcode', 'Drinks', '', 'can', '1.00', '', ''],
      ['NEW-3', '', 'ផលិតផល', 'No category', 'Toys', '', 'can', '1.00', '', ''],
      ['NEW-4', '', 'ផលិតផល', 'Noodles in drinks', 'Drinks', 'Noodles', 'can', 'abc', '', ''],
      ['NEW-5', '', '', 'By the carton', 'Food', '', 'ctn', '1.00', 'maybe', '31/12/2027'],
      ['NEW-6', '8851959132012', 'ផលិតផល', 'ab', 'Food', '', 'Can', '-1', '', ''],
    ]);
    const res = await importFile(file);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: 'The given data was invalid.',
      errors: { file: ['Nothing was imported. Rows with mistakes: 5; mistakes: 11.'] },
      rows: [
        {
          row: 3,
          column: 'barcode',
          value: '8850000000012',
          message: 'This barcode’s check digit is wrong: check the number.',
        },
        { row: 4, column: 'category', value: 'Toys', message: 'Category "Toys" does not exist.' },
        { row: 5, column: 'sub_category', value: 'Noodles', message: 'This sub-category belongs to another category.' },
        { row: 5, column: 'price_usd', value: 'abc', message: 'The value is not valid.' },
        { row: 6, column: 'name_kh', value: '', message: 'This field is required!' },
        {
          row: 6,
          column: 'unit',
          value: 'ctn',
          message: 'Choose a base unit: one that is not itself made of another unit.',
        },
        { row: 6, column: 'taxable', value: 'maybe', message: 'Write yes or no.' },
        { row: 6, column: 'expiry_date', value: '31/12/2027', message: 'The format is not valid.' },
        { row: 7, column: 'barcode', value: '8851959132012', message: 'This value is already used.' },
        { row: 7, column: 'name_en', value: 'ab', message: 'Must be at least 3 characters.' },
        { row: 7, column: 'price_usd', value: '-1', message: 'Must be at least 0.' },
      ],
    });
    expect(await countProducts()).toBe(count);
    expect(await list()).toEqual(before);
  });

  it('refuses the second of two rows with the same SKU or barcode, and a barcode another product has', async () => {
    const count = await countProducts();
    const code = ean('885000000002');
    const res = await importFile(
      csv([
        ['sku', 'barcode', 'name_kh', 'name_en', 'category', 'unit', 'price_usd'],
        ['DUP-1', code, 'ផលិតផលមួយ', 'Product one', 'Drinks', 'Can', '1'],
        ['dup-1', '', 'ផលិតផលពីរ', 'Product two', 'Drinks', 'Can', '1'],
        ['DUP-3', code, 'ផលិតផលបី', 'Product three', 'Drinks', 'Can', '1'],
        ['DUP-4', '8851959132012', 'ផលិតផលបួន', 'Product four', 'Drinks', 'Can', '1'],
      ]),
    );
    expect(res.status).toBe(422);
    expect(res.body.rows).toEqual([
      { row: 3, column: 'sku', value: 'dup-1', message: 'The same value is already in row 2 of this file.' },
      { row: 4, column: 'barcode', value: code, message: 'The same value is already in row 2 of this file.' },
      { row: 5, column: 'barcode', value: '8851959132012', message: 'This value is already used.' },
    ]);
    expect(await countProducts()).toBe(count);
  });

  it('answers in Khmer with x-localization: kh', async () => {
    const res = await importFile(
      csv([
        ['sku', 'name_kh', 'name_en', 'category', 'unit', 'price_usd', 'colour'],
        ['KH-1', 'ផលិតផល', 'Product', 'Drinks', 'Can', '1', 'red'],
      ]),
      { as: { ...admin(), 'x-localization': 'kh' } },
    );
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('ទិន្នន័យដែលបានផ្ដល់មិនត្រឹមត្រូវ។');
    expect(res.body.errors.file).toEqual(['គ្មានអ្វីត្រូវបាននាំចូលទេ។ ជួរដែលមានកំហុស៖ 1។ កំហុសសរុប៖ 1។']);
    expect(res.body.rows).toEqual([
      { row: 1, column: 'colour', value: 'colour', message: expect.stringContaining('មិនស្គាល់ជួរឈរ «colour» ទេ។') },
    ]);

    const rows = await importFile(
      csv([
        ['sku', 'name_kh', 'name_en', 'category', 'unit', 'price_usd'],
        ['KH-1', 'ផលិតផល', 'Product', 'គ្មាន', 'Can', ''],
      ]),
      { as: { ...admin(), 'x-localization': 'kh' } },
    );
    expect(rows.body.rows).toEqual([
      { row: 2, column: 'category', value: 'គ្មាន', message: 'ប្រភេទ «គ្មាន» មិនមានទេ។' },
      { row: 2, column: 'price_usd', value: '', message: 'ប្រអប់នេះត្រូវតែបំពេញ!' },
    ]);
  });

  it('names missing and doubled columns in the header row', async () => {
    const res = await importFile(
      csv([
        ['SKU', 'name_en', 'sku', 'price_usd'],
        ['X-1', 'Product', 'X-1', '1'],
      ]),
    );
    expect(res.status).toBe(422);
    expect(res.body.rows).toEqual([
      { row: 1, column: 'sku', value: 'sku', message: 'The column "sku" appears twice.' },
      { row: 1, column: 'name_kh', value: '', message: 'The column "name_kh" is missing.' },
      { row: 1, column: 'category', value: '', message: 'The column "category" is missing.' },
      { row: 1, column: 'unit', value: '', message: 'The column "unit" is missing.' },
    ]);
  });

  it('refuses a file that is no spreadsheet, an empty one, a missing one, and one too large or too long', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    const refused = (body: { errors: { file: string[] }; rows: unknown[] }) => [body.errors.file, body.rows];
    const picture = await importFile(png, { filename: 'products.csv' });
    expect(picture.status).toBe(422);
    expect(refused(picture.body)).toEqual([['Choose an Excel workbook (.xlsx) or a CSV file.'], []]);
    // a zip that is not a workbook
    const zip = await importFile(Buffer.from(`504b0304${'00'.repeat(40)}`, 'hex'), { filename: 'products.xlsx' });
    expect(refused(zip.body)).toEqual([['Choose an Excel workbook (.xlsx) or a CSV file.'], []]);

    expect(refused((await importFile('sku,name_kh\r\n\r\n')).body)).toEqual([['The file has no rows to import.'], []]);

    const none = await ctx.app.inject({ method: 'POST', url: '/api/products/import', headers: admin(), payload: {} });
    expect(none.statusCode).toBe(422);
    expect(none.json().errors).toEqual({ file: ['This field is required!'] });

    const big = await importFile(Buffer.alloc(10 * 1024 * 1024 + 1, 'a'));
    expect(refused(big.body)).toEqual([['The file is larger than 10 MB.'], []]);

    const long = ['sku,name_kh,name_en,category,unit,price_usd'];
    for (let i = 0; i <= 20_000; i++) long.push(`L-${i},ផលិតផល,Product,Drinks,Can,1`);
    const tooLong = await importFile(long.join('\n'));
    expect(refused(tooLong.body)).toEqual([
      ['The file has 20001 rows; at most 20000 can be imported at once. Split it into several files.'],
      [],
    ]);
  });

  it('imports thousands of rows in batches, and exports them again in chunks', async () => {
    const lines = ['sku,barcode,name_kh,name_en,category,unit,price_usd,reorder_level'];
    for (let i = 0; i < 2500; i++) {
      const n = String(i).padStart(5, '0');
      lines.push(`BULK-${n},${ean(`8859000${n}`)},ផលិតផល ${n},Bulk product ${n},Food,Pack,${i}.99,${i}`);
    }
    const res = await importFile(lines.join('\r\n'));
    expect(res.body.data).toEqual({ created: 2500, updated: 0, total: 2500 });

    const rows = await readCsv((await exportFile('format=csv&search=bulk&sort=-sku')).rawPayload);
    expect(rows).toHaveLength(2501);
    expect(rows[1].slice(0, 4)).toEqual(['BULK-02499', ean('885900002499'), 'ផលិតផល 02499', 'Bulk product 02499']);
    expect(rows.at(-1)?.[0]).toBe('BULK-00000');
    expect(new Set(rows.map((r) => r[0])).size).toBe(2501);
    expect(rows[1][9]).toBe('2499.99');

    // and the same file again: all updates
    const again = await importFile(lines.join('\r\n'));
    expect(again.body.data).toEqual({ created: 0, updated: 2500, total: 2500 });
  });
});

describe('import permissions', () => {
  it('is refused with 403 without products.create', async () => {
    const user = await createUser(ctx.db, { permissions: ['products.list', 'products.update'] });
    const token = (await login(ctx.app, user.name, user.password)).token;
    const res = await importFile(
      csv([
        ['sku', 'name_kh', 'name_en', 'category', 'unit', 'price_usd'],
        ['P-403', 'ផលិតផល', 'Product', 'Drinks', 'Can', '1'],
      ]),
      { as: { ...bearer(token), 'x-localization': 'en' } },
    );
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: 'You do not have permission to do this.' });
  });

  it('refuses, row by row, the updates of a user who may create but not edit products', async () => {
    const user = await createUser(ctx.db, { permissions: ['products.list', 'products.create'] });
    const as = { ...bearer((await login(ctx.app, user.name, user.password)).token), 'x-localization': 'en' };
    const header = ['sku', 'name_kh', 'name_en', 'category', 'unit', 'price_usd'];
    const update = await importFile(
      csv([
        header,
        ['CREATE-1', 'ផលិតផល', 'Product', 'Drinks', 'Can', '1'],
        ['WATER-1', 'ទឹក', 'Water', 'Drinks', 'Can', '9'],
      ]),
      { as },
    );
    expect(update.status).toBe(422);
    expect(update.body.rows).toEqual([
      {
        row: 3,
        column: 'sku',
        value: 'WATER-1',
        message: 'A product with this SKU already exists, and you may not edit products.',
      },
    ]);
    const created = await importFile(csv([header, ['CREATE-1', 'ផលិតផល', 'Product', 'Drinks', 'Can', '1']]), { as });
    expect(created.body.data).toEqual({ created: 1, updated: 0, total: 1 });
  });
});
