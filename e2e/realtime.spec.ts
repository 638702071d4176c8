import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import { ADMIN_PASSWORD } from './playwright.config.ts';
import { expect, newContext, signIn, snap, test, toast } from './support.ts';

const database = path.join(path.dirname(fileURLToPath(import.meta.url)), '.data/e2e.sqlite');

/**
 * Notifications as the second wave's domain events will raise them, written straight into the
 * server's database (SQLite in WAL mode takes a second writer): low stock and a refund to approve.
 */
function raise(userId: number): { low: string; refund: string } {
  const db = new SQLite(database);
  db.pragma('busy_timeout = 5000');
  const low = randomUUID();
  const refund = randomUUID();
  const insert = db.prepare(
    'insert into notifications (id, type, notifiable_id, data, read_at, archived_at, created_at, updated_at) values (?, ?, ?, ?, null, null, ?, ?)',
  );
  const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
  insert.run(
    low,
    'low_stock',
    userId,
    JSON.stringify({
      product_id: 1,
      product_name_en: 'Angkor beer 330 ml',
      product_name_kh: 'ស្រាបៀរអង្គរ ៣៣០ មល',
      store_id: 1,
      store_name: 'Main store',
      quantity: 3,
      reorder_level: 24,
      link: '/stocks/low?filter[store_id]=1',
    }),
    at(5),
    at(5),
  );
  insert.run(
    refund,
    'refund_awaiting_approval',
    userId,
    JSON.stringify({
      order_id: 1,
      number: 'ORD-2026-000001',
      store_id: 1,
      store_name: 'Main store',
      requested_by: 'Sok Dara',
      amount_usd_cents: 1250,
      link: '/orders?view=1',
    }),
    at(60),
    at(60),
  );
  db.close();
  return { low, refund };
}

test.describe('real time and notifications', () => {
  test('the header connects, the bell follows another session reading, a notification is archived', async ({
    browser,
    request,
  }) => {
    // another session of the administrator's (a second till): it reads a notification through the API
    const other = await request.post('/api/login', { data: { name: 'admin', password: ADMIN_PASSWORD } });
    const { token, user_info } = (await other.json()) as { token: string; user_info: { id: number } };
    const { low, refund } = raise(user_info.id);

    const context = await newContext(browser, 'en');
    const page = await context.newPage();
    await signIn(page, 'en');
    const state = page.getByTestId('connection-state');
    await expect(state).toHaveAttribute('data-state', 'connected');
    await expect(state).toHaveText('Connected');
    const bell = page.getByTestId('notification-bell');
    await expect(bell).toHaveAttribute('aria-label', 'Notifications: 2 unread');

    await bell.click();
    await expect(page).toHaveURL(/\/en\/notifications$/);
    const table = page.getByTestId('notifications-table');
    await expect(table.getByText('Angkor beer 330 ml is low at Main store: 3 left, reorder at 24.')).toBeVisible();
    await expect(
      table.getByText(
        'Sok Dara asks to refund $12.50 on order ORD-2026-000001 at Main store. It awaits your approval.',
      ),
    ).toBeVisible();
    await expect(page.getByTestId(`notification-${low}`)).toHaveAttribute('aria-label', 'Low stock (unread)');
    await snap(page, 'notifications-en-light');

    // read elsewhere: the bell and the list follow here without a reload
    const read = await request.post(`/api/notifications/${low}/read`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(read.status()).toBe(200);
    await expect(bell).toHaveAttribute('aria-label', 'Notifications: 1 unread');
    await expect(page.getByTestId(`notification-${low}`)).toHaveAttribute('aria-label', 'Low stock');

    await page.getByTestId(`archive-${refund}`).click();
    await toast(page, 'Notification archived.');
    await expect(bell).toHaveAttribute('aria-label', 'Notifications: 0 unread');
    await expect(page.getByTestId(`notification-${refund}`)).toHaveCount(0);
    await page.getByTestId('tab-archive').click();
    await expect(page.getByTestId(`notification-${refund}`)).toBeVisible();

    // a notification opens its record
    await page.getByTestId('tab-inbox').click();
    await page.getByTestId(`notification-${low}`).click();
    await expect(page).toHaveURL(/\/en\/stocks\/low\?filter\[store_id\]=1$/);
    await context.close();
  });

  test('in Khmer and dark: the connection state and the inbox', async ({ browser, request }) => {
    const login = await request.post('/api/login', { data: { name: 'admin', password: ADMIN_PASSWORD } });
    const { low } = raise(((await login.json()) as { user_info: { id: number } }).user_info.id);
    const context = await newContext(browser, 'kh', 'dark');
    const page = await context.newPage();
    await signIn(page, 'kh');
    await expect(page.getByTestId('connection-state')).toHaveText('បានភ្ជាប់');
    await page.getByTestId('notification-bell').click();
    await expect(page).toHaveURL(/\/notifications$/);
    await expect(page.getByTestId(`notification-${low}`)).toHaveText('ស្តុកទាប');
    await page.getByTestId('status-unread').click();
    await expect(
      page
        .getByTestId('notifications-table')
        .getByText(/ស្នើសុំប្រាក់សងវិញ \$12\.50/)
        .first(),
    ).toBeVisible();
    await snap(page, 'notifications-kh-dark');
    await context.close();
  });
});
