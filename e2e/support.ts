import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, expect, type Locator, type Page } from '@playwright/test';
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
  await expect(page).toHaveURL(new RegExp(`${prefix(lang)}/dashboards$`));
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
export async function toast(page: Page, text: string): Promise<void> {
  await expect(page.locator('.ant-message').getByText(text).first()).toBeVisible();
}

/** The open Popconfirm (Delete, Restore, Send, Write off… ask first). */
export async function confirmation(page: Page): Promise<Locator> {
  const popup = page.locator('.ant-popconfirm:not(.ant-popover-hidden)');
  await expect(popup).toBeVisible();
  return popup;
}

export async function confirm(page: Page, label: string): Promise<void> {
  await (await confirmation(page)).getByRole('button', { name: label, exact: true }).click();
}
