import { createHash } from 'node:crypto';
import { type FakeBakong, startFakeBakong } from '../apps/server/src/test/fakeBakong.ts';
import { BAKONG_TOKEN, CASHIER, OWN_BAKONG_PORT } from './playwright.config.ts';
import {
  adminApi,
  expect,
  khqrSaleSetup,
  type Lang,
  newContext,
  prefix,
  setColorMode,
  signIn,
  snap,
  test,
  toast,
} from './support.ts';

/**
 * Bank payments checked by the bank (issue 27 §3), in Khmer and English, against a fake Bakong
 * this spec starts on its server's Bakong port. The cashier sells, opens the KHQR dialog (the QR
 * counts down), and the customer says they paid by transfer: the cashier types the reference from
 * the customer's bank app, Bakong confirms it, the sale is paid. The next customer shows the same
 * transfer (a screenshot passed around): the same reference is refused, naming the sale it paid.
 */

const run = Date.now().toString(36).slice(-5);

const says = {
  kh: {
    paid: 'បាគងបានបញ្ជាក់ការផ្ទេរប្រាក់៖ ការបង់ប្រាក់ត្រូវបានកត់ត្រា។',
    used: (n: string) => `ការផ្ទេរប្រាក់នេះបានបង់សម្រាប់ការលក់ ${n} រួចហើយ៖ ការផ្ទេរប្រាក់មួយបង់បានតែការលក់មួយប៉ុណ្ណោះ។`,
    left: /^នៅសល់ [\d០-៩]+:[\d០-៩]{2} ដើម្បីបង់ប្រាក់$/,
  },
  en: {
    paid: 'Bakong confirmed the transfer: the payment is recorded.',
    used: (n: string) => `This transfer already paid sale ${n}: one transfer pays one sale.`,
    left: /^\d+:\d\d left to pay$/,
  },
} as const;

let bakong: FakeBakong;
test.beforeAll(async () => {
  bakong = await startFakeBakong(BAKONG_TOKEN, OWN_BAKONG_PORT);
});
test.afterAll(async () => {
  await bakong?.close();
});

for (const lang of ['kh', 'en'] as Lang[]) {
  test(`a transfer claim with a used hash is refused, in ${lang}`, async ({ browser, request }) => {
    test.setTimeout(120_000);
    const text = says[lang];
    const tag = `${run}${lang}`;

    // ─── the store takes KHQR; a product to sell ─────────────────────────────────────────
    const api = await adminApi(request);
    const name = { en: `Jasmine rice ${tag}`, kh: `អង្ករម្លិះ ${tag}` };
    const { product } = await khqrSaleSetup(api, tag, {
      category: { en: `Rice ${tag}`, kh: `អង្ករ ${tag}` },
      unit: { en: `Bag ${tag}`, kh: `បាវ ${tag}`, short: `g${tag}`.slice(0, 10) },
      product: { ...name, sku: `BKG-RICE-${tag}`, price_usd_cents: 1250 },
      quantity: 10,
    });
    // the customer's transfer of $12.50 into the store's account, as Bakong has it
    const hash = createHash('sha256').update(`transfer-${tag}`).digest('hex');
    bakong.transfers.push({
      hash,
      fromAccountId: 'dara@wing',
      toAccountId: 'depot_main@aclb',
      currency: 'USD',
      amount: 12.5,
    });

    const context = await newContext(browser, lang);
    const page = await context.newPage();
    await signIn(page, lang, CASHIER.name, CASHIER.password);
    if (lang === 'en') await setColorMode(page, 'dark');

    /** Sells one bag and opens the KHQR dialog: its order's number. */
    const sellOne = async () => {
      await page.goto(`${prefix(lang)}/pos`);
      await page.getByTestId('pos-search').fill(name[lang]);
      await page.getByTestId(`tile-${product.id}`).click();
      await page.getByTestId('pos-pay').click();
      const made = page.waitForResponse(
        (r) => /\/api\/orders\/\d+\/khqr$/.test(r.url()) && r.request().method() === 'POST',
      );
      await page.getByTestId('order-review').getByTestId('pay-khqr').click();
      const qr = (await (await made).json()) as {
        data: { order_number: string; expires_at: string; created_at: string };
      };
      // a till's QR: 10 minutes at most, counted down on screen
      expect(Date.parse(qr.data.expires_at) - Date.parse(qr.data.created_at)).toBeLessThanOrEqual(10 * 60_000);
      await expect(page.getByTestId('khqr-countdown')).toHaveText(text.left);
      return qr.data.order_number;
    };

    // ─── the first customer paid by transfer: Bakong confirms it ─────────────────────────
    const first = await sellOne();
    const dialog = page.getByTestId('khqr-dialog');
    await dialog.getByTestId('transfer-hash').fill(hash.slice(0, 8));
    await snap(page, `bakong-transfer-claim-${lang}`);
    await dialog.getByTestId('transfer-check').click();
    await toast(page, text.paid);
    await expect(page.getByTestId('khqr-dialog')).toHaveCount(0);
    expect(bakong.calls.at(-1)).toMatchObject({
      path: '/v1/check_transaction_by_short_hash',
      auth: `Bearer ${BAKONG_TOKEN}`,
      body: { hash: hash.slice(0, 8), amount: 12.5, currency: 'USD' },
    });

    // ─── the next customer shows the same transfer: refused, naming the sale it paid ─────
    await sellOne();
    await dialog.getByTestId('transfer-hash').fill(hash.slice(0, 8));
    await dialog.getByTestId('transfer-check').click();
    await expect(dialog.getByTestId('transfer-problem')).toHaveText(text.used(first));
    await dialog.getByTestId('transfer-problem').scrollIntoViewIfNeeded();
    await snap(page, `bakong-transfer-used-${lang}`);
    await context.close();
  });
}
