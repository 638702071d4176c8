import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { SCREENS as ALL_SCREENS } from '../packages/contracts/src/screens.ts';
import { expect, type Lang, type Mode, newContext, prefix, setColorMode, shot, signIn, test } from './support.ts';

/**
 * axe-core over every screen the side menu reaches (contracts screens.ts: each screen with a menu
 * entry), a form or two, the no-permission page and the sign-in, in Khmer and English, light and
 * dark: any serious or critical violation fails (WCAG 2 A and AA rules). One sign-in per language
 * and mode, one page reused; the four walks are shared out among the workers.
 */
const SCREENS = [
  ...ALL_SCREENS.filter((screen) => screen.menu).map((screen) => screen.path),
  '/products/create',
  '/purchases/create',
  '/no-permission',
];
/** Screens saved as pictures in Khmer, to look at the script as drawn (e2e/screenshots). */
const PICTURED = new Set([
  '/dashboards',
  '/products/create',
  '/pos',
  '/shifts',
  '/settings',
  '/reports/credit',
  '/price-lists',
]);

interface Found {
  screen: string;
  rule: string;
  impact: string;
  targets: string[];
  summary: string;
}

async function serious(page: Page, screen: string): Promise<Found[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      screen,
      rule: v.id,
      impact: v.impact ?? '',
      targets: v.nodes.slice(0, 4).map((n) => n.target.join(' ')),
      summary: v.nodes[0]?.failureSummary?.split('\n').slice(0, 2).join(' ') ?? '',
    }));
}

/** A screen loaded and settled: its heading drawn, no spinner, fonts ready, animations over. */
async function settle(page: Page): Promise<void> {
  await expect(page.locator('.ant-spin-spinning')).toHaveCount(0, { timeout: 15_000 });
  await page.evaluate(() => document.fonts.ready);
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Number.POSITIVE_INFINITY),
  );
}

// each language and mode its own test, read-only, so the workers share them out
test.describe.configure({ mode: 'parallel' });

test('the walk reaches every screen of the menu, with the settings, shifts, credit and prices', () => {
  expect(SCREENS.length).toBeGreaterThan(30);
  expect(SCREENS).toEqual(
    expect.arrayContaining([
      '/settings',
      '/shifts',
      '/reports/credit',
      '/price-lists',
      '/stocks/manage',
      '/reports/shifts',
    ]),
  );
});

for (const lang of ['kh', 'en'] as Lang[]) {
  for (const mode of ['light', 'dark'] as Mode[]) {
    test(`accessibility: every main screen in ${lang}, ${mode}, has no serious or critical axe violation`, async ({
      browser,
    }) => {
      test.setTimeout(900_000);
      const context = await newContext(browser, lang, mode);
      const page = await context.newPage();
      const found: Found[] = [];

      await page.goto(`${prefix(lang)}/login`);
      await settle(page);
      found.push(...(await serious(page, `login ${mode}`)));

      await signIn(page, lang);
      await setColorMode(page, mode);
      for (const screen of SCREENS) {
        await page.goto(`${prefix(lang)}${screen}`);
        await expect(page.locator('main').first()).toBeVisible();
        await settle(page);
        found.push(...(await serious(page, `${screen} ${mode}`)));
        // every signed-in screen names itself with one h1 (axe's own rule is only moderate)
        if ((await page.locator('h1').count()) !== 1) {
          found.push({ screen: `${screen} ${mode}`, rule: 'one-h1', impact: 'moderate', targets: [], summary: '' });
        }
        if (lang === 'kh' && PICTURED.has(screen)) {
          await shot(page, `a11y-${screen.slice(1).replaceAll('/', '-')}-kh-${mode}`);
        }
      }
      expect(found).toEqual([]);
      await context.close();
    });
  }
}
