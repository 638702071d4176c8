import type { Locator, Page } from '@playwright/test';
import { adminApi, expect, newContext, openDropdown, pick, signIn, snap, test, toast } from './support.ts';

/** A select of many: one option chosen, then the dropdown closed. */
async function pickMany(page: Page, select: Locator, text: string) {
  await select.click();
  await page.keyboard.type(text);
  const option = openDropdown(page).locator('.ant-select-item-option').filter({ hasText: text }).first();
  await expect(option).toBeVisible();
  await option.click();
  await page.keyboard.press('Escape');
  await expect(openDropdown(page)).toHaveCount(0);
}

/**
 * Administration (issue 10): an administrator creates a cashier for store 2, who signs in and works
 * only there; an administrator changes a role and its member's menu changes while they look at it.
 */
test.describe.configure({ mode: 'serial' });

const run = Date.now().toString(36).slice(-5);
const cashierName = `cashier_${run}`;
const password = 'cashier-pass-1';

test('an administrator creates a cashier for store 2, who signs in and sees only store 2', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const api = await adminApi(request);
  const store = await api.post<{ id: number; name: string }>('stores', {
    name: `Takhmao ${run}`,
    code: `TK-${run}`,
    status: 'active',
  });

  const adminContext = await newContext(browser, 'en');
  const admin = await adminContext.newPage();
  await signIn(admin, 'en');
  await admin.goto('/en/users/create');
  await admin.locator('#record_name').fill(cashierName);
  await admin.locator('#record_full_name').fill('Chan Sophea');
  await admin.locator('#record_password').fill(password);
  await admin.locator('#record_password_confirmation').fill('not-the-same');
  await admin.locator('#record_position').fill('Cashier');
  await pick(admin, admin.getByTestId('user-home-store'), `Takhmao ${run}`, `Takhmao ${run}`);
  await pickMany(admin, admin.getByTestId('user-stores'), `Takhmao ${run}`);
  await pickMany(admin, admin.getByTestId('user-roles'), 'Cashier');
  await admin.getByTestId('save').click();
  await expect(admin.getByText('The password confirmation does not match.')).toBeVisible();
  await snap(admin, 'admin-user-form-mismatch-en-light');
  await admin.locator('#record_password_confirmation').fill(password);
  await admin.getByTestId('save').click();
  await toast(admin, 'User created.');
  await admin.goto(`/en/users?search=${cashierName}`);
  await expect(admin.getByTestId('list-table').getByText(cashierName)).toBeVisible();
  await snap(admin, 'admin-users-en-light', { quiet: true });

  const cashierContext = await newContext(browser, 'kh', 'dark');
  const cashier = await cashierContext.newPage();
  await signIn(cashier, 'kh', cashierName, password);
  await expect(cashier.getByTestId('dashboard-store')).toContainText(store.name);
  await snap(cashier, 'admin-cashier-dashboard-kh-dark');

  // the audit trail shows the creation and the cashier's sign-in, from where
  await admin.goto('/en/audit');
  await admin.getByTestId('audit-search').locator('input').fill(cashierName);
  await expect(admin.getByTestId('audit-table').getByText('Signed in').first()).toBeVisible();
  await snap(admin, 'admin-audit-en-light');
  await adminContext.close();
  await cashierContext.close();
});

test("an administrator changes a role and the member's menu changes, live", async ({ browser }) => {
  test.setTimeout(120_000);
  const memberContext = await newContext(browser, 'en');
  const member = await memberContext.newPage();
  await signIn(member, 'en', cashierName, password);
  await expect(member.getByTestId('menu-menu.group.partners')).toBeVisible();
  await member.getByTestId('menu-menu.group.partners').click();
  await expect(member.getByTestId('menu-/customers')).toBeVisible();

  const adminContext = await newContext(browser, 'kh', 'dark');
  const admin = await adminContext.newPage();
  await signIn(admin, 'kh');
  await admin.goto('/roles');
  await admin.getByTestId('role-cashier').click();
  const box = admin.getByRole('checkbox', { name: 'customers.list' });
  await expect(box).toBeChecked();
  await box.uncheck();
  await snap(admin, 'admin-roles-kh-dark');
  await admin.getByTestId('role-save').click();
  await expect(admin.locator('.ant-message-notice')).toBeVisible();

  // the member did not sign out or reload: their menu lost Customers
  await expect(member.getByTestId('menu-/customers')).toHaveCount(0, { timeout: 15_000 });
  await snap(member, 'admin-member-menu-after-en-light');

  // reset to its defaults: Customers comes back
  await admin.getByTestId('role-reset').click();
  await admin.locator('.ant-modal-confirm .ant-btn-primary').click();
  await expect(admin.getByRole('checkbox', { name: 'customers.list' })).toBeChecked();
  await expect(member.getByTestId('menu-menu.group.partners')).toBeVisible({ timeout: 15_000 });

  // the members list, with arrows
  await expect(admin.getByTestId('members')).toBeVisible();
  await admin.getByTestId('members').scrollIntoViewIfNeeded();
  await snap(admin, 'admin-role-members-kh-dark');
  await adminContext.close();
  await memberContext.close();
});
