import { CASHIER } from './playwright.config.ts';
import { adminApi, ean13, expect, scan, signIn, snap, stockInMain, test } from './support.ts';

/**
 * A new till's first sync (issue 34): the catalogue comes as one snapshot (`GET
 * /api/products/snapshot`), written on the device by the catalogue worker, then the changes after
 * its cursor. A product renamed after the snapshot was built (here: while it is on its way) still
 * reaches the till: with no connection the till finds it by its new name and not its old one, and
 * a scan of its barcode adds it. The service worker is blocked so the routes see every request.
 */

const run = Date.now().toString(36).slice(-5);

test('a new till syncs from one snapshot, then the changes after it, and loses no change made meanwhile', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const api = await adminApi(request);
  const category = await api.post('categories', { name_en: `Herbs ${run}`, name_kh: `ជីរ ${run}` });
  const unit = await api.post('units', { name_en: `Bunch ${run}`, name_kh: `បាច់ ${run}`, short_name: `bn${run}` });
  const barcode = ean13('21', `${run}5`);
  const fields = {
    name_en: `Mint ${run}`,
    name_kh: `ជីអង្កាម ${run}`,
    sku: `HERB-${run}`,
    barcode,
    category_id: category.id,
    unit_id: unit.id,
    price_usd_cents: 75,
    cost_usd_cents: 30,
    taxable: false,
  };
  const mint = await api.post('products', fields);
  await stockInMain(api, mint.id, 10, `e2e first sync ${run}`);

  const context = await browser.newContext({
    locale: 'en-US',
    viewport: { width: 1280, height: 800 },
    serviceWorkers: 'block',
  });
  const asked: string[] = [];
  context.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith('/api/products')) asked.push(`${url.pathname}${url.search}`);
  });
  // the snapshot is built, then the product renamed before the till has it
  await context.route('**/api/products/snapshot', async (route) => {
    const response = await route.fetch();
    const body = await response.body();
    await api.put(`products/${mint.id}`, { ...fields, name_en: `Galangal ${run}` });
    await route.fulfill({ status: response.status(), contentType: 'application/json', body });
  });
  const page = await context.newPage();
  // the changes are read once the snapshot is written (the till searches it before)
  const changesRead = page.waitForResponse((r) => r.url().includes('/api/products/changes'), { timeout: 90_000 });
  // a cashier lands on the till: its first sync starts there
  await signIn(page, 'en', CASHIER.name, CASHIER.password);
  await page.goto('/en/pos');
  await expect(page.getByTestId('pos-products')).toHaveAttribute('data-catalogue', 'local', { timeout: 60_000 });
  await changesRead;

  // one snapshot, then the changes from its cursor: never the whole catalogue again page by page
  expect(asked.filter((a) => a === '/api/products/snapshot')).toHaveLength(1);
  const changes = asked.filter((a) => a.startsWith('/api/products/changes'));
  expect(changes.length).toBeGreaterThan(0);
  for (const one of changes) expect(one).toContain('after=');

  // the rename arrived (the index rebuilt with it); then with no connection the old name is gone,
  // and the barcode scans
  const search = page.getByTestId('pos-search');
  await search.fill(`galangal ${run}`);
  await expect(page.getByTestId(`tile-${mint.id}`)).toContainText(`Galangal ${run}`, { timeout: 30_000 });
  await context.setOffline(true);
  await search.fill('');
  await search.fill(`galangal ${run}`);
  await expect(page.getByTestId(`tile-${mint.id}`)).toContainText(`Galangal ${run}`);
  await snap(page, 'first-sync-renamed-offline');
  await search.fill(`Mint ${run}`);
  await expect(page.getByTestId(`tile-${mint.id}`)).toHaveCount(0);
  await search.fill('');
  await scan(page, barcode);
  await expect(page.getByTestId('cart-line-0')).toContainText(`Galangal ${run}`);
  await context.close();
});
