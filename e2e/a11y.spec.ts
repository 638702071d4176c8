import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { SCREENS as ALL_SCREENS } from '../packages/contracts/src/screens.ts';
import { expect, type Lang, type Mode, newContext, prefix, setColorMode, shot, signIn, test } from './support.ts';

/**
 * axe-core over every screen the side menu reaches (contracts screens.ts: each screen with a menu
 * entry), a form or two, the no-permission page and the sign-in, in Khmer and English, light and
 * dark: any serious or critical violation fails (WCAG 2 A and AA rules). One sign-in per language,
 * one page reused; the two walks are shared out among the workers.
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

/**
 * axe's WCAG 2 A and AA rules over the page as it is; `contrastOnly` runs only the rules a colour
 * mode can change (the same page in dark mode differs from light in its colours alone).
 */
async function serious(page: Page, screen: string, contrastOnly = false): Promise<Found[]> {
  const builder = new AxeBuilder({ page });
  if (contrastOnly) builder.withRules(['color-contrast']);
  else builder.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  const results = await builder.analyze();
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

/**
 * Moves the app to `path` as its own links do (the router follows the history's popstate), not by
 * loading the page again: each screen is drawn by the app already running, and the walk does not
 * boot the whole app some forty times.
 */
async function go(page: Page, path: string): Promise<void> {
  const left = await page.evaluate((to) => {
    if (window.location.pathname === to) return null;
    const screen = document.querySelector<HTMLElement>('main .ant-app > *');
    if (screen) screen.dataset.left = '';
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
    return screen?.textContent ?? '';
  }, path);
  if (left === null) return;
  // the router keeps the last screen until the next one's code is loaded: a new element where the
  // screen is drawn, or the same one (two routes of one component) saying something else, says
  // the next one is there
  await page.waitForFunction(
    (old) => {
      const screen = document.querySelector<HTMLElement>('main .ant-app > *');
      return screen !== null && (screen.dataset.left === undefined || screen.textContent !== old);
    },
    left,
    { timeout: 30_000 },
  );
}

/**
 * Each language one test: every screen in light mode under all the WCAG rules, then in dark mode
 * under the colour rules (the DOM is the same; only the colours differ), moving from screen to
 * screen inside the running app.
 */
for (const lang of ['kh', 'en'] as Lang[]) {
  test(`accessibility: every main screen in ${lang}, light and dark, has no serious or critical axe violation`, async ({
    browser,
  }) => {
    test.setTimeout(900_000);
    const context = await newContext(browser, lang, 'light');
    const page = await context.newPage();
    const found: Found[] = [];

    await page.goto(`${prefix(lang)}/login`);
    await settle(page);
    found.push(...(await serious(page, 'login light')));
    await setColorMode(page, 'dark');
    await settle(page);
    found.push(...(await serious(page, 'login dark', true)));

    await signIn(page, lang);
    for (const mode of ['light', 'dark'] as Mode[]) {
      await setColorMode(page, mode);
      for (const screen of SCREENS) {
        await go(page, `${prefix(lang)}${screen}`);
        await expect(page.locator('main').first()).toBeVisible();
        await settle(page);
        found.push(...(await serious(page, `${screen} ${mode}`, mode === 'dark')));
        // every signed-in screen names itself with one h1 (axe's own rule is only moderate)
        if (mode === 'light' && (await page.locator('h1').count()) !== 1) {
          found.push({ screen, rule: 'one-h1', impact: 'moderate', targets: [], summary: '' });
        }
        if (lang === 'kh' && PICTURED.has(screen)) {
          await shot(page, `a11y-${screen.slice(1).replaceAll('/', '-')}-kh-${mode}`);
        }
      }
    }
    expect(found).toEqual([]);
    await context.close();
  });
}
