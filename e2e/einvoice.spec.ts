import { writeUbl } from '../apps/server/src/modules/einvoice/ubl.ts';
import { document, line } from '../apps/server/src/test/einvoices.ts';
import { FAKE_BUSINESS, type FakeCamInvoice, startFakeCamInvoice } from '../apps/server/src/test/fake-caminvoice.ts';
import { E2E_WEBHOOK_SECRET, OWN_CAMINVOICE_PORT } from './playwright.config.ts';
import {
  adminApi,
  expect,
  mainStore,
  newContext,
  setColorMode,
  signIn,
  snap,
  test,
  withSystemSettings,
} from './support.ts';

/**
 * An administrator connects the business to CamInvoice (a fake platform on this worker's port,
 * which approves at once), sees it connected in English and Khmer, light and dark; a supplier's
 * e-invoice arrives and is listed with its lines to match; then the business disconnects.
 */
let fake: FakeCamInvoice;
withSystemSettings({ vat_number: FAKE_BUSINESS.tin, store_address: 'Street 271, Phnom Penh' });
const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Phnom_Penh' }).format(new Date());

/** A registered buyer's paid sale, issued its tax invoice through the API: answers the invoice. */
async function taxInvoice(request: Parameters<typeof adminApi>[0]) {
  const api = await adminApi(request);
  const tag = Date.now().toString(36).slice(-5);
  const current = (await api.get<{ data: { rate_khr: number } }>('exchange-rates/current')).data;
  // a National Bank rate for today, unless a spec before this one entered it
  await api.post('official-rates', { kind: 'nbc_daily', date: today, rate_khr: current.rate_khr }).catch(() => null);
  const main = await mainStore(api);
  const category = await api.post('categories', { name_en: `Drinks ${tag}`, name_kh: `ភេសជ្ជៈ ${tag}` });
  const unit = await api.post('units', { name_en: `Can ${tag}`, name_kh: `កំប៉ុង ${tag}`, short_name: `e${tag}` });
  const beer = await api.post('products', {
    category_id: category.id,
    unit_id: unit.id,
    name_en: `Angkor beer ${tag}`,
    name_kh: `ស្រាបៀរអង្គរ ${tag}`,
    sku: `EINV-${tag}`,
    price_usd_cents: 125,
    taxable: true,
  });
  await api.post('stocks/adjustments', {
    store_id: main.id,
    reason: 'found',
    note: `e2e einvoice ${tag}`,
    items: [{ product_id: beer.id, quantity: 20 }],
  });
  const buyer = await api.post('customers', {
    name: `ហាងលក់ទំនិញ សុខា ${tag}`,
    phone: '012 345 678',
    address: 'Street 63, Phnom Penh',
    vat_number: 'K002-100200300',
  });
  const sale = await api.post('orders', {
    store_id: main.id,
    customer_id: buyer.id,
    items: [{ product_id: beer.id, quantity: 6 }],
    payments: [{ method: 'cash_usd', amount: 2000 }],
  });
  return api.post<{ id: number; number: string }>('tax-documents', { order_id: sale.id });
}

test.beforeAll(async () => {
  fake = await startFakeCamInvoice(OWN_CAMINVOICE_PORT);
});
test.afterAll(async () => {
  await fake?.close();
});

test('an administrator connects to CamInvoice and finds a supplier’s e-invoice', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const context = await newContext(browser, 'en');
  const page = await context.newPage();
  await signIn(page, 'en');
  await page.goto('/en/settings/caminvoice', { waitUntil: 'networkidle' });
  await expect(page.getByTestId('caminvoice-status')).toHaveText('Not connected');
  await snap(page, 'caminvoice-disconnected-en-light');

  // to CamInvoice and back: the fake approves at once
  await page.getByTestId('caminvoice-connect').click();
  await expect(page.getByTestId('caminvoice-result')).toContainText('Connected to CamInvoice as ដេប៉ូ ភ្នំពេញ.');
  await expect(page).toHaveURL(/\/en\/settings\/caminvoice$/);
  await expect(page.getByTestId('caminvoice-status')).toHaveText('Connected');
  await expect(page.getByTestId('caminvoice-webhook')).toContainText(`/api/caminvoice/webhook/${E2E_WEBHOOK_SECRET}`);
  await snap(page, 'caminvoice-connected-en-light');

  // a supplier's e-invoice, told by the webhook
  const sent = fake.receive(
    writeUbl({
      ...document('invoice', 'SUP-2026-0042', [
        line({ description: 'Angkor Beer 330ml', sku: 'NOT-HERE', barcode: null, quantity: 24 }),
        line({ description: 'ទឹកសុទ្ធ 500ml', sku: 'NOR-THIS', barcode: null, quantity: 12, unit_price: 35 }),
      ]),
      seller: { name: 'Mekong Drinks Co.', address: 'Kandal', tin: 'K003-300300300', endpoint_id: 'KHUID00009999' },
    }),
    { name: 'Mekong Drinks Co.', tin: 'K003-300300300', endpoint: 'KHUID00009999' },
  );
  const told = await page.request.post(`/api/caminvoice/webhook/${E2E_WEBHOOK_SECRET}`, {
    data: { type: 'DOCUMENT.RECEIVED', document_id: sent.id },
  });
  expect(await told.json()).toEqual({ result: 'done' });
  await page.goto('/en/einvoices/received', { waitUntil: 'networkidle' });
  await expect(page.getByTestId('received-list')).toContainText('SUP-2026-0042');
  await expect(page.getByTestId('received-list')).toContainText('2 of 2 to match');
  await snap(page, 'einvoices-received-en-light');
  await page.getByRole('button', { name: 'Make a draft purchase' }).first().click();
  await expect(page.getByText('Not matched: choose a product or leave it out').first()).toBeVisible();
  await snap(page, 'einvoices-received-lines-en-light');

  // a tax invoice to a registered buyer is cleared (the outbox runs every 5 s) and prints its QR
  const invoice = await taxInvoice(request);
  await expect
    .poll(async () => fake.documents.find((d) => d.number === invoice.number)?.status, { timeout: 30_000 })
    .toBe('VALID');
  await page.goto('/en/tax-documents', { waitUntil: 'networkidle' });
  await page.getByRole('button', { name: invoice.number }).click();
  await expect(page.getByTestId(`einvoice-status-invoice-${invoice.id}`).first()).toHaveText('CamInvoice: valid');
  const qr = page.getByTestId('tax-document').getByTestId('einvoice-qr');
  await expect(qr).toHaveAttribute('data-payload', /\/verify\//);
  await snap(page, 'tax-invoice-einvoice-qr-en-light');
  await context.close();

  // in Khmer and dark, on a phone
  const khmer = await newContext(browser, 'kh', 'dark');
  const kh = await khmer.newPage();
  await kh.setViewportSize({ width: 390, height: 844 });
  await signIn(kh, 'kh');
  await setColorMode(kh, 'dark');
  await kh.goto('/settings/caminvoice', { waitUntil: 'networkidle' });
  await expect(kh.getByTestId('caminvoice-status')).toHaveText('បានភ្ជាប់');
  // the narrow layout's menu may have popped its group open: click the page to close it
  await kh.getByRole('heading', { level: 2 }).click();
  await snap(kh, 'caminvoice-connected-kh-dark-phone');
  await kh.goto('/einvoices/received', { waitUntil: 'networkidle' });
  await expect(kh.getByTestId('received-list')).toContainText('SUP-2026-0042');
  await kh.getByRole('heading', { level: 2 }).click();
  await snap(kh, 'einvoices-received-kh-dark-phone');

  // disconnect: the next specs find Depot as it was
  await kh.goto('/settings/caminvoice', { waitUntil: 'networkidle' });
  await kh.getByTestId('caminvoice-disconnect').click();
  await kh.locator('.ant-popconfirm').getByRole('button', { name: 'ផ្ដាច់' }).click();
  await expect(kh.getByTestId('caminvoice-status')).toHaveText('មិនទាន់ភ្ជាប់');
  await khmer.close();
});
