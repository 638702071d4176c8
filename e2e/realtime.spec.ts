import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import { ADMIN_PASSWORD, CASHIER, OWN_DATABASE } from './playwright.config.ts';
import { adminApi, expect, type Lang, mainStore, newContext, prefix, signIn, snap, test, toast } from './support.ts';

// this worker's server's database (playwright.config.ts)
const database = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', OWN_DATABASE);

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
    // what other stories raised for the administrator (their sales, their low stock) is read first
    await request.post('/api/notifications/read-all', { headers: { authorization: `Bearer ${token}` } });
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
    await expect(page.getByTestId(`notification-${low}`)).toHaveText('ស្តុកជិតអស់');
    await page.getByTestId('status-unread').click();
    await expect(
      page
        .getByTestId('notifications-table')
        .getByText(/ស្នើសុំសងប្រាក់វិញ \$12\.50/)
        .first(),
    ).toBeVisible();
    await snap(page, 'notifications-kh-dark');
    await context.close();
  });
});

const offlineSays = {
  en: { connected: 'Connected', offline: 'Offline' },
  kh: { connected: 'បានភ្ជាប់', offline: 'គ្មានអ៊ីនធឺណិត' },
} as const;

for (const lang of ['en', 'kh'] as Lang[]) {
  test(`the header's live dot says offline while the browser is offline, and connected after (${lang})`, async ({
    browser,
  }) => {
    const context = await newContext(browser, lang);
    const page = await context.newPage();
    await signIn(page, lang);
    const state = page.getByTestId('connection-state');
    await expect(state).toHaveText(offlineSays[lang].connected);
    await context.setOffline(true);
    await expect(state).toHaveAttribute('data-state', 'offline');
    await expect(state).toHaveText(offlineSays[lang].offline);
    await snap(page, `realtime-offline-${lang}`);
    await context.setOffline(false);
    await expect(state).toHaveAttribute('data-state', 'connected');
    await expect(state).toHaveText(offlineSays[lang].connected);
    await context.close();
  });
}

const run = Date.now().toString(36).slice(-5);

const says = {
  en: {
    low: (product: string, level: number, left: number) =>
      `${product} is low at Main store: ${left} left, reorder at ${level}.`,
    lowTag: (level: number) => `Low: reorder at ${level}`,
    title: 'Low stock',
    unread: (n: number) => `Notifications: ${n} unread`,
  },
  kh: {
    low: (product: string, level: number, left: number) =>
      `${product} នៅMain store ស្តុកជិតអស់៖ នៅសល់ ${left}, កម្រិតបញ្ជាទិញបន្ថែម ${level}។`,
    lowTag: (level: number) => `ស្តុកជិតអស់៖ បញ្ជាទិញនៅ ${level}`,
    title: 'ស្តុកជិតអស់',
    unread: (n: number) => `ការជូនដំណឹង៖ មិនទាន់អាន ${n}`,
  },
} as const;

for (const lang of ['en', 'kh'] as Lang[]) {
  test(`a sale at one till updates another screen live, and its low stock is notified (${lang})`, async ({
    browser,
    request,
  }) => {
    test.setTimeout(120_000);
    const text = says[lang];
    const tag = `${run}${lang}`;
    const api = await adminApi(request);
    const main = await mainStore(api);
    const category = await api.post('categories', { name_en: `Live ${tag}`, name_kh: `ផ្ទាល់ ${tag}` });
    const unit = await api.post('units', { name_en: `Jar ${tag}`, name_kh: `ពាង ${tag}`, short_name: `j${tag}` });
    const name = { en: `Fish sauce ${tag}`, kh: `ទឹកត្រី ${tag}` };
    const sku = `LIVE-${tag}`;
    const jars = (n: number) => `${n} ${lang === 'en' ? `Jar ${tag}` : `ពាង ${tag}`}`;
    const product = await api.post('products', {
      name_en: name.en,
      name_kh: name.kh,
      sku,
      category_id: category.id,
      unit_id: unit.id,
      price_usd_cents: 150,
      cost_usd_cents: 90,
      reorder_level: 8,
      taxable: false,
    });
    await api.post('stocks/adjustments', {
      store_id: main.id,
      reason: 'found',
      note: `e2e ${tag}`,
      items: [{ product_id: product.id, quantity: 10 }],
    });
    await api.post('notifications/read-all', {});

    // ─── the manager's screen: the store's stock of the product, the badge, the bell ─────────
    const managers = await newContext(browser, lang);
    const manager = await managers.newPage();
    await signIn(manager, lang);
    await manager.goto(`${prefix(lang)}/stocks/manage?filter[store_id]=${main.id}&search=${sku}`);
    await expect(manager.getByTestId('connection-state')).toHaveAttribute('data-state', 'connected');
    const quantity = manager.getByTestId(`quantity-${main.id}-${product.id}`);
    await expect(quantity).toContainText(jars(10));
    await expect(quantity).not.toContainText(text.lowTag(8));
    const badge = manager.getByTestId('menu-/stocks/low').getByTestId('low-stock-badge');
    const lowBefore = (await badge.count())
      ? Number(await badge.locator('.ant-scroll-number').getAttribute('title'))
      : 0;
    const bell = manager.getByTestId('notification-bell');
    await expect(bell).toHaveAttribute('aria-label', text.unread(0));
    // and the orders list, in a second tab of the manager's
    const orders = await managers.newPage();
    await orders.goto(`${prefix(lang)}/orders`);
    await expect(orders.getByTestId('connection-state')).toHaveAttribute('data-state', 'connected');

    // ─── the cashier's till, in another browser: three jars, paid exactly ────────────────────
    const tills = await newContext(browser, lang);
    const till = await tills.newPage();
    await signIn(till, lang, CASHIER.name, CASHIER.password);
    await till.goto(`${prefix(lang)}/pos`);
    await till.getByTestId('pos-search').fill(name[lang]);
    const tile = till.getByTestId(`tile-${product.id}`);
    for (let i = 0; i < 3; i++) await tile.click();
    await expect(till.getByTestId('pos-cart').getByTestId('line-0-quantity')).toHaveValue('3');
    await till.getByTestId('pos-pay').click();
    await till.getByTestId('order-review').getByTestId('exact-usd').click();
    const written = till.waitForResponse((r) => r.url().endsWith('/api/orders') && r.request().method() === 'POST');
    await till.getByTestId('complete-sale').click();
    const sold = ((await (await written).json()) as { data: { id: number } }).data;
    await expect(till.getByTestId('done-change-usd')).toHaveText('$0.00');

    // ─── the manager's screen follows without a reload ──────────────────────────────────────
    await expect(quantity).toContainText(jars(7));
    await expect(quantity).toContainText(text.lowTag(8));
    await expect(badge.locator('.ant-scroll-number')).toHaveAttribute('title', String(lowBefore + 1));
    await expect(bell).toHaveAttribute('aria-label', text.unread(1));
    await snap(manager, `realtime-live-stock-${lang}`);
    await expect(orders.getByTestId(`open-${sold.id}`)).toBeVisible();
    await snap(orders, `realtime-live-orders-${lang}`);
    await orders.close();

    // ─── the notification: read, opened, archived ───────────────────────────────────────────
    const inbox = await api.get<{ data: { id: string; type: string; data: { product_id: number } }[] }>(
      'notifications?filter[status]=unread',
    );
    const mine = inbox.data.find((n) => n.type === 'low_stock' && n.data.product_id === product.id);
    if (!mine) throw new Error('no low-stock notification');
    await bell.click();
    await expect(manager).toHaveURL(/\/notifications$/);
    const table = manager.getByTestId('notifications-table');
    await expect(table.getByText(text.low(name[lang], 8, 7))).toBeVisible();
    const item = manager.getByTestId(`notification-${mine.id}`);
    await expect(item).toHaveAttribute('aria-label', new RegExp(`^${text.title} \\(`));
    await snap(manager, `realtime-notification-${lang}`);
    await manager.getByTestId(`read-${mine.id}`).click();
    await expect(item).toHaveAttribute('aria-label', text.title);
    await expect(bell).toHaveAttribute('aria-label', text.unread(0));
    await manager.getByTestId(`archive-${mine.id}`).click();
    await expect(item).toHaveCount(0);
    await manager.getByTestId('tab-archive').click();
    await expect(manager.getByTestId(`notification-${mine.id}`)).toBeVisible();
    await snap(manager, `realtime-archived-${lang}`);
    await managers.close();
    await tills.close();
  });
}
