import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, expect, type Page } from '@playwright/test';
import { ADMIN_PASSWORD } from './playwright.config.ts';

const shots = path.join(path.dirname(fileURLToPath(import.meta.url)), 'screenshots');
fs.mkdirSync(shots, { recursive: true });

export type Lang = 'kh' | 'en';
export type Mode = 'light' | 'dark';

/** A browser whose language is Khmer or English, as a till's browser would be. */
export function newContext(browser: Browser, lang: Lang, colorScheme: Mode = 'light'): Promise<BrowserContext> {
  return browser.newContext({
    locale: lang === 'kh' ? 'km-KH' : 'en-US',
    colorScheme,
    viewport: { width: 1280, height: 800 },
  });
}

/** Saved for people to look at: e2e/screenshots/<name>.png. */
export async function shot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
}

export const prefix = (lang: Lang) => (lang === 'en' ? '/en' : '');

export async function signIn(page: Page, lang: Lang, name = 'admin', password = ADMIN_PASSWORD): Promise<string> {
  await page.goto(`${prefix(lang)}/login`, { waitUntil: 'networkidle' });
  await page.getByTestId('login-name').fill(name);
  await page.getByTestId('login-password').fill(password);
  const response = page.waitForResponse((r) => r.url().endsWith('/api/login') && r.request().method() === 'POST');
  await page.getByTestId('login-submit').click();
  const body = (await (await response).json()) as { token?: string };
  await expect(page).toHaveURL(new RegExp(`${prefix(lang)}/dashboards$`));
  return body.token ?? '';
}

export async function setColorMode(page: Page, mode: 'light' | 'dark' | 'system'): Promise<void> {
  await page.getByTestId(`color-mode-${mode}`).click();
}
