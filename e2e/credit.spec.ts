import { ADMIN_PASSWORD, CASHIER } from './playwright.config.ts';
import { adminApi, expect, type Lang, mainStore, newContext, pick, prefix, signIn, snap, test } from './support.ts';

/**
 * Credit (issue 17), in Khmer and in English: a shop with a $50 credit limit buys three $10 boxes
 * on credit at the till; a later sale of three more is refused at the limit (the cashier's screen
 * says what the shop would owe) and passes with a manager's approval typed on the till; the
 * manager records one payment that clears both orders (the allocation shown first); the
 * statement shows the two sales, the payment and a closing balance of nothing.
 */
const run = Date.now().toString(36).slice(-5);

const says = {
  kh: {
    refused: 'នឹងជំពាក់ $60.00 លើសពីកម្រិតឥណទាន $50.00',
    name: 'ឈ្មោះអ្នកប្រើប្រាស់របស់អ្នកគ្រប់គ្រង',
    password: 'ពាក្យសម្ងាត់របស់អ្នកគ្រប់គ្រង',
    paid: /^បានកត់ត្រាការបង់ប្រាក់ CP-\d{4}-\d{6}។$/,
    sale: 'ការលក់',
    payment: 'ការបង់ប្រាក់',
  },
  en: {
    refused: 'would owe $60.00, more than their credit limit of $50.00',
    name: 'Manager’s username',
    password: 'Manager’s password',
    paid: /^Payment CP-\d{4}-\d{6} recorded\.$/,
    sale: 'Sale',
    payment: 'Payment',
  },
};

for (const lang of ['kh', 'en'] as Lang[]) {
  test(`a shop buys on credit up to its limit, a manager approves past it, one payment clears both orders (${lang})`, async ({
    browser,
    request,
  }) => {
    test.setTimeout(180_000);
    const text = says[lang];
    const tag = `${run}${lang}`;
    const api = await adminApi(request);
    const main = await mainStore(api);
    const category = await api.post('categories', { name_en: `Credit ${tag}`, name_kh: `ឥណទាន ${tag}` });
    const unit = await api.post('units', {
      name_en: `Box ${tag}`,
      name_kh: `ប្រអប់ ${tag}`,
      short_name: `x${tag}`.slice(0, 10),
    });
    const product = await api.post('products', {
      name_en: `Rice box ${tag}`,
      name_kh: `អង្ករ ${tag}`,
      sku: `CRED-${tag}`,
      category_id: category.id,
      unit_id: unit.id,
      price_usd_cents: 1000,
      cost_usd_cents: 600,
      taxable: false,
    });
    await api.post('stocks/adjustments', {
      store_id: main.id,
      reason: 'found',
      note: `e2e ${tag}`,
      items: [{ product_id: product.id, quantity: 50 }],
    });
    const shopName = `Shop ${tag}`;
    const shop = await api.post('customers', { name: shopName, credit_limit_cents: 5000, payment_terms_days: 30 });

    // the till: the cashier sells to the shop and takes no money
    const cashierContext = await newContext(browser, lang);
    const till = await cashierContext.newPage();
    await signIn(till, lang, CASHIER.name, CASHIER.password);
    const sellThree = async () => {
      await till.goto(`${prefix(lang)}/pos`);
      await pick(till, till.getByTestId('pos-customer'), shopName, shopName);
      await till.getByTestId('pos-search').fill(tag);
      await till.getByTestId(`tile-${product.id}`).click();
      const quantity = till.getByTestId('pos-cart').getByTestId('line-0-quantity');
      await quantity.fill('3');
      await quantity.press('Tab');
      await expect(till.getByTestId('pos-cart').getByTestId('cart-total-usd')).toHaveText('$30.00');
      await till.keyboard.press('F9');
      await expect(till.getByTestId('order-review')).toBeVisible();
      await till.getByTestId('complete-sale').click();
    };

    await sellThree();
    await expect(till.getByTestId('new-sale')).toBeVisible();
    await snap(till, `credit-first-sale-${lang}`);

    await sellThree();
    const dialog = till.getByTestId('approval-dialog');
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(`${shopName} ${text.refused}`);
    await snap(till, `credit-over-limit-${lang}`);
    await dialog.getByLabel(text.name).fill('admin');
    await dialog.getByLabel(text.password).fill(ADMIN_PASSWORD);
    await till.getByTestId('approval-ok').click();
    await expect(till.getByTestId('new-sale')).toBeVisible();
    await cashierContext.close();

    // the manager's side: the shop's account, one payment for both orders, the statement
    const context = await newContext(browser, lang);
    const page = await context.newPage();
    await signIn(page, lang);
    await page.goto(`${prefix(lang)}/customers?search=${encodeURIComponent(shopName)}`);
    await page.getByTestId(`credit-${shop.id}`).click();
    const account = page.getByTestId('credit-account');
    await expect(account.getByTestId('credit-balance')).toContainText('$60.00');
    await expect(account.getByTestId('credit-limit')).toContainText('$50.00');
    await expect(account.getByTestId('credit-open').locator('tbody tr.ant-table-row')).toHaveCount(2);
    await snap(page, `credit-account-${lang}`);

    await page.getByTestId('credit-pay').click();
    const form = page.getByTestId('credit-pay-form');
    await expect(form.getByTestId('credit-amount')).toHaveValue('60.00');
    await expect(form.locator('[data-testid^="credit-share-"]')).toHaveCount(2);
    await snap(page, `credit-payment-preview-${lang}`);
    await page.getByTestId('credit-pay-ok').click();
    await expect(page.locator('.ant-message').getByText(text.paid).first()).toBeVisible();
    await expect(account.getByTestId('credit-balance')).toContainText('$0.00');
    await expect(account.getByTestId('credit-open').locator('tbody tr.ant-table-row')).toHaveCount(0);

    await page.getByTestId('credit-statement').click();
    const statement = page.getByTestId('statement');
    await expect(statement).toContainText(shopName);
    const rows = statement.locator('tbody tr.ant-table-row');
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(0)).toContainText(text.sale);
    await expect(rows.nth(1)).toContainText(text.sale);
    await expect(rows.nth(2)).toContainText(text.payment);
    await expect(rows.nth(2)).toContainText('$60.00');
    await expect(statement.getByTestId('statement-opening')).toHaveText('$0.00');
    await expect(statement.getByTestId('statement-closing')).toHaveText('$0.00');
    await snap(page, `credit-statement-${lang}`);

    // the PDF, printed by the server's Chromium with the Khmer shaped
    const [pdf] = await Promise.all([page.waitForEvent('download'), page.getByTestId('statement-pdf').click()]);
    expect(pdf.suggestedFilename()).toMatch(/^statement-\d+-.*\.pdf$/);
    await context.close();
  });
}
