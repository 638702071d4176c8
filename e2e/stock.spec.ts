import type { Locator, Page } from '@playwright/test';
import {
  adminApi,
  confirm,
  confirmation,
  expect,
  type Lang,
  type Made,
  mainStore,
  newContext,
  pick,
  prefix,
  setColorMode,
  signIn,
  snap,
  test,
  toast,
} from './support.ts';

/**
 * A stock keeper's month: a purchase reviewed and confirmed, received in two deliveries and half
 * paid; a transfer to a second store; a count; damage that brings the second store under its
 * reorder level; an expired batch written off. What is not the story (the catalogue, the supplier,
 * the second store, the expired batch) is made through the API.
 */

/** The database is shared by every spec of a run: every name this spec creates is its own. */
const run = Date.now().toString(36).slice(-5);

const MAIN_STORE = 'Main store';

const says = {
  kh: {
    purchaseCreated: 'បានបង្កើតការទិញដោយជោគជ័យ។',
    goodsReceived: 'បានទទួលទំនិញចូលស្តុក។',
    paymentRecorded: 'បានកត់ត្រាការបង់ប្រាក់។',
    transferCreated: 'បានបង្កើតការផ្ទេរស្តុកដោយជោគជ័យ។',
    transferSent: 'បានផ្ញើការផ្ទេរ៖ ស្តុកបានចេញពីហាងហើយ។',
    transferReceived: 'បានទទួលការផ្ទេរ៖ ស្តុកបានចូលហាងហើយ។',
    adjusted: 'បានកែតម្រូវស្តុកដោយជោគជ័យ។',
    writtenOff: 'បានកាត់ឡូតផុតកំណត់ចេញពីស្តុក។',
    ordered: 'បានបញ្ជាទិញ',
    partlyReceived: 'បានទទួលខ្លះ',
    received: 'បានទទួលគ្រប់',
    unpaid: 'មិនទាន់បង់',
    partlyPaid: 'បានបង់ខ្លះ',
    receiveGoods: 'ទទួលទំនិញ',
    recordPayment: 'កត់ត្រាការបង់ប្រាក់',
    save: 'រក្សាទុក',
    send: 'ផ្ញើ',
    receive: 'ទទួល',
    draft: 'សេចក្ដីព្រាង',
    sent: 'បានផ្ញើ',
    transferDone: 'បានទទួល',
    lotOf1: 'ឡូត ជួរទី 1',
    expiryOf1: 'ថ្ងៃផុតកំណត់ ជួរទី 1',
    quantityOf1: 'បរិមាណ ជួរទី 1',
    count: 'រាប់ស្តុក',
    damage: 'ខូចខាត',
    adjustment: 'កែតម្រូវ',
    lowTag: 'ស្តុកជិតអស់៖ បញ្ជាទិញនៅ 20',
    writeOff: 'កាត់ចេញពីស្តុក',
    expiredAgo: 'ផុតកំណត់ 10 ថ្ងៃមុន',
    noneExpired: 'គ្មានស្តុកផុតកំណត់ទេ',
    worth: 'ដែលមានតម្លៃ',
  },
  en: {
    purchaseCreated: 'Purchase created.',
    goodsReceived: 'Goods received into stock.',
    paymentRecorded: 'Payment recorded.',
    transferCreated: 'Transfer created.',
    transferSent: 'Transfer sent: the stock has left the store.',
    transferReceived: 'Transfer received: the stock is in the store.',
    adjusted: 'Stock adjusted.',
    writtenOff: 'Expired batch written off.',
    ordered: 'Ordered',
    partlyReceived: 'Partly received',
    received: 'Received',
    unpaid: 'Unpaid',
    partlyPaid: 'Partly paid',
    receiveGoods: 'Receive goods',
    recordPayment: 'Record payment',
    save: 'Save',
    send: 'Send',
    receive: 'Receive',
    draft: 'Draft',
    sent: 'Sent',
    transferDone: 'Received',
    lotOf1: 'Lot, line 1',
    expiryOf1: 'Expiry date, line 1',
    quantityOf1: 'Quantity, line 1',
    count: 'Count',
    damage: 'Damaged',
    adjustment: 'Adjustment',
    lowTag: 'Low: reorder at 20',
    writeOff: 'Write off',
    expiredAgo: 'expired 10 d ago',
    noneExpired: 'No expired stock',
    worth: 'worth',
  },
} as const;

/** A calendar date in Cambodia (UTC+7, no daylight saving), `days` from today. */
function cambodianDate(days: number): string {
  return new Date(Date.now() + 7 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10);
}

const MONTHS = {
  kh: ['មករា', 'កុម្ភៈ', 'មីនា', 'មេសា', 'ឧសភា', 'មិថុនា', 'កក្កដា', 'សីហា', 'កញ្ញា', 'តុលា', 'វិច្ឆិកា', 'ធ្នូ'],
  en: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
};

/** 2026-03-12 as a screen shows it (12 មីនា 2026) and as a date field takes it (12/03/2026). */
function shownDate(day: string, lang: Lang): string {
  const [y, m, d] = day.split('-').map(Number);
  return `${d} ${MONTHS[lang][m - 1]} ${y}`;
}
const typedDate = (day: string) => day.split('-').reverse().join('/');

/** The switch's tooltip follows the pointer: move away and let it go before a screenshot. */
async function colorMode(page: Page, mode: 'light' | 'dark'): Promise<void> {
  await setColorMode(page, mode);
  await page.mouse.move(640, 790);
  await expect(page.locator('.ant-tooltip:not(.ant-tooltip-hidden)')).toHaveCount(0);
  if (mode === 'dark') await expect(page.locator('html')).toHaveClass(/p-dark/);
  else await expect(page.locator('html')).not.toHaveClass(/p-dark/);
}

/** The modal holding `testId` (a closing one may linger during its fade). */
const modal = (page: Page, testId: string) => page.locator('.ant-modal', { has: page.getByTestId(testId) });

/** A date typed into an antd DatePicker, as a keyboard user does. */
async function typeDate(page: Page, input: Locator, date: string): Promise<void> {
  await input.click();
  await input.fill(date);
  await input.press('Enter');
  await expect(input).toHaveValue(date);
  await expect(page.locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)')).toHaveCount(0);
}

for (const lang of ['kh', 'en'] as Lang[]) {
  test(`stock: purchase, receipts, payment, transfer, count, low stock and write-off in ${lang}`, async ({
    browser,
    request,
  }) => {
    // seven documents in a row: 1.8-2.0 minutes with both workers on the 2-core machines here
    test.setTimeout(240_000);
    const text = says[lang];
    const tag = `${run}${lang}`;
    const shown = (names: { en: string; kh: string }) => names[lang];

    // What the story stands on, through the API.
    const api = await adminApi(request);
    const main = await mainStore(api);
    const category = await api.post('categories', { name_en: `Rice ${tag}`, name_kh: `អង្ករ ${tag}` });
    const bag = { en: `Bag ${tag}`, kh: `បាវ ${tag}` };
    const unit = await api.post('units', { name_en: bag.en, name_kh: bag.kh, short_name: `b${tag}`.slice(0, 10) });
    const sku = `RICE-${tag}`;
    const name = { en: `Jasmine rice 5 kg ${tag}`, kh: `អង្ករម្លិះ ៥ គីឡូ ${tag}` };
    const product = await api.post('products', {
      name_en: name.en,
      name_kh: name.kh,
      sku,
      category_id: category.id,
      unit_id: unit.id,
      price_usd_cents: 100,
      cost_usd_cents: 45,
      reorder_level: 20,
    });
    const supplierName = `Supplier ${tag}`;
    const supplier = await api.post('suppliers', { name: supplierName });
    const branchName = `Branch ${tag}`;
    const branch = await api.post('stores', { name: branchName, code: `B-${tag}` });
    const lot = `L-${tag}`;
    const expiry = cambodianDate(60);
    const inBags = (n: number) => `${n} ${shown(bag)}`;

    const context = await newContext(browser, lang);
    const page = await context.newPage();
    await signIn(page, lang);
    const quantityIn = (store: Made) => page.getByTestId(`quantity-${store.id}-${product.id}`).locator('strong');
    let purchaseId = 0;

    /** `/stocks/manage` for one store (the user's own unless said), narrowed to the product. */
    const stockPage = async (store?: Made) => {
      const filter = store ? `filter[store_id]=${store.id}&` : '';
      await page.goto(`${prefix(lang)}/stocks/manage?${filter}search=${sku}`);
      await expect(page.getByTestId('levels-table')).toBeVisible();
    };
    const purchasePage = async () => {
      await page.goto(`${prefix(lang)}/purchases?view=${purchaseId}`);
      await expect(page.getByTestId('purchase-details')).toBeVisible();
    };
    const details = page.getByTestId('purchase-details');

    await test.step('a purchase: supplier, store, the product by its SKU, 100 at $0.50 with a lot and expiry, $5 shipping', async () => {
      await page.getByTestId('menu-menu.group.inventory').click();
      await page.getByTestId('menu-/purchases').click();
      await expect(page.getByTestId('list-table')).toBeVisible();
      await page.getByTestId('create').click();
      await expect(page).toHaveURL(new RegExp(`${prefix(lang)}/purchases/create$`));
      const form = page.getByTestId('purchase-form');
      await pick(page, page.locator('#purchase-supplier'), tag, supplierName);
      await pick(page, page.locator('#purchase-store'), 'Main', MAIN_STORE);
      await expect(form.locator('.ant-select', { has: page.locator('#purchase-store') })).toContainText(MAIN_STORE);

      // typed as a scanner would: the code and Enter
      const finder = page.getByTestId('product-finder');
      await finder.click();
      await page.keyboard.type(sku);
      await page.keyboard.press('Enter');
      const lines = page.getByTestId('purchase-lines');
      await expect(lines.locator('tbody tr.ant-table-row')).toHaveCount(1);
      await expect(lines).toContainText(shown(name));
      await expect(finder).toHaveValue('');
      // the price starts at the product's cost
      await expect(page.getByTestId('line-0-price')).toHaveValue('0.45');

      await page.getByTestId('line-0-quantity').fill('100');
      await page.getByTestId('line-0-price').fill('0.50');
      await page.getByLabel(text.lotOf1, { exact: true }).fill(lot);
      await typeDate(page, page.getByLabel(text.expiryOf1, { exact: true }), typedDate(expiry));
      await page.locator('#purchase-shipping').fill('5.00');
      await expect(page.getByTestId('line-0-total')).toHaveText('$50.00');
      await expect(page.getByTestId('line-0-shipping')).toHaveText('$5.00');
      await expect(page.getByTestId('total-grand')).toHaveText('$55.00');
      await snap(page, `stock-purchase-form-${lang}-light`, { quiet: true });
    });

    await test.step('the review shows the totals; confirming saves it as ordered', async () => {
      await page.getByTestId('review').click();
      await expect(page).toHaveURL(new RegExp(`${prefix(lang)}/purchases/review$`));
      const review = page.getByTestId('purchase-review');
      await expect(review.getByTestId('review-supplier')).toHaveText(supplierName);
      await expect(review.getByTestId('review-store')).toHaveText(MAIN_STORE);
      await expect(review.getByTestId('review-lines')).toContainText(`100 ${shown(bag)}`);
      await expect(review.getByTestId('review-lines')).toContainText(lot);
      await expect(review.getByTestId('review-lines')).toContainText(shownDate(expiry, lang));
      await expect(review.getByTestId('review-0-total')).toHaveText('$50.00');
      await expect(review.getByTestId('review-0-shipping')).toHaveText('$5.00');
      await expect(review.getByTestId('total-subtotal')).toHaveText('$50.00');
      await expect(review.getByTestId('total-shipping')).toHaveText('$5.00');
      await expect(review.getByTestId('total-tax')).toHaveText('$0.00');
      await expect(review.getByTestId('total-grand')).toHaveText('$55.00');
      await snap(page, `stock-purchase-review-${lang}-light`, { quiet: true });

      await page.getByTestId('confirm').click();
      await toast(page, text.purchaseCreated);
      await expect(page).toHaveURL(new RegExp(`${prefix(lang)}/purchases\\?view=\\d+$`));
      purchaseId = Number(new URL(page.url()).searchParams.get('view'));
      await expect(details.getByTestId('purchase-status')).toHaveText(text.ordered);
      await expect(details.getByTestId('payment-status')).toHaveText(text.unpaid);
      await expect(details.getByTestId('total-due')).toHaveText('$55.00');
    });

    await test.step('60 arrive first: partly received, 60 in stock', async () => {
      await details.getByTestId('purchase-receive').click();
      const dialog = modal(page, 'receive-form');
      const quantity = dialog.getByLabel(text.quantityOf1, { exact: true });
      await expect(quantity).toHaveValue('100');
      await quantity.fill('60');
      await dialog.getByRole('button', { name: text.receiveGoods, exact: true }).click();
      await toast(page, text.goodsReceived);
      await expect(page.getByTestId('receive-form')).toHaveCount(0);
      await expect(details.getByTestId('purchase-status')).toHaveText(text.partlyReceived);
      await expect(details.getByTestId('purchase-items')).toContainText(`60 / 100 ${shown(bag)}`);

      await stockPage();
      await expect(quantityIn(main)).toHaveText(inBags(60));
    });

    await test.step('the other 40 arrive: received, 100 in stock', async () => {
      await purchasePage();
      await details.getByTestId('purchase-receive').click();
      const dialog = modal(page, 'receive-form');
      const quantity = dialog.getByLabel(text.quantityOf1, { exact: true });
      await expect(quantity).toHaveValue('40');
      await quantity.fill('40');
      await dialog.getByRole('button', { name: text.receiveGoods, exact: true }).click();
      await toast(page, text.goodsReceived);
      await expect(details.getByTestId('purchase-status')).toHaveText(text.received);
      await expect(details.getByTestId('purchase-items')).toContainText(`100 / 100 ${shown(bag)}`);
      await expect(details.getByTestId('purchase-receive')).toHaveCount(0);
    });

    await test.step('half paid: $27.50, partly paid, $27.50 due', async () => {
      await details.getByTestId('purchase-pay').click();
      const dialog = modal(page, 'payment-form');
      await expect(dialog.locator('#payment-amount')).toHaveValue('55.00');
      await dialog.locator('#payment-amount').fill('27.50');
      await dialog.getByRole('button', { name: text.recordPayment, exact: true }).click();
      await toast(page, text.paymentRecorded);
      await expect(page.getByTestId('payment-form')).toHaveCount(0);
      await expect(details.getByTestId('payment-status')).toHaveText(text.partlyPaid);
      await expect(details.getByTestId('total-paid')).toHaveText('$27.50');
      await expect(details.getByTestId('total-due')).toHaveText('$27.50');
      await expect(details.getByTestId('purchase-payments').locator('tbody tr.ant-table-row')).toHaveCount(1);
      await expect(details.getByTestId('purchase-payments')).toContainText('$27.50');
      await snap(page, `stock-purchase-detail-${lang}-light`, { quiet: true });

      await stockPage();
      await expect(quantityIn(main)).toHaveText(inBags(100));
    });

    let transferId = 0;
    const transfer = page.getByTestId('transfer-details');
    await test.step('30 to the second store: created, sent (70 left here)', async () => {
      await page.goto(`${prefix(lang)}/stocks/transfer`);
      await page.getByTestId('create').click();
      const form = page.getByTestId('transfer-form');
      // from the user's own store unless chosen otherwise
      await expect(form.locator('.ant-select', { has: page.locator('#transfer-from') })).toContainText(MAIN_STORE);
      await pick(page, page.locator('#transfer-to'), tag, branchName);
      await form.getByTestId('product-finder').click();
      await page.keyboard.type(sku);
      await page.keyboard.press('Enter');
      await expect(form.getByTestId('transfer-lines')).toContainText(shown(name));
      await form.getByTestId('line-0-quantity').fill('30');
      await modal(page, 'transfer-form').getByRole('button', { name: text.save, exact: true }).click();
      await toast(page, text.transferCreated);
      await expect(transfer.getByTestId('transfer-status')).toHaveText(text.draft);
      transferId = Number(new URL(page.url()).searchParams.get('view'));
      expect(transferId).toBeGreaterThan(0);

      await transfer.getByTestId('transfer-send').click();
      await expect(page.getByTestId('transfer-send-help')).toContainText(branchName);
      await confirm(page, text.send, text.transferSent);
      await expect(transfer.getByTestId('transfer-status')).toHaveText(text.sent);

      await stockPage();
      await expect(quantityIn(main)).toHaveText(inBags(70));
    });

    await test.step('received in the second store: 30 there', async () => {
      await page.goto(`${prefix(lang)}/stocks/transfer?view=${transferId}`);
      await transfer.getByTestId('transfer-receive').click();
      await confirm(page, text.receive, text.transferReceived);
      await expect(transfer.getByTestId('transfer-status')).toHaveText(text.transferDone);
      await expect(transfer).toContainText(`30 ${shown(bag)}`);
      await snap(page, `stock-transfer-detail-${lang}-light`, { quiet: true });
      // the drawer's mask covers the header's switch: close it, switch, open it again
      const number = (await page.locator('.ant-drawer-title').textContent())?.match(/TR-[\d-]+/)?.[0] ?? '';
      expect(number).not.toBe('');
      await page.keyboard.press('Escape');
      await expect(transfer).toHaveCount(0);
      await colorMode(page, 'dark');
      await page.getByTestId('list-search').fill(number);
      await page
        .getByTestId('list-table')
        .locator('tbody tr', { hasText: branchName })
        .getByRole('button', { name: number })
        .click();
      await expect(transfer.getByTestId('transfer-status')).toHaveText(text.transferDone);
      expect(Number(new URL(page.url()).searchParams.get('view'))).toBe(transferId);
      await snap(page, `stock-transfer-detail-${lang}-dark`, { quiet: true });
      await page.keyboard.press('Escape');
      await expect(transfer).toHaveCount(0);
      await colorMode(page, 'light');

      await stockPage();
      await pick(page, page.getByTestId('store-filter'), tag, branchName);
      await expect(quantityIn(branch)).toHaveText(inBags(30));
    });

    await test.step('a count of 68 in the main store, and the movement in its history', async () => {
      await stockPage();
      await page.getByTestId(`adjust-${main.id}-${product.id}`).click();
      const dialog = modal(page, 'adjust-form');
      await expect(dialog.getByTestId('adjust-current')).toHaveText(inBags(70));
      await dialog.locator('label.ant-radio-button-wrapper', { hasText: text.count }).click();
      await dialog.getByTestId('adjust-quantity').fill('68');
      await expect(dialog.getByTestId('adjust-after')).toContainText('68');
      await dialog.getByRole('button', { name: text.save, exact: true }).click();
      await toast(page, text.adjusted);
      await expect(quantityIn(main)).toHaveText(inBags(68));

      await page.getByTestId(`history-${main.id}-${product.id}`).click();
      const newest = page.getByTestId('movements-table').locator('tbody tr.ant-table-row').first();
      await expect(newest).toContainText(text.adjustment);
      await expect(newest).toContainText('-2');
      await expect(newest).toContainText(text.count);
      await expect(newest.locator('td').nth(3)).toHaveText('68');
      await expect(page.getByTestId('movements-table').locator('tbody tr.ant-table-row')).toHaveCount(4);
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('movements-table')).toHaveCount(0);

      await page.getByTestId('levels-table').locator('.ant-table-row-expand-icon').first().click();
      const batches = page.getByTestId(`batches-${main.id}-${product.id}`);
      await expect(batches).toContainText(lot);
      await expect(batches).toContainText(shownDate(expiry, lang));
      await expect(batches).toContainText(inBags(68));
      await snap(page, `stock-manage-${lang}-light`, { quiet: true });
      await colorMode(page, 'dark');
      await snap(page, `stock-manage-${lang}-dark`, { quiet: true });
      await colorMode(page, 'light');
    });

    await test.step('damage brings the second store to 15, under its reorder level: low stock and the badge', async () => {
      await stockPage(branch);
      await page.getByTestId(`adjust-${branch.id}-${product.id}`).click();
      const dialog = modal(page, 'adjust-form');
      await dialog.locator('label.ant-radio-button-wrapper', { hasText: text.damage }).click();
      await dialog.getByTestId('adjust-quantity').fill('15');
      await expect(dialog.getByTestId('adjust-after')).toContainText('15');
      await dialog.getByRole('button', { name: text.save, exact: true }).click();
      await toast(page, text.adjusted);
      await expect(quantityIn(branch)).toHaveText(inBags(15));
      await expect(page.getByTestId(`quantity-${branch.id}-${product.id}`)).toContainText(text.lowTag);

      await page.getByTestId('menu-/stocks/low').click();
      await expect(page).toHaveURL(new RegExp(`${prefix(lang)}/stocks/low$`));
      await page.getByTestId('list-search').fill(sku);
      const low = page.getByTestId('low-table').locator('tbody tr.ant-table-row', { hasText: branchName });
      await expect(low).toHaveCount(1);
      await expect(low).toContainText(shown(name));
      await expect(low).toContainText(inBags(15));
      // back to twice the reorder level: 40 − 15
      await expect(page.getByTestId(`reorder-${branch.id}-${product.id}`)).toHaveText(inBags(25));
      const badge = page.getByTestId('menu-/stocks/low').getByTestId('low-stock-badge');
      await expect(badge).toBeVisible();
      const count = Number(await badge.locator('.ant-scroll-number').getAttribute('title'));
      expect(count).toBeGreaterThanOrEqual(1);
      await snap(page, `stock-low-${lang}-light`, { quiet: true });
      await colorMode(page, 'dark');
      await snap(page, `stock-low-${lang}-dark`, { quiet: true });
      await colorMode(page, 'light');
    });

    await test.step('an expired batch is written off and leaves the list', async () => {
      const oldLot = `OLD-${tag}`;
      const old = await api.post<{ id: number; items: { id: number }[] }>('purchases', {
        supplier_id: supplier.id,
        store_id: main.id,
        purchase_date: cambodianDate(-40),
        ordered: true,
        items: [
          {
            product_id: product.id,
            unit_id: unit.id,
            quantity: 12,
            unit_price_cents: 40,
            lot: oldLot,
            expiry_date: cambodianDate(-10),
          },
        ],
      });
      await api.post(`purchases/${old.id}/receive`, { items: [{ item_id: old.items[0].id, quantity: 12 }] });

      await page.getByTestId('menu-/products/expired').click();
      await expect(page).toHaveURL(new RegExp(`${prefix(lang)}/products/expired$`));
      await page.getByTestId('tab-expired').click();
      await page.getByTestId('list-search').fill(sku);
      const table = page.getByTestId('batches-table');
      const expired = table.locator('tbody tr.ant-table-row', { hasText: oldLot });
      await expect(expired).toHaveCount(1);
      await expect(expired).toContainText(MAIN_STORE);
      await expect(expired).toContainText(text.expiredAgo);
      await expect(expired).toContainText(inBags(12));
      // valued at the product's average cost, every store together: (68 + 15) × $0.55 and 12 × $0.40
      // make $50.45 for 95, so these 12 are worth $6.37 (not the $4.80 they cost)
      await expect(expired.getByTestId(/^value-/)).toHaveText('$6.37');
      // the batch still good is not listed
      await expect(table.locator('tbody tr.ant-table-row', { hasText: lot })).toHaveCount(0);
      await snap(page, `stock-expired-${lang}-light`, { quiet: true });
      await colorMode(page, 'dark');
      await snap(page, `stock-expired-${lang}-dark`, { quiet: true });
      await colorMode(page, 'light');

      await expired.getByRole('button', { name: text.writeOff }).click();
      await expect(await confirmation(page)).toContainText(`${inBags(12)} ${text.worth} $6.37`);
      await confirm(page, text.writeOff, text.writtenOff);
      await expect(expired).toHaveCount(0);
      await expect(table).toContainText(text.noneExpired);

      await stockPage();
      await expect(quantityIn(main)).toHaveText(inBags(68));
    });
    await context.close();
  });
}
