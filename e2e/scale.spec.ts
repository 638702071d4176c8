import { encodeScaleBarcode, type ScaleLayout } from '@depot/contracts';
import { CASHIER } from './playwright.config.ts';
import {
  adminApi,
  expect,
  type Lang,
  mainStore,
  newContext,
  prefix,
  scan,
  signIn,
  snap,
  stockInMain,
  test,
} from './support.ts';

/**
 * Weighed goods at the till with no connection (issue 28). The store's label scale prints the
 * price: "28 CCCCC PPPPP K", $3.75 of pork at $2.50 a kilogram. The till opens online (its
 * catalogue and the layouts kept on the device), the connection drops, the label is scanned: a
 * line of 1.500 kg at $3.75. The sale is kept and, back online, sent: the shelf has 1,500 g less.
 */

const run = Date.now().toString(36).slice(-5);
const PRICE_LABEL: ScaleLayout = { prefix: '28', code_length: 5, value_length: 5, decimals: 2, kind: 'price' };

for (const lang of ['en', 'kh'] as Lang[]) {
  test(`a price label from the scale, scanned offline, sells the weight it paid for in ${lang}`, async ({
    browser,
    request,
  }) => {
    test.setTimeout(150_000);
    const tag = `${run}${lang}`;
    const api = await adminApi(request);
    await api.put('scale/settings', { layouts: [PRICE_LABEL] });
    const category = await api.post('categories', { name_en: `Butcher ${tag}`, name_kh: `សាច់ ${tag}` });
    const kg = await api.post('units', {
      name_en: `Kilogram ${tag}`,
      name_kh: `គីឡូក្រាម ${tag}`,
      short_name: `kg${tag}`.slice(0, 10),
      decimals: 3,
    });
    // the product's code on the scale: its barcode, five digits, one per run and language
    const code = String((Number.parseInt(run, 36) * 2 + (lang === 'en' ? 0 : 1)) % 100_000).padStart(5, '0');
    const pork = await api.post('products', {
      name_en: `Pork belly ${tag}`,
      name_kh: `សាច់ជ្រូកបីជាន់ ${tag}`,
      sku: `PORK-${tag}`,
      barcode: code,
      category_id: category.id,
      unit_id: kg.id,
      price_usd_cents: 250,
      cost_usd_cents: 150,
      taxable: false,
    });
    // 20 kg on the shelf, in grams
    await stockInMain(api, pork.id, 20_000, `e2e scale ${tag}`);
    const main = await mainStore(api);
    const stockNow = async () =>
      (await api.get<{ data: { stock?: number } }>(`products/${pork.id}?stock_store=${main?.id}`)).data.stock;

    const context = await newContext(browser, lang, lang === 'kh' ? 'dark' : 'light');
    const page = await context.newPage();
    await signIn(page, lang, CASHIER.name, CASHIER.password);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.goto(`${prefix(lang)}/pos`);
    // the catalogue on the device, the layouts read: then the connection drops
    await expect(page.getByTestId('pos-products')).toHaveAttribute('data-catalogue', 'local', { timeout: 30_000 });
    await expect.poll(() => page.evaluate(() => localStorage.getItem('depot.scale_layouts'))).toContain('"28"');
    await page.waitForLoadState('networkidle');
    await context.setOffline(true);
    await expect(page.getByTestId('connection')).toHaveAttribute('data-online', 'false');

    await scan(page, encodeScaleBarcode(PRICE_LABEL, code, 375));
    const line = page.getByTestId('cart-line-0');
    await expect(line).toContainText(`Pork belly ${tag}`);
    await expect(page.getByTestId('line-0-quantity')).toHaveValue('1.500');
    await expect(page.getByTestId('line-0-gross-usd')).toHaveText('$3.75');
    await expect(page.getByTestId('line-0-unit-price')).toHaveText('$2.50');
    await snap(page, `scale-till-offline-${lang}`);

    await page.getByTestId('pos-pay').click();
    await expect(page.getByTestId('tenders')).toBeVisible();
    await page.getByTestId('note-usd-5').click();
    await page.getByTestId('complete-sale').click();
    await expect(page.getByTestId('kept-unsynced')).toBeVisible();
    await page.getByTestId('new-sale').click();
    await expect(page.getByTestId('pos')).toBeVisible();

    await context.setOffline(false);
    await expect(page.getByTestId('queue-count')).toHaveCount(0, { timeout: 30_000 });
    expect(await stockNow()).toBe(20_000 - 1500);
    await context.close();
  });
}
