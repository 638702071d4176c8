import { CASHIER } from './playwright.config.ts';
import { confirm, expect, newContext, setColorMode, signIn, snap, test } from './support.ts';

/** Lists of the whole sample depot, on a machine that may be busy. */
const SLOW = { timeout: 30_000 };

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

  // in the administration group of the menu
  await page.getByRole('menuitem', { name: 'ការគ្រប់គ្រងប្រព័ន្ធ' }).click();
  await page.getByRole('menuitem', { name: 'ទិន្នន័យគំរូ' }).click();
  await expect(page).toHaveURL(/\/samples$/);
  await expect(page.getByTestId('samples-status')).toHaveText('មិនទាន់ផ្ទុក', SLOW);
  await expect(page.getByTestId('samples-plan')).toContainText('ផលិតផល 20 ជាភាសាខ្មែរ និងអង់គ្លេស មានរូបភាពគ្រប់មុខ');
  await snap(page, 'samples-before-kh-light');

  await page.getByTestId('samples-load').click();
  await expect(page.getByTestId('samples-result')).toContainText('បានផ្ទុកទិន្នន័យគំរូ៖ ផលិតផល 20, ការទិញ 6 និងការលក់ 125។', {
    timeout: 120_000,
  });
  await expect(page.getByTestId('samples-status')).toHaveText('បានផ្ទុក');
  await expect(page.getByTestId('samples-counts')).toContainText('125');
  await snap(page, 'samples-loaded-kh-light');

  await context.close();

  // in English and dark: the sample products with their pictures, searched by a Khmer name; the sales of both stores
  const english = await newContext(browser, 'en', 'dark');
  const en = await english.newPage();
  await signIn(en, 'en');
  await setColorMode(en, 'dark');
  await en.goto(`/en/products?search=${encodeURIComponent('ទឹកត្រី')}`);
  await expect(en.getByText('Fish sauce').first()).toBeVisible(SLOW);
  // the sample products' codes begin SMPL-: the list narrowed to them (other stories add products of their own)
  await en.goto('/en/products?search=SMPL');
  await expect(en.getByText('Mineral water 500 ml').first()).toBeVisible(SLOW);
  await expect(en.locator('img[src*="/uploads/products/"]').first()).toBeVisible(SLOW);
  await snap(en, 'samples-products-en-dark');
  // the oldest orders first: the samples' three weeks, before what other stories sold today
  await en.goto('/en/orders?sort=order_date');
  await expect(en.getByRole('cell', { name: /Siem Reap branch/ }).first()).toBeVisible(SLOW);
  await snap(en, 'samples-orders-en-dark');

  await en.goto('/en/samples');
  await expect(en.getByTestId('samples-status')).toHaveText('Loaded', SLOW);
  await snap(en, 'samples-loaded-en-dark');
  await en.getByTestId('samples-remove').click();
  await confirm(en, 'Remove');
  await expect(en.getByTestId('samples-result')).toHaveText('Sample data removed.', { timeout: 60_000 });
  await expect(en.getByTestId('samples-status')).toHaveText('Not loaded');
  await snap(en, 'samples-removed-en-dark');
  await english.close();

  // a cashier has no menu entry, and the screen says they may not
  const till = await newContext(browser, 'en');
  const cashier = await till.newPage();
  await signIn(cashier, 'en', CASHIER.name, CASHIER.password);
  await expect(cashier.getByRole('menuitem', { name: 'Sample data' })).toHaveCount(0);
  await cashier.goto('/en/samples');
  await expect(cashier).toHaveURL(/no-permission/);
  await till.close();
});
