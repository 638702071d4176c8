import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import { adminApi, expect, type Lang, newContext, prefix, signIn, snap, test } from './support.ts';

/**
 * Labels and shelf tags (issue 28): products ticked in the list get their barcode labels on an A4
 * sheet; the prices changed today get shelf tags. Each
 * PDF is drawn as a picture (poppler) for people to look at, and its barcodes are read back by
 * zxing-cpp (WebAssembly), a decoder that is not bwip-js, which drew them: they must be the products'.
 */
const run = Date.now().toString(36).slice(-5);
const shots = path.join(path.dirname(fileURLToPath(import.meta.url)), 'screenshots');

const wasm = fs.readFileSync(createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm'));
prepareZXingModule({
  overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer },
});

/** An EAN-13 of a made-up GS1 country (prefix 88), unique to this run, with its check digit. */
function gtin(seed: number): string {
  const body = `88${String((Number.parseInt(run, 36) * 10 + seed) % 10_000_000_000).padStart(10, '0')}`;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(body[11 - i]) * (i % 2 === 0 ? 3 : 1);
  return body + String((10 - (sum % 10)) % 10);
}

interface Made {
  id: number;
  barcode: string | null;
}
const made: Record<'rice' | 'sugar' | 'soap' | 'salt', Made> = {} as never;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  const api = await adminApi(request);
  const category = await api.post('categories', { name_en: `Dry goods ${run}`, name_kh: `ទំនិញស្ងួត ${run}` });
  const kg = await api.post('units', { name_en: `Kilogram ${run}`, name_kh: `គីឡូក្រាម ${run}`, short_name: `kg${run}` });
  const product = (en: string, kh: string, sku: string, barcode: string | null, cents: number) =>
    api.post<Made>('products', {
      name_en: `${en} ${run}`,
      name_kh: `${kh} ${run}`,
      sku: `${sku}-${run}`,
      barcode,
      category_id: category.id,
      unit_id: kg.id,
      price_usd_cents: cents,
    });
  made.rice = await product('Jasmine rice', 'អង្ករផ្កាម្លិះ', 'RICE', gtin(1), 125);
  made.sugar = await product('Palm sugar', 'ស្ករត្នោត', 'SUGAR', gtin(2), 250);
  made.soap = await product('Soap bar', 'សាប៊ូដុំ', 'SOAP', `LBL-${run}`.toUpperCase(), 90);
  // no barcode: its first label gives it the store's own
  made.salt = await product('Sea salt', 'អំបិលសមុទ្រ', 'SALT', null, 50);
});

/**
 * The PDF's pages as pictures (kept for people to look at) and the barcodes zxing reads on them, at
 * 300 dpi as a laser or label printer prints them: a shelf tag's Code 128 has modules of about 0.25 mm,
 * 1.5 pixels at 150 dpi, where zxing read it on some runs and not on others.
 */
async function readPdf(file: string, name: string): Promise<string[]> {
  execFileSync('pdftoppm', ['-png', '-r', '300', file, path.join(shots, name)]);
  const pages = fs.readdirSync(shots).filter((f) => f.startsWith(`${name}-`) && f.endsWith('.png'));
  expect(pages.length).toBeGreaterThan(0);
  const texts: string[] = [];
  for (const page of pages) {
    const found = await readBarcodes(new Uint8Array(fs.readFileSync(path.join(shots, page))), {
      formats: ['EAN13', 'EAN8', 'Code128'],
      maxNumberOfSymbols: 64,
    });
    texts.push(...found.map((r) => r.text));
  }
  return texts.sort();
}

async function savePdf(page: Page, name: string): Promise<string> {
  const download = page.waitForEvent('download');
  await page.getByTestId('labels-pdf').click();
  const file = await download;
  const saved = path.join(test.info().outputDir, `${name}.pdf`);
  await file.saveAs(saved);
  expect(fs.readFileSync(saved).subarray(0, 5).toString()).toBe('%PDF-');
  return saved;
}

function barcodeStory(lang: Lang) {
  return async ({ browser, request }: { browser: Browser; request: APIRequestContext }) => {
    const context = await newContext(browser, lang, 'light');
    const page = await context.newPage();
    await signIn(page, lang);
    await page.goto(`${prefix(lang)}/products?search=${run}`, { waitUntil: 'networkidle' });
    for (const p of [made.rice, made.soap, made.salt]) {
      await page.locator(`tr[data-row-key="${p.id}"] .ant-checkbox-input`).check();
    }
    await expect(page.getByTestId('labels-selected')).toHaveText(lang === 'kh' ? 'បោះពុម្ពស្លាក (3)' : 'Print labels (3)');
    await snap(page, `labels-ticked-${lang}-light`);
    await page.getByTestId('labels-selected').click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await dialog.getByTestId(`labels-quantity-${made.rice.id}`).fill('2');
    await expect(dialog).toContainText(lang === 'kh' ? 'ស្លាកសរុប 4' : '4 labels in all');
    await snap(page, `labels-dialog-${lang}-light`);
    const pdf = await savePdf(page, `labels-${lang}`);
    const codes = await readPdf(pdf, `labels-sheet-${lang}`);
    // the salt got the store's own EAN-13 (in-store prefix 20/21), saved on it
    const api = await adminApi(request);
    const salt = await api.get<{ data: Made }>(`products/${made.salt.id}`);
    expect(salt.data.barcode).toMatch(/^2[01]\d{11}$/);
    expect(codes).toEqual([made.rice.barcode, made.rice.barcode, made.soap.barcode, salt.data.barcode].sort());
    await context.close();
  };
}

function tagStory(lang: Lang) {
  return async ({ browser, request }: { browser: Browser; request: APIRequestContext }) => {
    // today the sugar's price went up
    const api = await adminApi(request);
    const sugar = await api.get<{ data: Record<string, unknown> }>(`products/${made.sugar.id}`);
    await api.put(`products/${made.sugar.id}`, {
      ...Object.fromEntries(
        ['name_en', 'name_kh', 'sku', 'barcode', 'category_id', 'unit_id', 'price_khr'].map((k) => [k, sugar.data[k]]),
      ),
      price_usd_cents: 275,
    });
    const context = await newContext(browser, lang, 'dark');
    const page = await context.newPage();
    await signIn(page, lang);
    await page.goto(`${prefix(lang)}/products?search=${run}`, { waitUntil: 'networkidle' });
    await page.getByTestId('labels-price-changes').click();
    await page.getByTestId('labels-find-changes').click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    // the shelf tags are chosen, on the settings' tag sheet; only this run's products are kept
    await expect(dialog.getByTestId('labels-kind').locator('.ant-segmented-item-selected')).toHaveText(
      lang === 'kh' ? 'ស្លាកធ្នើ' : 'Shelf tags',
    );
    await expect(dialog.getByTestId(`labels-quantity-${made.sugar.id}`)).toHaveValue('1');
    // other specs' products whose prices changed today are listed too: each removed by its row's
    // one button (the quantity's arrows are spans), one at a time, as the rows shift up
    const others = dialog.locator('tbody tr.ant-table-row').filter({ hasNotText: run });
    while ((await others.count()) > 0) {
      const before = await others.count();
      await others.first().locator('button').click();
      await expect(others).toHaveCount(before - 1);
    }
    await snap(page, `labels-tags-dialog-${lang}-dark`);
    const pdf = await savePdf(page, `tags-${lang}`);
    const text = execFileSync('pdftotext', ['-layout', pdf, '-']).toString('utf8');
    expect(text).toContain('$2.75');
    const codes = await readPdf(pdf, `labels-tags-${lang}`);
    expect(codes).toContain(made.sugar.barcode);
    // every tag is of one of this run's products, and each of its products has a tag
    const mine = await api.get<{ data: Made[] }>(`products?search=${run}&per_page=50`);
    expect(codes).toEqual(mine.data.map((p) => p.barcode).sort());
    await context.close();
  };
}

test('barcode labels for ticked products, one a product without a barcode, in Khmer', barcodeStory('kh'));
test('shelf tags for the prices changed today, in English, dark', tagStory('en'));
