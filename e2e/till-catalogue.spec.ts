import { CASHIER } from './playwright.config.ts';
import { adminApi, ean13, expect, newContext, prefix, scan, signIn, snap, stockInMain, test } from './support.ts';

/**
 * The till's catalogue on the device (issue 13). Opened online, the till keeps the products in
 * IndexedDB; with no connection and after a reload it finds a product by a search typed in Khmer
 * (with the other subscript and a zero-width space) and in English, and by a scanned barcode,
 * none of them ever asked of the server (the service worker has no answer kept for them), and
 * sells it: the sale is kept on the device, then sent once the connection returns.
 */

const run = Date.now().toString(36).slice(-5);

test('offline, after a reload, the till finds a product in its local catalogue by Khmer, English and a scan, and sells it', async ({
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  const api = await adminApi(request);
  await api.post('exchange-rates', { rate_khr: 4100, note: `e2e catalogue ${run}` });
  const category = await api.post('categories', { name_en: `Sea ${run}`, name_kh: `សមុទ្រ ${run}` });
  const unit = await api.post('units', { name_en: `Kilo ${run}`, name_kh: `គីឡូ ${run}`, short_name: `k${run}` });
  const barcode = ean13('21', `${run}3`);
  const crab = await api.post('products', {
    name_en: `Blue Crab ${run}`,
    // stored with the subscript ្ដ
    name_kh: `ក្ដាមខៀវ ${run}`,
    sku: `CRAB-${run}`,
    barcode,
    category_id: category.id,
    unit_id: unit.id,
    price_usd_cents: 250,
    cost_usd_cents: 100,
    taxable: false,
  });
  await stockInMain(api, crab.id, 10, `e2e catalogue ${run}`);
  const ordersNow = async () => (await api.get<{ meta: { total: number } }>('orders?per_page=10')).meta.total;
  const before = await ordersNow();

  const context = await newContext(browser, 'kh');
  const page = await context.newPage();
  await signIn(page, 'kh', CASHIER.name, CASHIER.password);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.goto(`${prefix('kh')}/pos`);
  // the first sync done: the till searches on the device
  await expect(page.getByTestId('pos-products')).toHaveAttribute('data-catalogue', 'local', { timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByTestId('pos')).toBeVisible();
  await expect(page.getByTestId('pos-products')).toHaveAttribute('data-catalogue', 'local');

  const search = page.getByTestId('pos-search');
  // Khmer as typed: ្ត for ្ដ, a zero-width space inside
  await search.fill(`ក្តាម\u200Bខៀវ ${run}`);
  await expect(page.getByTestId(`tile-${crab.id}`)).toBeVisible();
  await page.getByTestId(`tile-${crab.id}`).click();
  await expect(page.getByTestId('cart-line-0')).toBeVisible();
  // English in another case, by the beginnings of its words
  await search.fill(`BLUE cr ${run}`);
  await expect(page.getByTestId(`tile-${crab.id}`)).toBeVisible();
  await snap(page, 'till-catalogue-offline-search');
  await search.fill('');
  // a scan: the barcode from the local catalogue's code index
  await scan(page, barcode);
  await expect(page.getByTestId('cart-line-0').locator('.pos-qty input')).toHaveValue('2');

  await page.getByTestId('pos-pay').click();
  await expect(page.getByTestId('tenders')).toBeVisible();
  await page.getByTestId('note-usd-5').click();
  await page.getByTestId('complete-sale').click();
  await expect(page.getByTestId('kept-unsynced')).toBeVisible();
  await page.getByTestId('new-sale').click();
  await expect(page.getByTestId('pos')).toBeVisible();
  expect(await ordersNow()).toBe(before);

  await context.setOffline(false);
  await expect(page.getByTestId('queue-count')).toHaveCount(0, { timeout: 30_000 });
  expect(await ordersNow()).toBe(before + 1);
  await context.close();
});
