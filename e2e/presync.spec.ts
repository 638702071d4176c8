import { CASHIER } from './playwright.config.ts';
import { adminApi, ean13, expect, newContext, prefix, scan, signIn, snap, stockInMain, test } from './support.ts';

/**
 * A new device before its first sync (issue 34). A cashier signs in on a browser that has never
 * held the catalogue, and its sync is held back (the catalogue's requests refused): the till
 * searches on the server, and finds a product by its Khmer name as typed (the other subscript),
 * by its English name in another case, and by a scanned barcode, with the store's stock. Then the
 * sync is let through: the till has its catalogue on the device and finds the same product the
 * same ways, without the server.
 */

const run = Date.now().toString(36).slice(-5);

/** The requests of the first sync: the catalogue's changes (and a snapshot, where one is asked). */
const syncRequest = (address: URL) =>
  address.pathname === '/api/products/changes' || address.pathname.startsWith('/api/products/snapshot');

test('a new device finds a product by typing and by a scan before its catalogue has synced, and after', async ({
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  const api = await adminApi(request);
  await api.post('exchange-rates', { rate_khr: 4100, note: `e2e presync ${run}` });
  const category = await api.post('categories', { name_en: `Pantry ${run}`, name_kh: `ឃ្លាំង ${run}` });
  const unit = await api.post('units', { name_en: `Pack ${run}`, name_kh: `កញ្ចប់ ${run}`, short_name: `p${run}` });
  const barcode = ean13('20', `${run}5`);
  const crab = await api.post('products', {
    name_en: `Dried Crab ${run}`,
    // stored with the subscript ្ដ; typed below with ្ត
    name_kh: `ក្ដាមស្ងួត ${run}`,
    sku: `PRE-CRAB-${run}`,
    barcode,
    category_id: category.id,
    unit_id: unit.id,
    price_usd_cents: 300,
    cost_usd_cents: 100,
    taxable: false,
  });
  await stockInMain(api, crab.id, 10, `e2e presync ${run}`);

  // a new browser: nothing kept; the catalogue's sync refused until let through
  const context = await newContext(browser, 'kh', 'light', { serviceWorkers: 'block' });
  let held = 0;
  await context.route(syncRequest, (route) => {
    held += 1;
    return route.fulfill({ status: 503, json: { message: 'held back' } });
  });
  const page = await context.newPage();
  await signIn(page, 'kh', CASHIER.name, CASHIER.password);
  await page.goto(`${prefix('kh')}/pos`);
  await expect(page.getByTestId('pos-grid')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('pos-products')).toHaveAttribute('data-catalogue', 'server');
  expect(held).toBeGreaterThan(0);

  const search = page.getByTestId('pos-search');
  const tile = page.getByTestId(`tile-${crab.id}`);
  const firstTile = page.getByTestId('pos-grid').locator('[data-testid^="tile-"]').first();
  // Khmer as typed: ្ត for ្ដ, and the run's number: the product first, with its stock
  await search.pressSequentially(`ក្តាម ${run}`);
  await expect(firstTile).toHaveAttribute('data-testid', `tile-${crab.id}`);
  await expect(page.getByTestId(`tile-${crab.id}-stock`)).toContainText('10');
  await snap(page, 'presync-search-server');
  await tile.click();
  await expect(page.getByTestId('cart-line-0')).toBeVisible();
  // English, another case, the beginnings of its words
  await search.fill('');
  await search.pressSequentially(`DRIED cr ${run}`);
  await expect(firstTile).toHaveAttribute('data-testid', `tile-${crab.id}`);
  await search.fill('');
  // a scan: the barcode, found on the server
  await scan(page, barcode);
  await expect(page.getByTestId('cart-line-0').locator('.pos-qty input')).toHaveValue('2');
  await expect(page.getByTestId('pos-products')).toHaveAttribute('data-catalogue', 'server');

  // the sync let through: the till opened again has its catalogue on the device
  await context.unroute(syncRequest);
  await page.reload();
  await expect(page.getByTestId('pos-products')).toHaveAttribute('data-catalogue', 'local', { timeout: 30_000 });
  await expect(page.getByTestId('cart-line-0').locator('.pos-qty input')).toHaveValue('2');
  const asked: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/products/till') && r.url().includes('filter%5Bcode%5D')) asked.push(r.url());
  });
  await search.pressSequentially(`ក្តាម ${run}`);
  await expect(firstTile).toHaveAttribute('data-testid', `tile-${crab.id}`);
  await search.fill('');
  await search.pressSequentially(`DRIED cr ${run}`);
  await expect(firstTile).toHaveAttribute('data-testid', `tile-${crab.id}`);
  await search.fill('');
  await scan(page, barcode);
  await expect(page.getByTestId('cart-line-0').locator('.pos-qty input')).toHaveValue('3');
  // the scan was the device's own: no code asked of the server
  expect(asked).toEqual([]);
  await snap(page, 'presync-synced');
  await context.close();
});
