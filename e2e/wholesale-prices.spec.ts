import ExcelJS from 'exceljs';
import { formatUsd } from '../packages/contracts/src/index.ts';
import { CASHIER } from './playwright.config.ts';
import {
  adminApi,
  expect,
  type Lang,
  mainStore,
  newContext,
  pick,
  prefix,
  shotOf,
  signIn,
  snap,
  test,
  toast,
} from './support.ts';

/**
 * Wholesale prices (issue 17), in Khmer and in English. A manager (the administrator) sets the
 * wholesale group's price of a carton on the price list's form; at the till the cashier picks a
 * shop of the wholesale group, sells three cartons and sees the group's carton price, not 24 × the
 * can, with the price list named; the order's receipt says why the line cost that. The catalogue,
 * the stock, the group and the shop are made through the API.
 */

const run = Date.now().toString(36).slice(-5);

const says = {
  kh: {
    created: 'បានបង្កើតតម្លៃដោយជោគជ័យ។',
    groupPrice: 'តម្លៃក្រុម',
    priceList: (name: string) => `បញ្ជីតម្លៃ៖ ${name}`,
    basePrices: 'បញ្ជីតម្លៃ៖ តម្លៃមូលដ្ឋាន',
    unitOf1: 'ឯកតា ជួរទី 1',
    saleRecorded: 'បានកត់ត្រាការលក់។',
  },
  en: {
    created: 'Price created.',
    groupPrice: 'Group price',
    priceList: (name: string) => `Price list: ${name}`,
    basePrices: 'Price list: Base prices',
    unitOf1: 'Unit, line 1',
    saleRecorded: 'Sale recorded.',
  },
} as const;

for (const lang of ['kh', 'en'] as Lang[]) {
  test(`wholesale: a group's carton price set, three cartons sold to a shop of the group in ${lang}`, async ({
    browser,
    request,
  }) => {
    test.setTimeout(150_000);
    const text = says[lang];
    const tag = `${run}${lang}`;
    const shown = (names: { en: string; kh: string }) => names[lang];

    // ─── what the story stands on ─────────────────────────────────────────────────────────
    const api = await adminApi(request);
    const main = await mainStore(api);
    const category = await api.post('categories', { name_en: `Beer ${tag}`, name_kh: `ស្រាបៀរ ${tag}` });
    const can = { en: `Can ${tag}`, kh: `កំប៉ុង ${tag}` };
    const carton = { en: `Carton ${tag}`, kh: `កេស ${tag}` };
    const canUnit = await api.post('units', { name_en: can.en, name_kh: can.kh, short_name: `c${tag}`.slice(0, 10) });
    await api.post('units', {
      name_en: carton.en,
      name_kh: carton.kh,
      short_name: `k${tag}`.slice(0, 10),
      base_unit_id: canUnit.id,
      factor: 24,
    });
    const beer = { en: `Lager ${tag}`, kh: `ស្រាបៀរឡាហ្គ័រ ${tag}` };
    const product = await api.post('products', {
      name_en: beer.en,
      name_kh: beer.kh,
      sku: `WHS-${tag}`,
      category_id: category.id,
      unit_id: canUnit.id,
      price_usd_cents: 125,
      cost_usd_cents: 70,
      taxable: false,
    });
    await api.post('stocks/adjustments', {
      store_id: main.id,
      reason: 'found',
      note: `e2e ${tag}`,
      items: [{ product_id: product.id, quantity: 24 * 10 }],
    });
    const group = { en: `Wholesale ${tag}`, kh: `លក់ដុំ ${tag}` };
    await api.post('customer-groups', { name_en: group.en, name_kh: group.kh });
    const groups = await api.get<{ data: { id: number; name_en: string }[] }>(
      `customer-groups?per_page=100&search=${encodeURIComponent(tag)}`,
    );
    const groupId = groups.data.find((g) => g.name_en === group.en)?.id;
    const shop = `Shop ${tag}`;
    await api.post('customers', { name: shop, phone: '012 777 888', customer_group_id: groupId });

    // ─── the manager sets the group's price of a carton ───────────────────────────────────
    const context = await newContext(browser, lang);
    const page = await context.newPage();
    await signIn(page, lang);
    await test.step('the price list: the wholesale group buys a carton at $24.00 (24 cans would be $30.00)', async () => {
      await page.goto(`${prefix(lang)}/price-lists/create`);
      await pick(page, page.locator('#record_customer_group_id'), tag, shown(group));
      await pick(page, page.locator('#record_product_id'), tag, shown(beer));
      await pick(page, page.locator('#record_unit_id'), tag, shown(carton));
      await page.locator('#record_price_cents').fill('24.00');
      await snap(page, `wholesale-price-form-${lang}`);
      await page.getByTestId('save').click();
      await toast(page, text.created);
      await page.goto(`${prefix(lang)}/price-lists?filter[customer_group_id]=${groupId}`);
      const row = page.locator('tr.ant-table-row').filter({ hasText: shown(beer) });
      await expect(row).toContainText(shown(group));
      await expect(row).toContainText(shown(carton));
      await expect(row).toContainText('$24.00');
      await snap(page, `wholesale-price-list-${lang}`, { quiet: true });

      // the list exported as a workbook: the row as it would be imported back
      const exported = page.waitForEvent('download');
      await page.getByTestId('export').hover();
      await page.locator('.ant-dropdown-menu-item').first().click();
      const file = await exported;
      expect(file.suggestedFilename()).toMatch(/^price-lists-\d{4}-\d{2}-\d{2}\.xlsx$/);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.readFile(await file.path());
      const rows = (workbook.getWorksheet('តម្លៃ · Prices')?.getSheetValues() ?? []).map((r) =>
        Array.isArray(r) ? r.slice(1).map((v) => v ?? '') : [],
      );
      expect(rows).toContainEqual([group.en, 'product', `WHS-${tag}`, carton.en, '', 1, '24.00', '', '', 'active']);
    });
    await context.close();

    // ─── the cashier sells three cartons to the shop ──────────────────────────────────────
    const till = await newContext(browser, lang);
    const cashier = await till.newPage();
    await signIn(cashier, lang, CASHIER.name, CASHIER.password);
    const cart = cashier.getByTestId('pos-cart');
    await test.step('the till: the shop chosen, the group price list applies; three cartons at $24.00', async () => {
      await cashier.goto(`${prefix(lang)}/pos`);
      await cashier.getByTestId('pos-search').fill(tag);
      await cashier.getByTestId(`tile-${product.id}`).click();
      await expect(cart.getByTestId('cart-line-0')).toContainText(shown(beer));
      // the walk-in customer buys at the base prices
      await expect(cart.getByTestId('price-list')).toHaveText(text.basePrices);
      await pick(cashier, cashier.getByTestId('pos-customer'), shop, shop);
      await expect(cart.getByTestId('price-list')).toHaveText(text.priceList(shown(group)));
      await pick(cashier, cashier.getByLabel(text.unitOf1, { exact: true }), undefined, `${shown(carton)} (24)`);
      await cart.getByTestId('line-0-quantity').fill('3');
      await expect(cart.getByTestId('line-0-unit-price')).toHaveText(formatUsd(2400));
      await expect(cart.getByTestId('line-0-price-source')).toHaveText(text.groupPrice);
      await expect(cart.getByTestId('cart-total-usd')).toHaveText(formatUsd(3 * 2400));
      await cashier.mouse.move(640, 790);
      await snap(cashier, `wholesale-till-${lang}`, { quiet: true });
    });

    await test.step('paid exactly: the order keeps the group price and the receipt says why', async () => {
      await cashier.keyboard.press('F9');
      await expect(cashier).toHaveURL(new RegExp(`${prefix(lang)}/orders/review$`));
      const review = cashier.getByTestId('order-review');
      await expect(review.getByTestId('review-line-price-source')).toContainText(shown(group));
      await expect(review.getByTestId('cart-total-usd')).toHaveText(formatUsd(7200));
      await review.getByTestId('exact-usd').click();
      const sold = cashier.waitForResponse(
        (r) => new URL(r.url()).pathname === '/api/orders' && r.request().method() === 'POST',
      );
      await review.getByTestId('complete-sale').click();
      const answer = await sold;
      expect(answer.status(), await answer.text()).toBe(201);
      const sale = (
        (await answer.json()) as {
          data: { total_cents: number; items: { unit_price_cents: number; price_source: string; quantity: number }[] };
        }
      ).data;
      expect(sale.total_cents).toBe(7200);
      expect(sale.items.map((i) => [i.quantity, i.unit_price_cents, i.price_source])).toEqual([[3, 2400, 'group']]);
      await toast(cashier, text.saleRecorded);
      await cashier.getByTestId('print-receipt').click();
      const receipt = cashier.locator('.ant-modal').getByTestId('receipt');
      await expect(receipt.getByTestId('price-why')).toContainText('តម្លៃក្រុម / Group price');
      await expect(receipt.getByTestId('price-why')).toContainText(`${group.kh} / ${group.en}`);
      await expect(receipt.getByTestId('receipt-total')).toHaveText(formatUsd(7200));
      await shotOf(receipt, `wholesale-receipt-${lang}`);
    });
    await till.close();
  });
}
