import type { Browser, Page } from '@playwright/test';
import {
  expect,
  type Lang,
  type Mode,
  prefix,
  setColorMode,
  signIn,
  snap,
  test,
  withSystemSettings,
} from './support.ts';

/**
 * Khmer-first polish: the wide screens' empty tables at 1366×768 (headers whole, on one line), in
 * Khmer and English, light and dark; and the till with Khmer numerals on (a system setting).
 */

async function at1366(browser: Browser, lang: Lang, mode: Mode): Promise<Page> {
  const context = await browser.newContext({
    locale: lang === 'kh' ? 'km-KH' : 'en-US',
    colorScheme: mode,
    viewport: { width: 1366, height: 768 },
  });
  const page = await context.newPage();
  await signIn(page, lang);
  await setColorMode(page, mode);
  return page;
}

/** No header cell of the table cuts its text: its content fits its width and its one line. */
async function headersWhole(page: Page): Promise<string[]> {
  return page.locator('.ant-table-thead th').evaluateAll((cells) =>
    cells
      .filter((cell) => (cell.textContent ?? '').trim() !== '')
      .filter((cell) => cell.scrollWidth > cell.clientWidth + 1)
      .map((cell) => (cell.textContent ?? '').trim()),
  );
}

/** Tables that fit yet draw the "more to the side" shadow over their last columns' headers. */
async function shadowsWithoutOverflow(page: Page): Promise<string[]> {
  return page.locator('.ant-table').evaluateAll((tables) =>
    tables.flatMap((table) => {
      const content = table.querySelector('.ant-table-content');
      if (!content || content.scrollWidth > content.clientWidth) return [];
      const container = table.querySelector('.ant-table-container');
      const fixed = [...table.querySelectorAll('th.ant-table-cell-fix-end, th.ant-table-cell-fix-start')];
      return [...fixed, ...(container ? [container] : [])]
        .map((el) => getComputedStyle(el, '::after').boxShadow)
        .filter((shadow) => shadow !== 'none');
    }),
  );
}

for (const lang of ['kh', 'en'] as const) {
  for (const mode of ['light', 'dark'] as const) {
    test(`the wide screens at 1366×768 in ${lang} (${mode}): headers whole`, async ({ browser }) => {
      const page = await at1366(browser, lang, mode);
      for (const [path, name] of [
        ['/purchases/create', 'purchase-create'],
        ['/products/expired', 'products-expired'],
        ['/products', 'products'],
      ] as const) {
        await page.goto(`${prefix(lang)}${path}`, { waitUntil: 'networkidle' });
        await expect(page.locator('.ant-table-thead').first()).toBeVisible();
        await snap(page, `polish-1366-${name}-${lang}-${mode}`);
        expect(await headersWhole(page), `${path}`).toEqual([]);
        expect(await shadowsWithoutOverflow(page), `${path}: a side shadow over a table that fits`).toEqual([]);
      }
      await page.context().close();
    });
  }
}

test.describe('Khmer numerals on (a system setting)', () => {
  withSystemSettings({ khmer_numerals: true });

  test('the till with Khmer numerals on Khmer pages, Latin on English pages', async ({ browser }) => {
    for (const lang of ['kh', 'en'] as const) {
      await test.step(`the till in ${lang}`, async () => {
        const page = await at1366(browser, lang, 'light');
        try {
          await page.goto(`${prefix(lang)}/pos`, { waitUntil: 'networkidle' });
          const rate = page.getByTestId('pos-rate');
          await expect(rate).toBeVisible();
          if (lang === 'kh') await expect(rate).toContainText(/[០-៩],[០-៩]{3}៛/);
          else await expect(rate).toContainText(/\d,\d{3}៛/);
          // the cart's figures too, not only what rendered after the settings came
          const total = page.getByTestId('cart-total-usd');
          if (lang === 'kh') await expect(total).toHaveText('$០.០០');
          else await expect(total).toHaveText('$0.00');
          await snap(page, `polish-till-numerals-${lang}`);
        } finally {
          await page.context().close();
        }
      });
    }
  });
});
