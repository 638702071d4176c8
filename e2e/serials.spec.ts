import type { Page } from '@playwright/test';
import { formatUsd, luhnValid } from '../packages/contracts/src/index.ts';
import { CASHIER } from './playwright.config.ts';
import { adminApi, expect, type Lang, mainStore, newContext, prefix, shotOf, signIn, snap, test } from './support.ts';

/**
 * A phone sold by its IMEI and returned (issue 28), in Khmer and in English. A phone arrives with
 * a purchase, its IMEI typed at the receipt of goods (through the API: not the story); the cashier
 * adds it at the till and scans its IMEI into the line, the customer pays, the receipt prints the
 * IMEI; the manager finds who bought that IMEI and until when it is under warranty, and takes it
 * back on a return, after which it is in stock again.
 */

/** The database is shared by every spec of a run: every name this spec makes is its own. */
const run = Date.now().toString(36).slice(-5);

/** An IMEI unique to this run and language: 14 digits and the Luhn digit that makes them one. */
function imeiFor(lang: Lang): string {
  const body = `35${String(Date.now()).slice(-11)}${lang === 'kh' ? 1 : 2}`;
  for (let d = 0; d < 10; d++) if (luhnValid(`${body}${d}`)) return `${body}${d}`;
  throw new Error('no check digit');
}

const says = {
  kh: { status: 'ត្រឡប់មកវិញ មានក្នុងស្តុក', sold: 'បានលក់', warranty: '12 ខែ រហូតដល់' },
  en: { status: 'Returned, in stock', sold: 'Sold', warranty: '12 months, until' },
} as const;

async function openAs(browser: Parameters<typeof newContext>[0], lang: Lang, who?: typeof CASHIER): Promise<Page> {
  const context = await newContext(browser, lang);
  const page = await context.newPage();
  await signIn(page, lang, who?.name, who?.password);
  return page;
}

for (const lang of ['kh', 'en'] as Lang[]) {
  test(`a phone sold by its IMEI at the till, found by it and returned, in ${lang}`, async ({ browser, request }) => {
    test.setTimeout(120_000);
    const tag = `${run}${lang}`;
    const imei = imeiFor(lang);
    const phone = { en: `Phone A5 ${tag}`, kh: `ទូរស័ព្ទ A5 ${tag}` };

    // ─── the phone, its purchase and its IMEI received, through the API ──────────────────────
    const api = await adminApi(request);
    const main = await mainStore(api);
    const category = await api.post('categories', { name_en: `Phones ${tag}`, name_kh: `ទូរស័ព្ទ ${tag}` });
    const unit = await api.post('units', { name_en: `Set ${tag}`, name_kh: `គ្រឿង ${tag}`, short_name: `s${tag}` });
    const product = await api.post('products', {
      name_en: phone.en,
      name_kh: phone.kh,
      sku: `PH-${tag}`,
      category_id: category.id,
      unit_id: unit.id,
      price_usd_cents: 18_900,
      taxable: false,
      serial_tracked: true,
      warranty_months: 12,
    });
    const supplier = await api.post('suppliers', { name: `Phone Import ${tag}` });
    const purchase = await api.post<{ id: number; items: { id: number }[] }>('purchases', {
      supplier_id: supplier.id,
      store_id: main.id,
      purchase_date: new Date().toISOString().slice(0, 10),
      items: [{ product_id: product.id, unit_id: unit.id, quantity: 1, unit_price_cents: 15_000 }],
    });
    await api.post(`purchases/${purchase.id}/receive`, {
      items: [{ item_id: purchase.items[0].id, quantity: 1, serials: [imei] }],
    });

    // ─── the till: the phone, its IMEI typed (a scanner types it so), paid, the receipt ──────
    const till = await openAs(browser, lang, CASHIER);
    await till.goto(`${prefix(lang)}/pos`);
    await till.getByTestId('pos-search').fill(tag);
    await till.getByTestId(`tile-${product.id}`).click();
    const cart = till.getByTestId('pos-cart');
    const field = cart.getByTestId('line-0-serial-input');
    await expect(field).toBeFocused();
    // a wrong check digit is refused before it reaches the server
    await field.fill(`${imei.slice(0, 14)}${(Number(imei[14]) + 1) % 10}`);
    await field.press('Enter');
    await expect(cart.getByTestId('line-0-serials').getByRole('alert')).toBeVisible();
    await field.fill(imei);
    await field.press('Enter');
    await expect(cart.getByTestId('line-0-serials')).toContainText(imei);
    await till.mouse.move(640, 790);
    await snap(till, `serials-till-${lang}`, { quiet: true });
    await till.getByTestId('pos-pay').click();
    const review = till.getByTestId('order-review');
    await review.getByTestId('exact-usd').click();
    const sold = till.waitForResponse(
      (r) => new URL(r.url()).pathname === '/api/orders' && r.request().method() === 'POST',
    );
    await review.getByTestId('complete-sale').click();
    const answer = await sold;
    expect(answer.status(), await answer.text()).toBe(201);
    const sale = ((await answer.json()) as { data: { id: number; number: string; items: { serials: string[] }[] } })
      .data;
    expect(sale.items[0].serials).toEqual([imei]);
    await till.getByTestId('print-receipt').click();
    const receipt = till.locator('.ant-modal').getByTestId('receipt');
    await expect(receipt.getByTestId('serials')).toContainText(imei);
    await expect(receipt).toContainText(formatUsd(18_900));
    await shotOf(receipt, `serials-receipt-${lang}`);
    await till.context().close();

    // ─── the manager: who bought this IMEI, when, the warranty; then the return ─────────────
    const office = await openAs(browser, lang);
    await office.goto(`${prefix(lang)}/serials`);
    const box = office.getByTestId('serial-search').locator('input');
    await box.fill(imei);
    await box.press('Enter');
    const unitCard = office.getByTestId('serial-unit');
    await expect(unitCard).toHaveCount(1);
    await expect(unitCard).toContainText(sale.number);
    await expect(unitCard).toContainText(says[lang].sold);
    await expect(unitCard).toContainText(says[lang].warranty);
    await snap(office, `serials-search-${lang}`, { quiet: true });

    await office.goto(`${prefix(lang)}/orders?view=${sale.id}`);
    await office.getByTestId('order-return').click();
    const form = office.getByTestId('return-form');
    await form.getByRole('checkbox', { name: imei }).check();
    await snap(office, `serials-return-${lang}`);
    await office.locator('.ant-modal').filter({ has: form }).locator('.ant-modal-footer .ant-btn-primary').click();
    await expect(form).toBeHidden({ timeout: 20_000 });

    // back in stock: the search says so
    await office.goto(`${prefix(lang)}/serials?search=${imei}`);
    await expect(office.getByTestId('serial-unit')).toContainText(says[lang].status);
    if (lang === 'en') {
      await office.getByTestId('color-mode-dark').click();
      await office.mouse.move(640, 790);
      await expect(office.locator('.ant-tooltip:not(.ant-tooltip-hidden)')).toHaveCount(0);
      await snap(office, 'serials-search-returned-en-dark', { quiet: true });
    }
    await office.context().close();
  });
}
