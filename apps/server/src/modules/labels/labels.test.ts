import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { gtinCheckDigit, isValidBarcode, storeBarcode, symbologyOf } from '@depot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import { CHROMIUM_PATH } from '../../kit/pdf.ts';
import { ADMIN_PASSWORD, bearer, createUser, login, useTestApp } from '../../test/harness.ts';
import { fakePrinter } from '../../test/printing.ts';

// the fake printer listens on 127.0.0.1: this suite alone lets the guard reach the loopback
const ctx = useTestApp({ printerNetwork: { allowLoopback: true, ports: [[1, 65535]] } });
const printer = fakePrinter();
type Headers = Record<string, string>;
let admin: Headers;
let khmer: Headers;
const ids: Record<string, number> = {};

// the decoder is zxing-cpp (WebAssembly), not bwip-js that drew the bars; its wasm read from disk
const wasm = fs.readFileSync(createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm'));
prepareZXingModule({
  overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer },
});

async function send(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, as = admin) {
  const res = await ctx.app.inject({ method, url, headers: as, payload });
  return {
    status: res.statusCode,
    body: String(res.headers['content-type']).includes('json') ? res.json() : null,
    raw: res,
  };
}

/** Every barcode on every page of a PDF, as poppler draws the pages and zxing reads them. */
async function barcodesIn(pdf: Buffer): Promise<{ format: string; text: string }[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'depot-labels-'));
  try {
    fs.writeFileSync(path.join(dir, 'l.pdf'), pdf);
    execFileSync('pdftoppm', ['-r', '200', '-gray', '-png', path.join(dir, 'l.pdf'), path.join(dir, 'page')]);
    const found: { format: string; text: string }[] = [];
    for (const file of fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.png'))
      .sort()) {
      const results = await readBarcodes(new Uint8Array(fs.readFileSync(path.join(dir, file))), {
        formats: ['EAN13', 'EAN8', 'Code128'],
        maxNumberOfSymbols: 64,
      });
      found.push(...results.map((r) => ({ format: r.format, text: r.text })));
    }
    return found;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const pdfOf = (body: object, as = admin) =>
  ctx.app.inject({ method: 'POST', url: '/api/labels/pdf', headers: as, payload: body });

beforeAll(async () => {
  admin = { ...bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token), 'x-localization': 'en' };
  khmer = { ...admin, 'x-localization': 'kh' };
  const post = async (url: string, body: object) => {
    const res = await send('POST', url, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.id as number;
  };
  const category = await post('/api/categories', { name_en: 'Groceries', name_kh: 'គ្រឿងទេស' });
  const kg = await post('/api/units', { name_en: 'Kilogram', name_kh: 'គីឡូក្រាម', short_name: 'kg' });
  ids.rice = await post('/api/products', {
    name_en: 'Jasmine rice',
    name_kh: 'អង្ករផ្កាម្លិះ',
    sku: 'RICE-1',
    barcode: '8850123456787',
    category_id: category,
    unit_id: kg,
    price_usd_cents: 125,
  });
  ids.sugar = await post('/api/products', {
    name_en: 'Palm sugar',
    name_kh: 'ស្ករត្នោត',
    sku: 'SUGAR-1',
    barcode: '96385074',
    category_id: category,
    unit_id: kg,
    price_usd_cents: 250,
    price_khr: 10_000,
  });
  ids.soap = await post('/api/products', {
    name_en: 'Soap bar',
    name_kh: 'សាប៊ូដុំ',
    sku: 'SOAP-1',
    barcode: 'SOAP-0001',
    category_id: category,
    unit_id: kg,
    price_usd_cents: 90,
  });
  ids.salt = await post('/api/products', {
    name_en: 'Sea salt',
    name_kh: 'អំបិលសមុទ្រ',
    sku: 'SALT-1',
    category_id: category,
    unit_id: kg,
    price_usd_cents: 50,
  });
});
afterAll(() => printer.close());

describe('the store’s own barcodes', () => {
  it('are EAN-13 in the in-store range with their check digit, and each one is different', () => {
    const codes = [1, 2, 9_999_999_999, 10_000_000_000, 10_000_000_001, 20_000_000_000].map(storeBarcode);
    for (const code of codes) {
      expect(code).toMatch(/^2[01]\d{11}$/);
      expect(isValidBarcode(code)).toBe(true);
      expect(gtinCheckDigit(code.slice(0, -1))).toBe(Number(code.at(-1)));
      expect(symbologyOf(code)).toBe('ean13');
    }
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes[0].startsWith('20')).toBe(true);
    expect(codes[3].startsWith('20')).toBe(true);
    expect(codes[4].startsWith('21')).toBe(true);
    expect(() => storeBarcode(20_000_000_001)).toThrow(RangeError);
    expect(symbologyOf('96385074')).toBe('ean8');
    expect(symbologyOf('8850123456780')).toBe('code128'); // a wrong check digit is no EAN
  });
});

describe('label sheets', () => {
  it.skipIf(!fs.existsSync(CHROMIUM_PATH))(
    'draws each product’s barcode as many times as asked, and gives a product without one its own',
    async () => {
      const res = await pdfOf({
        kind: 'barcode',
        sheet: '3x8',
        items: [
          { product_id: ids.rice, quantity: 2 },
          { product_id: ids.sugar, quantity: 1 },
          { product_id: ids.soap, quantity: 1 },
          { product_id: ids.salt, quantity: 1 },
        ],
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toBe('attachment; filename="labels.pdf"');
      const salt = (await send('GET', `/api/products/${ids.salt}`)).body.data;
      expect(salt.barcode).toMatch(/^20\d{11}$/);
      expect(isValidBarcode(salt.barcode)).toBe(true);
      const found = await barcodesIn(res.rawPayload);
      expect(found.map((f) => `${f.format} ${f.text}`).sort()).toEqual(
        [
          'EAN13 8850123456787',
          'EAN13 8850123456787',
          'EAN8 96385074',
          'Code128 SOAP-0001',
          `EAN13 ${salt.barcode}`,
        ].sort(),
      );
      // the till finds it by its new barcode, and the audit trail tells who gave it
      const scan = await send('GET', `/api/products?search=${salt.barcode}`);
      expect(scan.body.data.map((p: { id: number }) => p.id)).toEqual([ids.salt]);
      const audit = await send('GET', '/api/audit?filter[action]=product.barcode');
      expect(audit.status).toBe(200);
      expect(audit.body.data[0]).toMatchObject({ subject_id: ids.salt, after: { barcode: salt.barcode } });
      // a second print keeps the barcode it was given
      expect((await pdfOf({ kind: 'barcode', items: [{ product_id: ids.salt, quantity: 1 }] })).statusCode).toBe(200);
      expect((await send('GET', `/api/products/${ids.salt}`)).body.data.barcode).toBe(salt.barcode);
    },
  );

  it.skipIf(!fs.existsSync(CHROMIUM_PATH))('draws shelf tags with the prices in dollars and riel', async () => {
    const res = await pdfOf({ kind: 'tag', items: [{ product_id: ids.sugar, quantity: 3 }] }, khmer);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="shelf-tags.pdf"');
    const text = execFileSync('pdftotext', ['-layout', '-', '-'], { input: res.rawPayload }).toString('utf8');
    // the product's own riel price is the tag's; the unit it is sold by
    expect(text.match(/\$2\.50/g)).toHaveLength(3);
    expect(text).toContain('10,000៛');
    expect(text).toContain('kg');
    expect((await barcodesIn(res.rawPayload)).map((f) => f.text)).toEqual(['96385074', '96385074', '96385074']);
  });

  it('refuses what it cannot print, in the reader’s language, and changes nothing', async () => {
    const tooMany = await pdfOf(
      {
        kind: 'barcode',
        items: [
          { product_id: ids.rice, quantity: 600 },
          { product_id: ids.sugar, quantity: 401 },
        ],
      },
      khmer,
    );
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json().errors.items[0]).toBe('ស្លាកច្រើនពេកសម្រាប់ការបោះពុម្ពម្ដង៖ សូមបោះពុម្ពជាច្រើនដង។');
    const gone = await pdfOf({ kind: 'barcode', items: [{ product_id: 999_999, quantity: 1 }] });
    expect(gone.statusCode).toBe(422);
    expect(gone.json().errors['items.0.product_id'][0]).toBe('A product in the list does not exist or was deleted.');
    const skip = await pdfOf({ kind: 'tag', sheet: '2x5', skip: 10, items: [{ product_id: ids.rice, quantity: 1 }] });
    expect(skip.statusCode).toBe(422);
    expect(skip.json().errors.skip[0]).toBe('A sheet of this layout has only 10 labels.');
    for (const body of [
      { kind: 'barcode', items: [] },
      { kind: 'x', items: [{ product_id: ids.rice, quantity: 1 }] },
    ]) {
      expect((await pdfOf(body)).statusCode).toBe(422);
    }
  });

  it('is for those who may print labels; a product’s first barcode is for those who may edit it', async () => {
    const cashier = await createUser(ctx.db, { roles: ['cashier'] });
    const asCashier = bearer((await login(ctx.app, cashier.name, cashier.password)).token);
    expect(
      (await pdfOf({ kind: 'barcode', items: [{ product_id: ids.rice, quantity: 1 }] }, asCashier)).statusCode,
    ).toBe(403);
    const clerk = await createUser(ctx.db, { permissions: ['products.list', 'products.generate'] });
    const asClerk = { ...bearer((await login(ctx.app, clerk.name, clerk.password)).token), 'x-localization': 'en' };
    const bare = await send('POST', '/api/products', {
      name_en: 'Brown sugar',
      name_kh: 'ស្ករក្រហម',
      sku: 'SUGAR-2',
      category_id: (await send('GET', `/api/products/${ids.rice}`)).body.data.category_id,
      unit_id: (await send('GET', `/api/products/${ids.rice}`)).body.data.unit_id,
      price_usd_cents: 200,
    });
    const refused = await pdfOf({ kind: 'barcode', items: [{ product_id: bare.body.data.id, quantity: 1 }] }, asClerk);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors['items.0.product_id'][0]).toBe(
      '“Brown sugar” has no barcode yet: someone who may edit products must print its first label.',
    );
    expect((await send('GET', `/api/products/${bare.body.data.id}`)).body.data.barcode).toBeNull();
    // the settings are read by those who print, changed by those who change settings
    expect((await send('GET', '/api/labels/settings', undefined, asClerk)).body.data).toEqual({
      barcode_sheet: '3x8',
      tag_sheet: '2x5',
    });
    expect(
      (await send('PUT', '/api/labels/settings', { barcode_sheet: '4x10', tag_sheet: '2x5' }, asClerk)).status,
    ).toBe(403);
    const saved = await send('PUT', '/api/labels/settings', { barcode_sheet: '4x10', tag_sheet: '3x7' });
    expect(saved.status).toBe(200);
    expect((await send('GET', '/api/labels/settings')).body.data).toEqual({ barcode_sheet: '4x10', tag_sheet: '3x7' });
    expect((await send('PUT', '/api/labels/settings', { barcode_sheet: '9x9', tag_sheet: '3x7' })).status).toBe(422);
  });
});

describe('price changes', () => {
  it('lists the products whose price changed, or that were added, since a day', async () => {
    const today = new Date(Date.now() + 7 * 3_600_000).toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 31 * 3_600_000).toISOString().slice(0, 10);
    expect((await send('GET', `/api/labels/price-changes?since=${tomorrow}`)).body.items).toEqual([]);
    // a price changed today, after the products were added
    const rice = (await send('GET', `/api/products/${ids.rice}`)).body.data;
    const { id: _id, ...rest } = rice;
    const changed = await send('PUT', `/api/products/${ids.rice}`, {
      ...Object.fromEntries(
        ['name_en', 'name_kh', 'sku', 'barcode', 'category_id', 'unit_id', 'price_khr'].map((k) => [k, rest[k]]),
      ),
      price_usd_cents: 135,
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const since = await send('GET', `/api/labels/price-changes?since=${today}`);
    expect(since.status).toBe(200);
    expect(since.body.items[0]).toMatchObject({ product_id: ids.rice, name_en: 'Jasmine rice', quantity: 1 });
    expect(since.body.items.map((i: { product_id: number }) => i.product_id)).toEqual(
      expect.arrayContaining([ids.rice, ids.sugar, ids.soap, ids.salt]),
    );
    expect((await send('GET', '/api/labels/price-changes?since=yesterday')).status).toBe(422);
  });
});

describe('labels on a printer', () => {
  it.skipIf(!fs.existsSync(CHROMIUM_PATH))('sends the labels as one raster job to a printer of the store', async () => {
    const port = await printer.listen();
    const store = await ctx.db.selectFrom('stores').select('id').orderBy('id').executeTakeFirstOrThrow();
    const made = await send('POST', '/api/printers', {
      store_id: store.id,
      name: 'Label printer',
      host: '127.0.0.1',
      port,
      paper: '58',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const job = printer.next();
    const res = await send('POST', '/api/labels/print', {
      printer_id: made.body.data.id,
      kind: 'barcode',
      items: [{ product_id: ids.rice, quantity: 2 }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toBe('2 labels sent to Label printer.');
    expect(res.body.data).toMatchObject({ width: 384, drawer_opened: false });
    expect(res.body.data.height).toBeGreaterThan(300);
    expect((await job).length).toBe(res.body.data.bytes);
    const tooMany = await send('POST', '/api/labels/print', {
      printer_id: made.body.data.id,
      kind: 'barcode',
      items: [{ product_id: ids.rice, quantity: 41 }],
    });
    expect(tooMany.status).toBe(422);
    expect(
      (
        await send('POST', '/api/labels/print', {
          printer_id: 999_999,
          kind: 'tag',
          items: [{ product_id: ids.rice, quantity: 1 }],
        })
      ).status,
    ).toBe(404);
  });
});
