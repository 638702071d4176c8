import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  test as base,
  expect,
  type Locator,
  type Page,
} from '@playwright/test';
import { ADMIN_PASSWORD, CASHIER } from './playwright.config.ts';

/**
 * What a browser says when the Content-Security-Policy blocks something: Chrome's console error
 * ("Refused to load…", "…violates the following Content Security Policy directive…"), and the
 * page's own `securitypolicyviolation` event, reported to the console by an init script.
 */
const CSP_VIOLATION = /Refused to|Content Security Policy|securitypolicyviolation/i;

function watchContext(context: BrowserContext, violations: string[]): void {
  void context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`securitypolicyviolation: ${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
    });
  });
  const watchPage = (page: Page) => {
    page.on('console', (message) => {
      if (CSP_VIOLATION.test(message.text())) violations.push(`${page.url()}: ${message.text()}`);
    });
  };
  for (const page of context.pages()) watchPage(page);
  context.on('page', watchPage);
}

/**
 * Playwright's `test`, failing any test during which a page reported a CSP violation (every page
 * of every context the test opens, with `newContext` or the `page` fixture). Every spec imports
 * `test` and `expect` from here.
 */
export const test = base.extend<{ cspGuard: string[] }>({
  cspGuard: [
    async ({ browser }, use) => {
      const violations: string[] = [];
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (...args: Parameters<Browser['newContext']>) => {
        const context = await newContext(...args);
        watchContext(context, violations);
        return context;
      };
      const newPage = browser.newPage.bind(browser);
      browser.newPage = async (...args: Parameters<Browser['newPage']>) => {
        const page = await newPage(...args);
        watchContext(page.context(), violations);
        return page;
      };
      try {
        await use(violations);
      } finally {
        browser.newContext = newContext;
        browser.newPage = newPage;
      }
      expect(violations, 'Content-Security-Policy violations').toEqual([]);
    },
    { auto: true },
  ],
  page: async ({ page, cspGuard }, use) => {
    watchContext(page.context(), cspGuard);
    await use(page);
  },
});
export { expect };

const shots = path.join(path.dirname(fileURLToPath(import.meta.url)), 'screenshots');
fs.mkdirSync(shots, { recursive: true });

export type Lang = 'kh' | 'en';
export type Mode = 'light' | 'dark';

/**
 * A browser whose language is Khmer or English, as a till's browser would be. `serviceWorkers:
 * 'block'` where the spec routes the app's requests (a service worker's own fetches pass routes by).
 */
export function newContext(
  browser: Browser,
  lang: Lang,
  colorScheme: Mode = 'light',
  { serviceWorkers = 'allow' }: { serviceWorkers?: 'allow' | 'block' } = {},
): Promise<BrowserContext> {
  return browser.newContext({
    locale: lang === 'kh' ? 'km-KH' : 'en-US',
    colorScheme,
    viewport: { width: 1280, height: 800 },
    serviceWorkers,
  });
}

/** Saved for people to look at: e2e/screenshots/<name>.png. */
export async function shot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
}

/** One element, saved for people to look at: e2e/screenshots/<name>.png (a receipt, an invoice). */
export async function shotOf(element: Locator, name: string): Promise<void> {
  await element.evaluate(() => document.fonts.ready);
  await element.screenshot({ path: path.join(shots, `${name}.png`) });
}

export const prefix = (lang: Lang) => (lang === 'en' ? '/en' : '');

export async function signIn(page: Page, lang: Lang, name = 'admin', password = ADMIN_PASSWORD): Promise<string> {
  await page.goto(`${prefix(lang)}/login`, { waitUntil: 'networkidle' });
  await page.getByTestId('login-name').fill(name);
  await page.getByTestId('login-password').fill(password);
  const response = page.waitForResponse((r) => r.url().endsWith('/api/login') && r.request().method() === 'POST');
  await page.getByTestId('login-submit').click();
  const body = (await (await response).json()) as { token?: string };
  // a cashier (sells, reads no reports) lands on the till, the others on the dashboard; the specs
  // then start from the dashboard
  await expect(page).toHaveURL(new RegExp(`${prefix(lang)}/(pos|dashboards)$`));
  if (name === CASHIER.name) await expect(page).toHaveURL(new RegExp(`${prefix(lang)}/pos$`));
  if (!page.url().endsWith('/dashboards')) await page.goto(`${prefix(lang)}/dashboards`, { waitUntil: 'networkidle' });
  return body.token ?? '';
}

export async function setColorMode(page: Page, mode: 'light' | 'dark' | 'system'): Promise<void> {
  await page.getByTestId(`color-mode-${mode}`).click();
}

/**
 * Waits for antd's fades and slides to end (and, with `quiet`, for success messages to go), so a
 * screenshot shows what a user sees, not half of it.
 */
export async function snap(page: Page, name: string, { quiet = false } = {}): Promise<void> {
  if (quiet) await expect(page.locator('.ant-message-notice')).toHaveCount(0, { timeout: 8_000 });
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Number.POSITIVE_INFINITY),
  );
  await shot(page, name);
}

/** The open dropdown of an antd Select (closed ones stay in the page, hidden). */
export const openDropdown = (page: Page) => page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');

/** Opens a select, types to search, and takes the first option that matches `text` (or the first). */
export async function pick(page: Page, select: Locator, search?: string, text?: string | RegExp): Promise<string> {
  await select.click();
  if (search) await page.keyboard.type(search);
  const options = openDropdown(page).locator('.ant-select-item-option');
  const option = text ? options.filter({ hasText: text }).first() : options.first();
  await expect(option).toBeVisible();
  const label = (await option.textContent()) ?? '';
  await option.click();
  await expect(openDropdown(page)).toHaveCount(0);
  return label;
}

/** A success or error message with this text is on screen. */
export async function toast(page: Page, text: string, timeout?: number): Promise<void> {
  await expect(page.locator('.ant-message').getByText(text).first()).toBeVisible({ timeout });
}

/** The open Popconfirm (Delete, Restore, Send, Write off… ask first). */
export async function confirmation(page: Page): Promise<Locator> {
  const popup = page.locator('.ant-popconfirm:not(.ant-popover-hidden)');
  await expect(popup).toBeVisible();
  // opened, not still zooming in: a click during the animation can be lost
  await expect(popup).not.toHaveClass(/-(appear|enter)\b/);
  return popup;
}

/**
 * Presses the open Popconfirm's button and waits for it to close (its action done); with `said`,
 * the message the answer shows. A message stays 3 s, and waiting for the popup to close took longer
 * than that on a busy machine: it is watched for from before the click. A press the browser lost
 * under load is pressed again, as a person would; the actions behind a confirmation carry an
 * Idempotency-Key or are refused the second time, so a second press never acts twice.
 */
export async function confirm(page: Page, label: string, said?: string): Promise<void> {
  const popup = await confirmation(page);
  const button = popup.getByRole('button', { name: label, exact: true });
  const seen =
    said === undefined
      ? null
      : toast(page, said, 25_000).then(
          () => null,
          (error: unknown) => error,
        );
  await expect(async () => {
    if (await popup.isVisible()) await button.click({ timeout: 2_000 });
    await expect(popup).toBeHidden({ timeout: 3_000 });
  }).toPass({ timeout: 20_000 });
  const missed = await seen;
  if (missed) throw missed;
}

/**
 * An EAN-13 of the in-store range (prefix 20–29), unique to this run and `seed`, with its check
 * digit. Each spec keeps a prefix of its own, so runs of several specs never share a barcode.
 */
export function ean13(prefix: '20' | '21', seed: string): string {
  const body = `${prefix}${String(Number.parseInt(seed, 36) % 10_000_000_000).padStart(10, '0')}`;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(body[11 - i]) * (i % 2 === 0 ? 3 : 1);
  return body + String((10 - (sum % 10)) % 10);
}

/** A record the API made. */
export interface Made {
  id: number;
}

/** The administrator's API: what a story needs but is not about. */
/** The seeded main store (code MAIN) as the API lists it: where the specs' stories sell. */
export async function mainStore<T extends { id: number; code: string } = { id: number; code: string; name: string }>(
  api: Awaited<ReturnType<typeof adminApi>>,
): Promise<T> {
  const stores = await api.get<{ data: T[] }>('stores?per_page=100');
  const main = stores.data.find((s) => s.code === 'MAIN');
  if (!main) throw new Error('no main store');
  return main;
}

/** Puts `quantity` of a product in the main store (MAIN), as found stock: what a spec sells from. */
export async function stockInMain(
  api: Awaited<ReturnType<typeof adminApi>>,
  productId: number,
  quantity: number,
  note: string,
): Promise<void> {
  const main = await mainStore(api);
  await api.post('stocks/adjustments', {
    store_id: main.id,
    reason: 'found',
    note,
    items: [{ product_id: productId, quantity }],
  });
}

export async function adminApi(request: APIRequestContext) {
  const login = await request.post('/api/login', { data: { name: 'admin', password: ADMIN_PASSWORD } });
  const { token } = (await login.json()) as { token: string };
  const headers = { authorization: `Bearer ${token}` };
  return {
    async post<T = Made>(url: string, data: object): Promise<T> {
      const answer = await request.post(`/api/${url}`, { headers, data });
      const body = await answer.text();
      expect(answer.status(), `${url}: ${body}`).toBeLessThan(300);
      return (JSON.parse(body) as { data: T }).data;
    },
    async put<T = Made>(url: string, data: object): Promise<T> {
      const answer = await request.put(`/api/${url}`, { headers, data });
      const body = await answer.text();
      expect(answer.status(), `${url}: ${body}`).toBeLessThan(300);
      return (JSON.parse(body) as { data: T }).data;
    },
    async get<T>(url: string): Promise<T> {
      const answer = await request.get(`/api/${url}`, { headers });
      expect(answer.status()).toBe(200);
      return (await answer.json()) as T;
    },
  };
}

/**
 * System settings changed for the tests of the `describe` block this is called in, and put back as
 * they were after them. The putting back is an `afterAll` hook: it runs however the tests ended, on
 * its own time, so a test that fails or runs out of time never leaves the specs after it on its
 * worker's server with a setting they do not expect (a `finally` in the test body cannot: once the
 * test's time is out, its `request` is closed before the `finally` runs).
 */
export function withSystemSettings(change: Record<string, unknown> = {}): void {
  let before: Record<string, unknown> | undefined;
  test.beforeAll(async ({ request }) => {
    const api = await adminApi(request);
    // the logo and the favicon are uploaded, not part of the settings' form
    const {
      logo_url: _logo,
      favicon_url: _favicon,
      ...input
    } = (await api.get<{ data: Record<string, unknown> }>('settings')).data;
    before = input;
    if (Object.keys(change).length > 0) await api.put('settings', { ...input, ...change });
  });
  test.afterAll(async ({ request }) => {
    if (before) await (await adminApi(request)).put('settings', before);
  });
}

/**
 * A barcode scanner is a keyboard wedge: the digits within milliseconds, then Enter, wherever the
 * focus is (but not in a text field, where the typing is the cashier's own). The till takes keys
 * at most 50 ms apart as a scan, timed by when they were typed (scanner.ts). Playwright's `type` waits for
 * each key's answer before sending the next: on a busy machine (other tests beside this one) a
 * round trip took more than 50 ms and a scan was dropped, now and then. So the keys go as a
 * scanner sends them: all of them at once, real key events through the browser's protocol, in
 * order; the page handles them back to back however late it gets to them. Each key says when it
 * was typed, 5 ms after the one before (the protocol's `timestamp`, the page's `event.timeStamp`),
 * as a scanner types: the browser's own delay in passing them on (seen: over 50 ms between two
 * keys at a load of 14) is not the scanner's.
 */
export async function scan(page: Page, code: string): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => {
    const focused = document.activeElement as HTMLElement | null;
    if (focused?.matches('input, textarea, select, [contenteditable]')) focused.blur();
  });
  const cdp = await page.context().newCDPSession(page);
  const start = Date.now() / 1000;
  const at = (i: number) => start + i * 0.005;
  const keys: NonNullable<Parameters<typeof cdp.send<'Input.dispatchKeyEvent'>>[1]>[] = [...code].flatMap((key, i) => [
    {
      type: 'keyDown' as const,
      key,
      text: key,
      code: /\d/.test(key) ? `Digit${key}` : `Key${key.toUpperCase()}`,
      timestamp: at(i),
    },
    { type: 'keyUp' as const, key, timestamp: at(i) },
  ]);
  const enter = { key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13, timestamp: at(code.length) };
  keys.push({ type: 'keyDown', text: '\r', ...enter }, { type: 'keyUp', ...enter });
  await Promise.all(keys.map((event) => cdp.send('Input.dispatchKeyEvent', event)));
  await cdp.detach();
}

type AdminApi = Awaited<ReturnType<typeof adminApi>>;

/**
 * A KHQR sale's ground, through the API: the main store takes KHQR into Depot Main's Bakong
 * account, and a product of its own category and unit has `quantity` in it. Answers the store and
 * the product.
 */
export async function khqrSaleSetup(
  api: AdminApi,
  tag: string,
  made: {
    category: { en: string; kh: string };
    unit: { en: string; kh: string; short: string };
    product: { en: string; kh: string; sku: string; price_usd_cents: number };
    quantity: number;
  },
): Promise<{ main: Made; product: Made }> {
  const main = await mainStore<{ id: number; code: string } & Record<string, unknown>>(api);
  await api.put(`stores/${main.id}`, {
    name: main.name,
    code: main.code,
    phone: main.phone,
    address: main.address,
    village_id: main.village_id,
    status: main.status,
    khqr_account_id: 'depot_main@aclb',
    khqr_merchant_name: 'Depot Main',
    khqr_merchant_city: 'Phnom Penh',
  });
  const category = await api.post('categories', { name_en: made.category.en, name_kh: made.category.kh });
  const unit = await api.post('units', { name_en: made.unit.en, name_kh: made.unit.kh, short_name: made.unit.short });
  const product = await api.post<Made>('products', {
    name_en: made.product.en,
    name_kh: made.product.kh,
    sku: made.product.sku,
    category_id: category.id,
    unit_id: unit.id,
    price_usd_cents: made.product.price_usd_cents,
    taxable: false,
  });
  await api.post('stocks/adjustments', {
    store_id: main.id,
    reason: 'found',
    note: `e2e ${tag}`,
    items: [{ product_id: product.id, quantity: made.quantity }],
  });
  return { main, product };
}
