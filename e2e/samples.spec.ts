import { expect, test } from '@playwright/test';
import { CASHIER } from './playwright.config.ts';
import { confirm, newContext, setColorMode, signIn, snap } from './support.ts';

/**
 * An administrator tries Depot with the sample data: reads what it adds, loads it (from the menu,
 * in Khmer), finds its products with their pictures and its sales (in English, dark), then removes
 * it again, so the database is as the other specs left it. A cashier has no such screen.
 */
test('an administrator loads the sample data, looks around, and removes it again', async ({ browser }) => {
  test.setTimeout(180_000);
  const context = await newContext(browser, 'kh');
  const page = await context.newPage();
  await signIn(page, 'kh');

  await page.getByRole('menuitem', { name: 'ទិន្នន័យគំរូ' }).click();
  await expect(page).toHaveURL(/\/samples$/);
  await expect(page.getByTestId('samples-status')).toHaveText('មិនទាន់ផ្ទុក');
  await expect(page.getByTestId('samples-plan')).toContainText('ផលិតផល 20 ជាភាសាខ្មែរ និងអង់គ្លេស មានរូបភាពគ្រប់មុខ');
  await snap(page, 'samples-before-kh-light');

  await page.getByTestId('samples-load').click();
  await expect(page.getByTestId('samples-result')).toContainText('បានផ្ទុកទិន្នន័យគំរូ៖ ផលិតផល 20, ការទិញ 6 និងការលក់ 125។', {
    timeout: 120_000,
  });
  await expect(page.getByTestId('samples-status')).toHaveText('បានផ្ទុក');
  await expect(page.getByTestId('samples-counts')).toContainText('125');
  await snap(page, 'samples-loaded-kh-light');

  // in English and dark: the sample products with their pictures, searched by a Khmer name
  await page.goto('/en/products?search=%E1%9E%91%E1%9E%B9%E1%9E%80%E1%9E%8F%E1%9F%92%E1%9E%9A%E1%9E%B8');
  await setColorMode(page, 'dark');
  await expect(page.getByText('Fish sauce').first()).toBeVisible();
  await page.goto('/en/products');
  await expect(page.getByText('Mineral water 500 ml').first()).toBeVisible();
  await expect(page.locator('img[src*="/uploads/products/"]').first()).toBeVisible();
  await snap(page, 'samples-products-en-dark');
  await page.goto('/en/orders');
  await expect(page.getByText('Siem Reap branch').first()).toBeVisible();
  await snap(page, 'samples-orders-en-dark');

  await page.goto('/en/samples');
  await expect(page.getByTestId('samples-status')).toHaveText('Loaded');
  await snap(page, 'samples-loaded-en-dark');
  await page.getByTestId('samples-remove').click();
  await confirm(page, 'Remove');
  await expect(page.getByTestId('samples-result')).toHaveText('Sample data removed.', { timeout: 60_000 });
  await expect(page.getByTestId('samples-status')).toHaveText('Not loaded');
  await snap(page, 'samples-removed-en-dark');
  await context.close();

  // a cashier has no menu entry, and the screen says they may not
  const till = await newContext(browser, 'en');
  const cashier = await till.newPage();
  await signIn(cashier, 'en', CASHIER.name, CASHIER.password);
  await expect(cashier.getByRole('menuitem', { name: 'Sample data' })).toHaveCount(0);
  await cashier.goto('/en/samples');
  await expect(cashier).toHaveURL(/no-permission/);
  await till.close();
});
