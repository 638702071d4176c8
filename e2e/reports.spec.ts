import { CASHIER } from './playwright.config.ts';
import {
  adminApi,
  expect,
  type Lang,
  mainStore,
  newContext,
  prefix,
  setColorMode,
  signIn,
  snap,
  test,
} from './support.ts';

/**
 * The owner's morning: a few sales (one in riel, one returned in part) made through the API, then
 * the dashboard, whose net sales tile opens the sales report; the four reports in Khmer and English,
 * light and dark, their charts drawn in the bundled Khmer font, Excel and PDF exported; and the
 * cashier's dashboard, which shows only their own sales of today and no cost.
 */
const run = Date.now().toString(36).slice(-5);
const KHMER = /[\u1780-\u17FF]/;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  const api = await adminApi(request);
  const category = await api.post('categories', { name_en: `Snacks ${run}`, name_kh: `នំចំណី ${run}` });
  const unit = await api.post('units', { name_en: `Bag ${run}`, name_kh: `ថង់ ${run}`, short_name: `b${run}` });
  const product = await api.post('products', {
    name_en: `Rice crackers ${run}`,
    name_kh: `នំអង្ករ ${run}`,
    sku: `RC-${run}`,
    category_id: category.id,
    unit_id: unit.id,
    price_usd_cents: 250,
    taxable: true,
  });
  // the store the admin sells in (other stories add stores, listed before it by name)
  const main = await mainStore(api);
  await api.post('stocks/adjustments', {
    store_id: main.id,
    reason: 'found',
    items: [{ product_id: product.id, quantity: 100 }],
  });
  const customers = await api.get<{ data: { id: number; is_walk_in: boolean }[] }>('customers?per_page=10');
  const walkIn = customers.data.find((c) => c.is_walk_in)?.id;
  const sale = await api.post<{ id: number; items: { id: number }[] }>('orders', {
    customer_id: walkIn,
    items: [{ product_id: product.id, quantity: 4 }],
    payments: [{ method: 'cash_khr', amount: 50_000 }],
  });
  await api.post('orders', {
    customer_id: walkIn,
    items: [{ product_id: product.id, quantity: 2 }],
    payments: [{ method: 'cash_usd', amount: 1000 }],
  });
  await api.post(`orders/${sale.id}/returns`, {
    items: [{ order_item_id: sale.items[0].id, quantity: 1 }],
    refund_method: 'cash_usd',
  });
});

for (const lang of ['kh', 'en'] as Lang[]) {
  test(`the manager's dashboard opens the sales report, ${lang}`, async ({ browser }) => {
    const context = await newContext(browser, lang);
    const page = await context.newPage();
    await signIn(page, lang);
    const net = page.getByTestId('dashboard-today').getByTestId('figure-net_cents');
    await expect(net).toContainText(lang === 'kh' ? 'ការលក់សុទ្ធ' : 'Net sales');
    await expect(page.getByTestId('dashboard-hours').locator('svg')).toBeVisible();
    await expect(page.getByTestId('section-top_products')).toContainText(
      lang === 'kh' ? `នំអង្ករ ${run}` : `Rice crackers ${run}`,
    );
    await snap(page, `reports-dashboard-${lang}-light`);
    await setColorMode(page, 'dark');
    await snap(page, `reports-dashboard-${lang}-dark`);
    await setColorMode(page, 'light');

    await net.click();
    await expect(page).toHaveURL(new RegExp(`${prefix(lang)}/reports/sales\\?from=`));
    await expect(page.getByTestId('section-by_product')).toContainText(
      lang === 'kh' ? `នំអង្ករ ${run}` : `Rice crackers ${run}`,
    );
    // the chart's text is drawn in the page's font: Khmer labels in the SVG, shaped by the bundled font
    const chart = page.getByTestId('report-chart').locator('svg');
    await expect(chart).toBeVisible();
    if (lang === 'kh') {
      await expect(chart).toContainText(KHMER);
      const family = await chart
        .locator('text')
        .first()
        .evaluate((el) => getComputedStyle(el).fontFamily);
      expect(family).toContain('Kantumruy Pro');
    }
    await snap(page, `reports-sales-${lang}-light`);
    await setColorMode(page, 'dark');
    await snap(page, `reports-sales-${lang}-dark`);
    await setColorMode(page, 'light');
    await context.close();
  });
}

test('every report in Khmer, exported to Excel and PDF', async ({ browser }) => {
  test.setTimeout(180_000);
  const context = await newContext(browser, 'kh');
  const page = await context.newPage();
  await signIn(page, 'kh');
  for (const name of ['sales', 'financial', 'inventory', 'customer']) {
    await page.goto(`/reports/${name}`);
    await expect(page.getByTestId(`report-${name}`)).toBeVisible();
    await expect(
      page.getByTestId(`figure-${name === 'inventory' ? 'on_hand' : name === 'customer' ? 'customers' : 'net_cents'}`),
    ).toBeVisible();
    await expect(page.getByTestId('report-chart').locator('svg')).toBeVisible();
    await snap(page, `reports-${name}-kh`);
  }
  await page.goto('/reports/sales');
  await page.getByTestId('report-group').getByText('ខែ').click();
  await expect(page).toHaveURL(/group=month/);

  const excel = page.waitForEvent('download');
  await page.getByRole('button', { name: /Excel/ }).click();
  expect((await excel).suggestedFilename()).toMatch(/^sales-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.xlsx$/);
  const pdf = page.waitForEvent('download');
  await page.getByRole('button', { name: /PDF/ }).click();
  const file = await pdf;
  expect(file.suggestedFilename()).toMatch(/\.pdf$/);
  const bytes = await (await import('node:fs')).promises.readFile((await file.path()) as string);
  expect(bytes.subarray(0, 4).toString()).toBe('%PDF');
  await (await import('node:fs')).promises.writeFile('e2e/screenshots/reports-sales-kh.pdf', bytes);
  await context.close();
});

test("a cashier's dashboard: their own sales of today, no cost, no reports", async ({ browser }) => {
  const context = await newContext(browser, 'kh');
  const page = await context.newPage();
  await signIn(page, 'kh', CASHIER.name, CASHIER.password);
  await expect(page.getByText('បង្ហាញតែការលក់របស់អ្នកផ្ទាល់ក្នុងថ្ងៃនេះប៉ុណ្ណោះ។')).toBeVisible();
  await expect(page.getByTestId('figure-net_cents')).toBeVisible();
  await expect(page.getByTestId('figure-profit_cents')).toHaveCount(0);
  await expect(page.getByTestId('dashboard-week')).toHaveCount(0);
  await expect(page.getByTestId('menu-/reports/sales')).toHaveCount(0);
  await snap(page, 'reports-dashboard-cashier-kh');
  await context.close();
});
