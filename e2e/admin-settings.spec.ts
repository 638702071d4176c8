import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { CASHIER } from './playwright.config.ts';
import { expect, type Lang, newContext, prefix, signIn, snap, test, toast, withSystemSettings } from './support.ts';

const results = path.join(path.dirname(fileURLToPath(import.meta.url)), '../test-results/admin-settings');
fs.mkdirSync(results, { recursive: true });

/** The computed background of the page's primary button (the theme's primary colour), not hovered. */
async function primaryOf(page: Page): Promise<string> {
  await page.mouse.move(1, 1);
  return page.getByTestId('settings-save').evaluate((button) => getComputedStyle(button).backgroundColor);
}

async function chooseColour(page: Page, field: string, hex: string) {
  await page.getByTestId(field).click();
  const input = page.getByRole('tooltip').getByRole('textbox');
  await input.fill(hex.replace('#', ''));
  await input.press('Enter');
  await page.keyboard.press('Escape');
}

test.describe('system settings', () => {
  // what the administrator changes here is put back for the specs after this one
  withSystemSettings();

  test('the administrator changes the title and colours, and every screen follows without a reload', async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const context = await newContext(browser, 'en');
    const page = await context.newPage();
    await signIn(page, 'en');
    await page.goto('/en/settings');
    await expect(page.getByTestId('app-title')).toHaveText('Sales Management System');
    // the default green #15803d, darkened by the theme just enough to carry white text at 4.5:1
    expect(await primaryOf(page)).toBe('rgb(20, 120, 57)');
    await snap(page, 'settings-en-light');

    // a marker only this page load holds: gone if anything reloads the page
    await page.evaluate(() => Object.assign(window, { __sameLoad: true }));
    await page.getByTestId('system_title').fill('Corner Depot');
    await page.getByTestId('system_title_kh').fill('ឃ្លាំងកែងផ្លូវ');
    await chooseColour(page, 'primary_color', '#b91c1c');
    // the preview follows before saving; the page does not yet
    await expect(page.getByTestId('preview-light')).toContainText('Corner Depot');
    await expect(page.getByTestId('app-title')).toHaveText('Sales Management System');
    await page.getByTestId('store_name').fill('Corner Depot Co., Ltd.');
    await page.getByTestId('vat_number').fill('K001-901234567');
    await page.getByTestId('settings-save').click();
    await toast(page, 'System settings saved.');

    await expect(page.getByTestId('app-title')).toHaveText('Corner Depot');
    await expect.poll(() => page.title()).toBe('Corner Depot');
    await expect.poll(() => primaryOf(page)).toBe('rgb(185, 28, 28)');
    expect(await page.evaluate(() => (window as unknown as { __sameLoad?: boolean }).__sameLoad)).toBe(true);
    await snap(page, 'settings-en-saved', { quiet: true });

    // Khmer pages show the Khmer title (the language switch does not reload either)
    await page.getByRole('button', { name: /ខ្មែរ/ }).click();
    await expect(page).toHaveURL(/\/settings$/);
    await expect(page.getByTestId('app-title')).toHaveText('ឃ្លាំងកែងផ្លូវ');
    await expect.poll(() => page.title()).toBe('ឃ្លាំងកែងផ្លូវ');
    await snap(page, 'settings-kh-light');

    // another screen already open follows the save too (the depot channel): a second tab
    const other = await context.newPage();
    await other.goto('/dashboards');
    await expect(other.getByTestId('app-title')).toHaveText('ឃ្លាំងកែងផ្លូវ');
    await page.getByTestId('system_title_kh').fill('ឃ្លាំងថ្មី');
    await page.getByTestId('system_title').fill('New Depot');
    await page.getByTestId('settings-save').click();
    await expect(other.getByTestId('app-title')).toHaveText('ឃ្លាំងថ្មី');

    // the sign-in page reads the same settings
    const guest = await newContext(browser, 'kh', 'dark');
    const login = await guest.newPage();
    await login.goto('/login');
    await expect(login.getByTestId('app-title')).toHaveText('ឃ្លាំងថ្មី');
    await snap(login, 'settings-login-kh-dark');
    await guest.close();
    await context.close();
  });

  test('the settings screen in Khmer, dark', async ({ browser }) => {
    const context = await newContext(browser, 'kh', 'dark');
    const page = await context.newPage();
    await signIn(page, 'kh');
    await page.goto('/settings');
    await expect(page.getByTestId('settings-form')).toBeVisible();
    await snap(page, 'settings-kh-dark');
    await context.close();
  });
});

function profileStory(lang: Lang, mode: 'light' | 'dark') {
  return async ({ browser }: { browser: import('@playwright/test').Browser }) => {
    const context = await newContext(browser, lang, mode);
    const page = await context.newPage();
    await signIn(page, lang, CASHIER.name, CASHIER.password);
    // the header's user menu opens the profile
    await page.getByTestId('user-menu').click();
    await page.getByTestId('open-profile').click();
    await expect(page).toHaveURL(new RegExp(`${prefix(lang)}/profiles$`));
    await expect(page.getByTestId('profile-title')).toHaveText(CASHIER.fullName);

    await page.getByTestId('profile-nationality').fill(lang === 'kh' ? 'ខ្មែរ' : 'Cambodian');
    await page.getByTestId('profile-address').fill('ផ្ទះលេខ ១២ ផ្លូវព្រះស៊ីសុវត្ថិ ខណ្ឌដូនពេញ ភ្នំពេញ');
    await page.getByTestId('profile-skills').fill('គណនេយ្យ ការលក់ និងសេវាកម្មអតិថិជន');
    await page.getByTestId('profile-emergency_contact_name').fill('សុខ ស្រីពៅ');
    await page.getByTestId('profile-save').click();
    await toast(page, lang === 'kh' ? 'បានរក្សាទុកប្រវត្តិរូប។' : 'Profile saved.');
    await snap(page, `profile-${lang}-${mode}`, { quiet: true });

    const download = page.waitForEvent('download');
    await page.getByTestId('profile-pdf').click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^profile-.*\.pdf$/);
    const pdf = path.join(results, `profile-${lang}.pdf`);
    await file.saveAs(pdf);
    expect(fs.readFileSync(pdf).subarray(0, 5).toString()).toBe('%PDF-');
    // the first page as a picture, for people to look at
    execFileSync('pdftoppm', ['-png', '-r', '110', '-f', '1', '-l', '1', pdf, path.join(results, `profile-${lang}`)]);
    expect(fs.existsSync(path.join(results, `profile-${lang}-1.png`))).toBe(true);
    await context.close();
  };
}

test.describe('profile', () => {
  test('a cashier edits their profile and downloads it as a PDF, in Khmer', profileStory('kh', 'light'));
  test('the same in English, dark', profileStory('en', 'dark'));
});
