import fs from 'node:fs';
import { createRequire } from 'node:module';
import { prepareZXingModule, writeBarcode } from 'zxing-wasm/writer';
import { CASHIER } from './playwright.config.ts';
import {
  adminApi,
  confirm,
  expect,
  mainStore,
  newContext,
  prefix,
  setColorMode,
  signIn,
  snap,
  stockInMain,
  test,
} from './support.ts';

/**
 * A blind count on a phone (issue 28): a cashier counts aisle 3 in Khmer with the phone's camera,
 * which sees a picture of the product's barcode (the camera is faked: a canvas drawing that
 * picture, handed to the page as getUserMedia's stream), never seeing what the store expected; a
 * manager reviews the difference and its value in English and approves; the stock is then what
 * was counted. The product, its stock and the count are made through the API.
 */

const run = Date.now().toString(36).slice(-5);

/** An EAN-13 of this run (prefix 884, Cambodia's), with its check digit. */
function ean(seed: string): string {
  const body = `884${String(Number.parseInt(seed, 36) % 1_000_000_000).padStart(9, '0')}`;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(body[11 - i]) * (i % 2 === 0 ? 3 : 1);
  return body + String((10 - (sum % 10)) % 10);
}

/** The barcode's picture, as a label printer would draw it (SVG). */
async function barcodePicture(code: string): Promise<string> {
  const require = createRequire(import.meta.url);
  prepareZXingModule({
    overrides: { wasmBinary: fs.readFileSync(require.resolve('zxing-wasm/writer/zxing_writer.wasm')) as never },
    fireImmediately: true,
  });
  const written = await writeBarcode(code, { format: 'EAN13', scale: 4, withHRT: true });
  if (written.error) throw new Error(written.error);
  return written.svg;
}

test('a blind count by phone camera, approved by a manager, sets the stock to what was counted', async ({
  browser,
  request,
}) => {
  const api = await adminApi(request);
  const code = ean(run);
  const category = await api.post('categories', { name_en: `Counted ${run}`, name_kh: `រាប់ ${run}` });
  const unit = await api.post('units', { name_en: `Bag ${run}`, name_kh: `ថង់ ${run}`, short_name: `b${run}` });
  const product = await api.post('products', {
    name_en: `Palm sugar ${run}`,
    name_kh: `ស្ករត្នោត ${run}`,
    sku: `SUGAR-${run}`,
    barcode: code,
    category_id: category.id,
    unit_id: unit.id,
    price_usd_cents: 250,
    cost_usd_cents: 150,
    taxable: false,
  });
  await stockInMain(api, product.id, 10, `counts ${run}`);
  const main = (await mainStore(api)).id;
  const count = await api.post<{ id: number; number: string }>('stock-counts', {
    store_id: main,
    zone: `Aisle 3 · ${run}`,
  });

  // the cashier's phone, in Khmer; its camera sees the barcode's picture
  const svg = await barcodePicture(code);
  const phone = await browser.newContext({
    locale: 'km-KH',
    viewport: { width: 360, height: 740 },
    isMobile: true,
    hasTouch: true,
  });
  await phone.addInitScript((picture: string) => {
    const image = new Image();
    image.src = `data:image/svg+xml;base64,${btoa(picture)}`;
    const fake = async () => {
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = 640;
      canvas.height = 480;
      const g = canvas.getContext('2d') as CanvasRenderingContext2D;
      const draw = () => {
        g.fillStyle = '#fff';
        g.fillRect(0, 0, canvas.width, canvas.height);
        const width = 520;
        const height = (image.height / image.width) * width;
        g.drawImage(image, (canvas.width - width) / 2, (canvas.height - height) / 2, width, height);
      };
      draw();
      // a camera sends frames: the stream carries one each time the canvas is drawn
      setInterval(draw, 100);
      return canvas.captureStream(10);
    };
    Object.defineProperty(navigator, 'mediaDevices', { value: { getUserMedia: fake }, configurable: true });
  }, svg);
  const page = await phone.newPage();
  await signIn(page, 'kh', CASHIER.name, CASHIER.password);
  await page.goto(`${prefix('kh')}/stocks/counts/${count.id}`, { waitUntil: 'networkidle' });
  await expect(page.getByText(`ការរាប់ស្តុក ${count.number}`)).toBeVisible();

  // six bags on the shelf: each scan counts six; the camera sees the barcode once
  await page.getByTestId('count-quantity').fill('6');
  await page.getByTestId('count-camera-toggle').click();
  const line = page.getByTestId(`count-line-${product.id}`);
  await expect(line.getByTestId('count-line-counted')).toHaveText('6', { timeout: 30_000 });
  await expect(page.getByTestId('count-last')).toContainText(`ស្ករត្នោត ${run}៖ រាប់បាន 6`);
  // blind: nothing says what the store expected
  await expect(page.getByTestId('count-line-expected')).toHaveCount(0);
  await expect(page.getByText('ចំនួនគួរមាន')).toHaveCount(0);
  // the phone's screen, 360 wide: nothing runs off its side
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await snap(page, 'counts-phone-kh-light');
  await page.getByTestId('count-camera-toggle').click();
  await setColorMode(page, 'dark');
  await snap(page, 'counts-phone-kh-dark');

  await page.getByTestId('count-submit').click();
  await confirm(page, 'រាប់រួចហើយ', 'បានបញ្ជូនការរាប់ស្តុក៖ អ្នកគ្រប់គ្រងនឹងពិនិត្យ និងអនុម័ត។');
  await expect(page.getByTestId('count-status')).toHaveText('រង់ចាំអនុម័ត');
  await expect(page.getByTestId('count-approve')).toHaveCount(0);
  await phone.close();

  // the manager, at a desk in English, dark
  const desk = await newContext(browser, 'en', 'dark');
  const review = await desk.newPage();
  await signIn(review, 'en');
  await review.goto(`/en/stocks/counts/${count.id}`, { waitUntil: 'networkidle' });
  const reviewed = review.getByTestId(`count-line-${product.id}`);
  await expect(reviewed.getByTestId('count-line-expected')).toContainText('Expected 10 · −4 · -$6.00');
  await expect(review.getByTestId('count-value')).toContainText('-$6.00');
  await snap(review, 'counts-review-en-dark');
  await review.getByTestId('count-approve').click();
  await confirm(review, 'Approve and post', 'Count approved: the differences are posted to the stock.');
  await expect(review.getByTestId('count-status')).toHaveText('Approved');
  await expect(review.getByText(/^Approved .* by admin$|^Approved .* by Administrator$/)).toBeVisible();
  // the list of counts, where the next one starts
  await review.goto('/en/stocks/counts', { waitUntil: 'networkidle' });
  await expect(review.getByTestId(`open-${count.id}`)).toHaveText(count.number);
  await snap(review, 'counts-list-en-dark', { quiet: true });
  await desk.close();

  const levels = await api.get<{ data: { product_id: number; quantity: number }[] }>(
    `stocks/levels?filter[store_id]=${main}&search=${encodeURIComponent(`Palm sugar ${run}`)}`,
  );
  expect(levels.data.find((l) => l.product_id === product.id)?.quantity).toBe(6);
});
