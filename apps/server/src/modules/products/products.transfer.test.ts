import type ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { transferSuite } from './products.transfer.suite.ts';

/** Products exported as a workbook or CSV, and text that would run as a formula (products.transfer.suite.ts sets up). */
const { ctx, admin, ids, COLUMNS, send, importFile, exportFile, readXlsx, rowsOf, readCsv } = transferSuite();

describe('product export', () => {
  it('writes every product the list shows as xlsx, in its order, with a Guide sheet', async () => {
    const res = await exportFile('format=xlsx');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="products-\d{4}-\d{2}-\d{2}\.xlsx"$/);

    const workbook = await readXlsx(res.rawPayload);
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['ផលិតផល · Products', 'ការណែនាំ · Guide']);
    const [header, ...rows] = rowsOf(workbook.worksheets[0]);
    expect(header).toEqual(COLUMNS);
    // the list's default order is by English name; the deleted product is left out
    expect(rows.map((r) => r[0])).toEqual(['ANG-330', 'MAMA-PORK', 'WATER-1']);
    expect(rows[0]).toEqual([
      'ANG-330',
      '8851959132012',
      'ស្រាបៀរអង្គរ ៣៣០មល',
      'Angkor Beer 330ml',
      'Angkor 330',
      'Angkor',
      'Drinks',
      'Beer',
      'Can',
      '1.26',
      5000,
      '0.90',
      'yes',
      '2027-03-31',
      48,
      'active',
    ]);
    expect(rows[1]).toMatchObject({ 2: 'មីម៉ាម៉ា សាច់ជ្រូក', 9: '0.35', 10: '', 12: 'no', 15: 'inactive' });

    const guide = rowsOf(workbook.getWorksheet('ការណែនាំ · Guide') as ExcelJS.Worksheet);
    expect(guide.slice(1, 17).map((r) => r[0])).toEqual(COLUMNS);
    const unit = guide.find((r) => r[0] === 'unit') as string[];
    expect(guide[0].slice(0, 2)).toEqual(['ជួរឈរ · column', 'ចាំបាច់ · required']);
    expect(unit[1]).toBe('ចាំបាច់ · yes');
    expect(unit[2]).toMatch(/[\u1780-\u17FF]/);
    expect(unit[3]).toContain('base unit');
  });

  it('writes CSV with a BOM, narrowed by the list’s search, filters, order and trashed', async () => {
    const all = await exportFile('format=csv');
    expect(all.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(all.headers['content-disposition']).toMatch(/filename="products-\d{4}-\d{2}-\d{2}\.csv"$/);
    const [header, ...rows] = await readCsv(all.rawPayload);
    expect(header).toEqual(COLUMNS);
    expect(rows.map((r) => r[0])).toEqual(['ANG-330', 'MAMA-PORK', 'WATER-1']);
    expect(rows[0].slice(0, 4)).toEqual(['ANG-330', '8851959132012', 'ស្រាបៀរអង្គរ ៣៣០មល', 'Angkor Beer 330ml']);

    const skus = async (query: string) =>
      (await readCsv((await exportFile(query)).rawPayload)).slice(1).map((r) => r[0]);
    expect(await skus(`format=csv&filter[category_id]=${ids.drinks}&sort=-sku`)).toEqual(['WATER-1', 'ANG-330']);
    expect(await skus('format=csv&filter[status]=inactive')).toEqual(['MAMA-PORK']);
    expect(await skus(`format=csv&filter[brand_id]=${ids.angkor}`)).toEqual(['ANG-330']);
    expect(await skus(`format=csv&filter[sub_category_id]=${ids.noodles}`)).toEqual(['MAMA-PORK']);
    expect(await skus('format=csv&search=ទឹកសុទ្ធ')).toEqual(['WATER-1']);
    expect(await skus('format=csv&trashed=only')).toEqual(['OLD-1']);
    expect(await skus('format=csv&trashed=with&sort=sku')).toEqual(['ANG-330', 'MAMA-PORK', 'OLD-1', 'WATER-1']);
    expect(await skus('format=csv&filter[expired]=true')).toEqual([]);
    // the same page of the list, for comparison: the export is the list without its pages
    const listed = (await send('GET', `/api/products?per_page=10&filter[category_id]=${ids.drinks}&sort=-sku`)).body;
    expect(listed.data.map((p: { sku: string }) => p.sku)).toEqual(['WATER-1', 'ANG-330']);
  });

  it('gives a template to fill in: the header and the guide, no product', async () => {
    const res = await exportFile('format=xlsx&template=true');
    expect(res.headers['content-disposition']).toBe('attachment; filename="products-template.xlsx"');
    const workbook = await readXlsx(res.rawPayload);
    expect(rowsOf(workbook.worksheets[0])).toEqual([COLUMNS]);
    expect(rowsOf(workbook.getWorksheet('ការណែនាំ · Guide') as ExcelJS.Worksheet).length).toBeGreaterThan(16);
  });

  it('refuses an unknown format or sort with a localized 422', async () => {
    const pdf = await exportFile('format=pdf');
    expect(pdf.statusCode).toBe(422);
    expect(pdf.json().errors).toEqual({ format: ['Choose one of the allowed values.'] });
    const sort = await exportFile('format=csv&sort=colour');
    expect(sort.statusCode).toBe(422);
    expect(sort.json().errors).toEqual({ sort: ['This column cannot be sorted.'] });
    const kh = await ctx.app.inject({
      method: 'GET',
      url: '/api/products/export?format=ods',
      headers: { ...admin(), 'x-localization': 'kh' },
    });
    expect(kh.json()).toEqual({
      message: 'ទិន្នន័យដែលបានផ្ដល់មិនត្រឹមត្រូវ។',
      errors: { format: ['សូមជ្រើសរើសតម្លៃណាមួយដែលអនុញ្ញាត។'] },
    });
  });
});

describe('formula-like text', () => {
  it('is written to CSV as text Excel will not run, and imported back as it was', async () => {
    const created = await send('POST', '/api/products', {
      sku: '-NEG-1',
      name_en: '=HYPERLINK("x")',
      name_kh: '+ផលិតផល',
      category_id: ids.food,
      unit_id: ids.pack,
      price_usd_cents: 100,
    });
    expect(created.status).toBe(201);
    const file = (await exportFile('format=csv&search=NEG-1')).rawPayload;
    expect(file.toString()).toContain(`'-NEG-1,,'+ផលិតផល,"'=HYPERLINK(""x"")"`);
    const res = await importFile(file);
    expect(res.body.data).toEqual({ created: 0, updated: 1, total: 1 });
    expect((await send('GET', `/api/products/${created.body.data.id}`)).body.data).toEqual(created.body.data);
  });
});
