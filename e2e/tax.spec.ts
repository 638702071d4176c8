import {
  adminApi,
  expect,
  type Lang,
  type Mode,
  mainStore,
  newContext,
  prefix,
  shotOf,
  signIn,
  snap,
  test,
  toast,
  withSystemSettings,
} from './support.ts';

/**
 * Tax documents (issue 27 §1), as a depot's cashier and accountant meet them: a sale to a
 * VAT-registered buyer is issued a tax invoice whose riel total is at the National Bank's rate
 * (the sale's own rate is below it), the rate and its source printed; a return of part of it makes
 * a credit note that references the invoice and is listed under it; a manager adds a debit note.
 */
const run = Date.now().toString(36).slice(-5);
const SELLER = {
  vat_number: 'K009-123456789',
  store_address: 'ផ្លូវ ២០០៤ សែនសុខ ភ្នំពេញ · Street 2004, Sen Sok, Phnom Penh',
};
withSystemSettings(SELLER);

const says = {
  kh: {
    issue: 'ចេញវិក្កយបត្រអាករ',
    title: 'វិក្កយបត្រអាករ',
    source: 'ធនាគារជាតិ',
    credit: 'កំណត់ត្រាឥណទាន',
  },
  en: { issue: 'Issue tax invoice', title: 'Tax invoice', source: 'National Bank', credit: 'Credit note' },
};

/** The day in Cambodia, as the server dates a rate. */
const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Phnom_Penh' }).format(new Date());
/** Riel of cents at a rate, half up to the riel (the invoice's rule, written again here to check it). */
const riel = (cents: number, rate: number) => Math.floor((cents * rate + 50) / 100);
const grouped = (n: number) => `${n.toLocaleString('en-US')}៛`;

let nbc = 0;
let policyBefore: Record<string, unknown> | undefined;

test.beforeAll(async ({ request }) => {
  const api = await adminApi(request);
  const sale = (await api.get<{ data: Record<string, unknown> }>('settings/sale')).data;
  policyBefore = sale;
  await api.put('settings/sale', { ...sale, tax_rate_policy: 'market' });
  // the National Bank's rate of the day, above the sale's: the invoice must use it
  const current = (await api.get<{ data: { rate_khr: number } }>('exchange-rates/current')).data;
  nbc = current.rate_khr + 37;
  await api.post('official-rates', { kind: 'nbc_daily', date: today, rate_khr: nbc });
});
test.afterAll(async ({ request }) => {
  if (policyBefore) await (await adminApi(request)).put('settings/sale', policyBefore);
});

interface Sale {
  id: number;
  number: string;
  total_cents: number;
  items: { id: number; sku: string | null; quantity: number }[];
}

async function registeredSale(request: Parameters<typeof adminApi>[0], tag: string): Promise<Sale> {
  const api = await adminApi(request);
  const main = await mainStore(api);
  const category = await api.post('categories', { name_en: `Drinks ${tag}`, name_kh: `ភេសជ្ជៈ ${tag}` });
  const unit = await api.post('units', { name_en: `Can ${tag}`, name_kh: `កំប៉ុង ${tag}`, short_name: `c${tag}` });
  const base = { category_id: category.id, unit_id: unit.id };
  const beer = await api.post('products', {
    ...base,
    name_en: `Angkor beer ${tag}`,
    name_kh: `ស្រាបៀរអង្គរ ${tag}`,
    sku: `TAXB-${tag}`,
    price_usd_cents: 125,
    taxable: true,
  });
  const rice = await api.post('products', {
    ...base,
    name_en: `Jasmine rice 25 kg ${tag}`,
    name_kh: `អង្ករផ្កាម្លិះ ២៥ គីឡូ ${tag}`,
    sku: `TAXR-${tag}`,
    price_usd_cents: 1000,
    taxable: false,
  });
  await api.post('stocks/adjustments', {
    store_id: main.id,
    reason: 'found',
    note: `e2e tax ${tag}`,
    items: [
      { product_id: beer.id, quantity: 50 },
      { product_id: rice.id, quantity: 50 },
    ],
  });
  const buyer = await api.post('customers', {
    name: `ក្រុមហ៊ុន សុខា ពាណិជ្ជកម្ម ${tag} Co., Ltd.`,
    phone: '012 345 678',
    address: 'ផ្ទះលេខ ១២ ផ្លូវ ២៧១ ភ្នំពេញ · No. 12, Street 271, Phnom Penh',
    vat_number: 'K001-901234567',
  });
  return api.post<Sale>('orders', {
    store_id: main.id,
    customer_id: buyer.id,
    items: [
      { product_id: beer.id, quantity: 3 },
      { product_id: rice.id, quantity: 1 },
    ],
    payments: [{ method: 'cash_usd', amount: 2000 }],
  });
}

for (const lang of ['kh', 'en'] as Lang[]) {
  test(`a registered buyer's sale becomes a tax invoice, a return its credit note, ${lang}`, async ({
    browser,
    request,
  }) => {
    test.setTimeout(150_000);
    const text = says[lang];
    const tag = `${run}${lang}`;
    const sale = await registeredSale(request, tag);
    const beerItem = sale.items.find((i) => i.sku === `TAXB-${tag}`);
    if (!beerItem) throw new Error('no beer line');

    // tall and sharp enough to read a whole A4 sheet in its screenshot
    const context = await browser.newContext({
      locale: lang === 'kh' ? 'km-KH' : 'en-US',
      viewport: { width: 1280, height: 1500 },
      deviceScaleFactor: 2,
    });
    const page = await context.newPage();
    await signIn(page, lang);
    await page.goto(`${prefix(lang)}/orders?view=${sale.id}`);
    await expect(page.getByTestId('order-details')).toBeVisible();
    const issue = page.getByTestId('issue-tax-document');
    await expect(issue).toHaveText(text.issue);
    await issue.click();

    // the invoice as issued: the riel total at the NBC's rate, the rate and its source printed
    const sheet = page.getByTestId('tax-document');
    await expect(sheet).toBeVisible();
    await expect(sheet).toContainText(says.kh.title);
    await expect(sheet).toContainText(says.en.title);
    await expect(sheet.getByTestId('seller-tin')).toHaveText(SELLER.vat_number);
    await expect(sheet.getByTestId('buyer-tin')).toHaveText('K001-901234567');
    await expect(sheet.getByTestId('document-total-khr')).toHaveText(grouped(riel(sale.total_cents, nbc)));
    await expect(sheet.getByTestId('document-rate')).toContainText(grouped(nbc));
    await expect(sheet).toContainText(`${says.kh.source} ${today}`);
    await expect(sheet).toContainText(`${says.en.source}, ${today}`);
    // each tax on its own line: VAT on the beer only, the rice exempt
    await expect(sheet.getByTestId('document-vat')).toHaveCount(1);
    const number = (await sheet.getByTestId('document-number').textContent()) ?? '';
    expect(number).toMatch(/^TI-MAIN-\d{4}-\d{6}$/);
    await shotOf(sheet, `tax-invoice-a4-${lang}`);
    await page.keyboard.press('Escape');
    await expect(sheet).toBeHidden();

    // a return of one can: its credit note references the invoice, and is listed under it
    await page.getByTestId('order-return').click();
    const form = page.getByTestId('return-form');
    await form.getByTestId(`return-${beerItem.id}`).fill('1');
    await page.locator('.ant-modal').filter({ has: form }).locator('.ant-modal-footer .ant-btn-primary').click();
    await expect(form).toBeHidden({ timeout: 20_000 });
    await page.getByTestId('open-tax-document').click();
    const notes = page.getByTestId('document-notes');
    await expect(notes).toBeVisible();
    const note = notes.getByTestId('note-link');
    await expect(note).toHaveCount(1);
    await expect(note).toContainText(text.credit);
    await note.click();
    await expect(sheet.getByTestId('original-number')).toContainText(number);
    await expect(sheet.getByTestId('document-rate')).toContainText(grouped(nbc));
    await expect(sheet.getByTestId('document-number')).toHaveText(/^CN-MAIN-/);
    await shotOf(sheet, `tax-credit-note-a4-${lang}`);
    await context.close();
  });
}

test('a manager adds a debit note to an invoice, listed under it', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const tag = `${run}db`;
  const sale = await registeredSale(request, tag);
  const api = await adminApi(request);
  const invoice = await api.post<{ id: number; number: string; rate_khr: number }>('tax-documents', {
    order_id: sale.id,
  });
  const context = await newContext(browser, 'en');
  const page = await context.newPage();
  await signIn(page, 'en');
  await page.goto('/en/tax-documents');
  await page.getByTestId('document-link').filter({ hasText: invoice.number }).click();
  await page.getByTestId('debit-note').click();
  const form = page.getByTestId('debit-form');
  await page.getByTestId('debit-submit').click();
  // nothing typed: the shared schema names the fields, nothing is sent
  await expect(form.locator('.ant-form-item-explain-error').first()).toBeVisible();
  await page.getByTestId('debit-reason').fill('Price list error: beer was $1.25, is $1.35');
  await form.getByTestId('debit-description').fill('Angkor beer, price correction');
  await form.getByTestId('debit-quantity').fill('3');
  await form.getByTestId('debit-price').fill('0.10');
  // 3 × $0.10 + VAT 10 % = $0.33
  await expect(page.getByTestId('debit-preview')).toContainText('$0.33');
  await page.getByTestId('debit-submit').click();
  await toast(page, 'Debit note');
  const sheet = page.getByTestId('tax-document');
  await expect(sheet.getByTestId('document-number')).toHaveText(/^DN-MAIN-/);
  await expect(sheet.getByTestId('original-number')).toContainText(invoice.number);
  await expect(sheet.getByTestId('document-rate')).toContainText(grouped(invoice.rate_khr));
  await context.close();
});

const phones: [Lang, Mode][] = [
  ['kh', 'light'],
  ['en', 'dark'],
];
for (const [lang, mode] of phones) {
  test(`the tax documents list on a phone, ${lang}, ${mode}`, async ({ browser }) => {
    const context = await browser.newContext({
      locale: lang === 'kh' ? 'km-KH' : 'en-US',
      colorScheme: mode,
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    await signIn(page, lang);
    await page.goto(`${prefix(lang)}/tax-documents`, { waitUntil: 'networkidle' });
    await expect(page.getByTestId('document-link').first()).toBeVisible();
    // nothing wider than the phone but the table, which scrolls in its own box
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await snap(page, `tax-documents-phone-${lang}-${mode}`, { quiet: true });
    await page.getByTestId('document-link').first().click();
    await expect(page.getByTestId('tax-document')).toBeVisible();
    await snap(page, `tax-document-phone-${lang}-${mode}`);
    await context.close();
  });
}
