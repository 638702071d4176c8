import { CASHIER } from './playwright.config.ts';
import {
  adminApi,
  confirm,
  expect,
  khqrSaleSetup,
  type Lang,
  newContext,
  prefix,
  setColorMode,
  signIn,
  snap,
  test,
} from './support.ts';

/**
 * The screen facing the customer (issue 28): the cashier opens it from the till in a second
 * window, and pairs a tablet by a code (typed in Khmer, the QR's address in English); both
 * welcome with the shop's name, follow the cart as it grows (dollars and riel), show the very KHQR
 * the till's dialog made, and thank the customer once paid. Khmer in light, English in dark.
 */

const run = Date.now().toString(36).slice(-5);

const says = {
  kh: { welcome: 'សូមស្វាគមន៍', scan: 'ស្កេន KHQR ដើម្បីបង់ប្រាក់', thanks: 'សូមអរគុណ', confirm: 'អតិថិជនបានបង់ហើយ' },
  en: { welcome: 'Welcome', scan: 'Scan the KHQR to pay', thanks: 'Thank you', confirm: 'Customer has paid' },
} as const;

for (const lang of ['kh', 'en'] as Lang[]) {
  test(`the customer's screen follows a sale and shows its KHQR, in ${lang}`, async ({ browser, request }) => {
    test.setTimeout(120_000);
    const text = says[lang];
    const tag = `${run}${lang}`;
    const api = await adminApi(request);
    const name = { en: `Palm sugar ${tag}`, kh: `ស្ករត្នោត ${tag}` };
    const { product } = await khqrSaleSetup(api, tag, {
      category: { en: `Sugar ${tag}`, kh: `ស្ករ ${tag}` },
      unit: { en: `Pack ${tag}`, kh: `កញ្ចប់ ${tag}`, short: `p${tag}`.slice(0, 10) },
      product: { ...name, sku: `DSP-SUGAR-${tag}`, price_usd_cents: 225 },
      quantity: 10,
    });

    const context = await newContext(browser, lang);
    const till = await context.newPage();
    await signIn(till, lang, CASHIER.name, CASHIER.password);
    if (lang === 'en') await setColorMode(till, 'dark');
    await till.goto(`${prefix(lang)}/pos`);

    // ─── the cashier opens the customer's screen: a window of its own, the welcome ──────────
    await till.getByTestId('open-display').click();
    const [display] = await Promise.all([
      context.waitForEvent('page'),
      till.getByTestId('open-display-window').click(),
    ]);
    await display.setViewportSize({ width: 1280, height: 800 });
    await expect(display).toHaveURL(new RegExp(`${prefix(lang)}/display$`));
    await expect(display.getByTestId('display-idle')).toContainText(text.welcome);
    await snap(display, `display-idle-${lang}`);

    // ─── and a tablet (no session of its own) paired by the till's code: typed, or the QR's address
    await till.getByTestId('open-display').click();
    await till.getByTestId('display-pair').click();
    const code = (await till.getByTestId('display-code').textContent()) ?? '';
    expect(code).toMatch(/^[A-Z2-9]{6}$/);
    await snap(till, `display-pairing-${lang}`);
    const pad = await newContext(browser, lang, lang === 'en' ? 'dark' : 'light');
    const tablet = await pad.newPage();
    // Khmer on a tablet held upright, English on one lying down
    await tablet.setViewportSize(lang === 'kh' ? { width: 800, height: 1280 } : { width: 1280, height: 800 });
    if (lang === 'kh') {
      await tablet.goto('/display');
      await tablet.getByTestId('display-pair').click();
      await tablet.getByTestId('display-pair-code').fill(code.toLowerCase());
      await tablet.getByTestId('display-pair-submit').click();
    } else {
      const address = (await till.getByTestId('display-code-qr').getAttribute('data-payload')) ?? '';
      expect(address).toMatch(new RegExp(`/en/display\\?code=${code}$`));
      await tablet.goto(address);
    }
    await expect(tablet.getByTestId('display-linked')).toBeVisible();
    await expect(till.getByTestId('display-paired')).toBeVisible();
    await till.keyboard.press('Escape');
    await expect(till.getByTestId('display-dialog')).toHaveCount(0);

    // ─── the cart grows on both screens ─────────────────────────────────────────────────────
    await till.getByTestId('pos-search').fill(name[lang]);
    const tile = till.getByTestId(`tile-${product.id}`);
    await tile.click();
    await expect(display.getByTestId('display-line')).toHaveCount(1);
    await expect(display.getByTestId('display-total-usd')).toHaveText('$2.25');
    await tile.click();
    await expect(display.getByTestId('display-line-quantity')).toHaveText(new RegExp(`^2 .*${tag} × \\$2\\.25$`));
    await expect(display.getByTestId('display-total-usd')).toHaveText('$4.50');
    // the riel figure is the till's own
    const riel = (await till.getByTestId('cart-total-khr').textContent()) ?? '';
    expect(riel).toMatch(/^[\d,]+៛$/);
    await expect(display.getByTestId('display-total-khr')).toHaveText(riel);
    await expect(display.getByTestId('display-line')).toContainText(name[lang]);
    await snap(display, `display-cart-${lang}`);
    await expect(tablet.getByTestId('display-total-usd')).toHaveText('$4.50');
    await expect(tablet.getByTestId('display-line')).toContainText(name[lang]);

    // ─── KHQR: the customer scans the QR the till's dialog made ─────────────────────────────
    await till.getByTestId('pos-pay').click();
    const made = till.waitForResponse(
      (r) => /\/api\/orders\/\d+\/khqr$/.test(r.url()) && r.request().method() === 'POST',
    );
    await till.getByTestId('order-review').getByTestId('pay-khqr').click();
    const qr = (await (await made).json()) as { data: { payload: string } };
    const shown = display.getByTestId('display-khqr');
    await expect(shown).toContainText(text.scan);
    await expect(shown.getByTestId('khqr-symbol')).toHaveAttribute('data-payload', qr.data.payload);
    await expect(shown.getByTestId('khqr-amount')).toHaveText('$4.50 USD');
    await snap(display, `display-khqr-${lang}`);
    await expect(tablet.getByTestId('display-khqr').getByTestId('khqr-symbol')).toHaveAttribute(
      'data-payload',
      qr.data.payload,
    );
    await snap(tablet, `display-tablet-khqr-${lang}`);

    // ─── paid: thanks, and the QR is gone ───────────────────────────────────────────────────
    await till.getByTestId('khqr-confirm').click();
    await confirm(till, text.confirm);
    await expect(till.getByTestId('done-change')).toBeVisible();
    await expect(display.getByTestId('display-thanks')).toHaveText(text.thanks);
    await expect(display.getByTestId('display-khqr')).toHaveCount(0);
    await snap(display, `display-done-${lang}`);
    await expect(tablet.getByTestId('display-thanks')).toHaveText(text.thanks);
    await pad.close();
    await context.close();
  });
}
