import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fakePrinter, qrMatch, saveRaster } from '../apps/server/src/test/printing.ts';
import { decodeEscPos, decodeKhqr, formatKhr, type Raster } from '../packages/contracts/src/index.ts';
import { CASHIER } from './playwright.config.ts';
import {
  adminApi,
  confirm,
  expect,
  khqrSaleSetup,
  type Lang,
  newContext,
  pick,
  prefix,
  setColorMode,
  shotOf,
  signIn,
  snap,
  test,
  toast,
} from './support.ts';

/**
 * KHQR and receipt printers, in Khmer and English. The store has a Bakong account; the cashier
 * sells a product, pays by KHQR (the order is checked out, then its QR shows in dollars, then in
 * riel), confirms the payment by hand, and prints the receipt, paid, with the payment's reference
 * and no payable QR, to the store's network printer: a fake printer this spec starts on port 0
 * receives the ESC/POS bytes, which are decoded back into the picture (saved beside the
 * screenshots, and checked to carry no QR symbol).
 */

const run = Date.now().toString(36).slice(-5);
const shots = path.join(path.dirname(fileURLToPath(import.meta.url)), 'screenshots');

const says = {
  kh: {
    confirm: 'អតិថិជនបានបង់ហើយ',
    paid: 'បានកត់ត្រាការបង់ប្រាក់។',
    sent: (n: string) => `បានផ្ញើទៅម៉ាស៊ីនបោះពុម្ព ${n}។`,
    scan: 'បានបង់តាម KHQR',
  },
  en: {
    confirm: 'Customer has paid',
    paid: 'Payment recorded.',
    sent: (n: string) => `Sent to printer ${n}.`,
    scan: 'Paid by KHQR',
  },
} as const;

for (const lang of ['kh', 'en'] as Lang[]) {
  test(`pay by KHQR, see the QR on screen and on the receipt, print it on a network printer in ${lang}`, async ({
    browser,
    request,
  }) => {
    test.setTimeout(120_000);
    const text = says[lang];
    const tag = `${run}${lang}`;
    const printer = fakePrinter();
    const port = await printer.listen();
    try {
      // ─── what the story stands on, through the API ──────────────────────────────────────
      const api = await adminApi(request);
      const name = { en: `Lux soap ${tag}`, kh: `សាប៊ូលុច ${tag}` };
      const { main, product } = await khqrSaleSetup(api, tag, {
        category: { en: `Soap ${tag}`, kh: `សាប៊ូ ${tag}` },
        unit: { en: `Bar ${tag}`, kh: `ដុំ ${tag}`, short: `b${tag}`.slice(0, 10) },
        product: { ...name, sku: `PAY-SOAP-${tag}`, price_usd_cents: 350 },
        quantity: 20,
      });
      const printerName = `Till ${tag}`;
      await api.post('printers', { store_id: main.id, name: printerName, host: '127.0.0.1', port, paper: '80' });
      const rate = (await api.get<{ data: { rate_khr: number; khr_step: number } }>('exchange-rates/current')).data;

      // ─── the cashier sells two bars of soap and takes KHQR ──────────────────────────────
      const context = await newContext(browser, lang);
      const page = await context.newPage();
      await signIn(page, lang, CASHIER.name, CASHIER.password);
      // Khmer in light, English in dark: the KHQR card stays white with its red header in both
      if (lang === 'en') await setColorMode(page, 'dark');
      await page.goto(`${prefix(lang)}/pos`);
      await page.getByTestId('pos-search').fill(name[lang]);
      const tile = page.getByTestId(`tile-${product.id}`);
      await tile.click();
      await tile.click();
      await expect(page.getByTestId('pos-cart').getByTestId('line-0-quantity')).toHaveValue('2');
      await page.getByTestId('pos-pay').click();
      const review = page.getByTestId('order-review');
      await expect(review.getByTestId('due-usd')).toHaveText('$7.00');

      const made = page.waitForResponse(
        (r) => /\/api\/orders\/\d+\/khqr$/.test(r.url()) && r.request().method() === 'POST',
      );
      await review.getByTestId('pay-khqr').click();
      const first = (await (await made).json()) as {
        data: { payload: string; order_number: string; order_id: number };
      };
      const dialog = page.getByTestId('khqr-dialog');
      await expect(dialog.getByTestId('khqr-amount')).toHaveText('$7.00 USD');
      const usd = decodeKhqr(first.data.payload);
      expect(usd).toMatchObject({
        currency: 'USD',
        amount: 700,
        bill_number: first.data.order_number,
        account_id: 'depot_main@aclb',
      });
      await expect(dialog.getByTestId('khqr-symbol')).toHaveAttribute('data-payload', first.data.payload);
      await snap(page, `khqr-dialog-usd-${lang}`);

      // the customer's app is in riel: the cashier switches, and a new QR is made for the riel due
      const riel = page.waitForResponse(
        (r) => /\/api\/orders\/\d+\/khqr$/.test(r.url()) && r.request().method() === 'POST',
      );
      await dialog.getByTestId('khqr-currency').getByText('KHR').click();
      const second = (await (await riel).json()) as { data: { payload: string; amount: number; md5: string } };
      expect(decodeKhqr(second.data.payload)).toMatchObject({ currency: 'KHR', bill_number: first.data.order_number });
      await expect(dialog.getByTestId('khqr-amount')).toHaveText(`${formatKhr(second.data.amount)} KHR`);
      // 700 cents at the current rate, to the riel step
      expect(second.data.amount % rate.khr_step).toBe(0);
      await shotOf(page.getByTestId('khqr-card'), `khqr-card-khr-${lang}`);

      await page.getByTestId('khqr-confirm').click();
      await confirm(page, text.confirm, text.paid);
      await expect(page.getByTestId('done-change')).toBeVisible();

      // ─── the receipt: paid by KHQR, with its reference, and no code a customer could pay again
      await page.getByTestId('print-receipt').click();
      const receipt = page.getByTestId('receipt');
      await expect(receipt.getByTestId('receipt-khqr')).toBeVisible();
      await expect(receipt.getByTestId('receipt-khqr')).toContainText(text.scan);
      // confirmed by hand: the tender's reference is the QR's md5
      await expect(receipt.getByTestId('receipt-bank-ref')).toHaveText(second.data.md5.slice(0, 8));
      await expect(receipt.getByTestId('khqr-symbol')).toHaveCount(0);
      await receipt.evaluate((element) => {
        const preview = element.closest('.print-preview') as HTMLElement | null;
        if (preview) preview.style.maxHeight = 'none';
      });
      await expect(page.locator('.ant-message-notice')).toHaveCount(0, { timeout: 8_000 });
      await shotOf(receipt, `khqr-receipt-${lang}`);

      // ─── printed on the store's network printer ─────────────────────────────────────────
      const modal = page.locator('.ant-modal').filter({ has: receipt });
      await pick(page, modal.getByTestId('print-target'), undefined, printerName);
      await modal.getByTestId('print-now').click();
      await toast(page, text.sent(printerName));
      const job = decodeEscPos(await printer.next());
      expect(job.initialized).toBe(true);
      expect(job.cuts).toBe(1);
      expect(job.kicks).toEqual([]); // paid by KHQR: no cash, no drawer
      const raster = job.raster as Raster;
      expect(raster.width).toBe(576);
      expect(raster.height).toBeGreaterThan(800);
      await saveRaster(raster, '', path.join(shots, `receipt-raster-${lang}.png`));
      // a paid receipt prints no payable code: the paper has no symbol of the QR
      expect(qrMatch(raster, second.data.payload)).toBeLessThan(0.5);
      await context.close();

      // ─── where it is set up: the store's Bakong account and its printers, in its form ─────
      const admin = await newContext(browser, lang);
      const manager = await admin.newPage();
      await signIn(manager, lang);
      await manager.goto(`${prefix(lang)}/stores/update/${main.id}`);
      await expect(manager.locator('#record_khqr_account_id')).toHaveValue('depot_main@aclb');
      await expect(manager.getByTestId('store-printers')).toContainText(printerName);
      await expect(manager.getByTestId('store-printers')).toContainText(`127.0.0.1:${port}`);
      await snap(manager, `store-khqr-printers-${lang}`);
      await admin.close();
    } finally {
      await printer.close();
    }
  });
}
