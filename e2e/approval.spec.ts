import { ADMIN_PASSWORD, CASHIER } from './playwright.config.ts';
import { adminApi, expect, type Lang, mainStore, newContext, prefix, signIn, snap, test, toast } from './support.ts';

/**
 * A manager's approval at the till, in Khmer and in English: the cashier's paid sale is voided with
 * the administrator's name and password typed on the cashier's screen. A wrong password is refused
 * in the dialog; the right one cancels the order, which shows who approved it. The sale itself is
 * made through the API as the cashier (the till is selling.spec.ts's story).
 */
const run = Date.now().toString(36).slice(-5);

const says = {
  kh: {
    cancel: 'បោះបង់ការលក់ (ត្រូវការអ្នកគ្រប់គ្រង)',
    name: 'ឈ្មោះអ្នកប្រើប្រាស់របស់អ្នកគ្រប់គ្រង',
    password: 'ពាក្យសម្ងាត់របស់អ្នកគ្រប់គ្រង',
    wrong: 'ឈ្មោះអ្នកប្រើប្រាស់ ឬពាក្យសម្ងាត់មិនត្រឹមត្រូវ។',
    done: 'បានបោះបង់ការលក់៖ ស្តុកបានត្រឡប់វិញ។',
    cancelled: 'បានបោះបង់',
    approvedBy: 'អនុម័តដោយ',
  },
  en: {
    cancel: 'Cancel order (needs a manager)',
    name: 'Manager’s username',
    password: 'Manager’s password',
    wrong: 'Username or password is incorrect.',
    done: 'Order cancelled: its stock is back.',
    cancelled: 'Cancelled',
    approvedBy: 'Approved by',
  },
};

for (const lang of ['kh', 'en'] as Lang[]) {
  test(`a cashier voids a paid sale with a manager's approval in ${lang}`, async ({ browser, request }) => {
    test.setTimeout(120_000);
    const text = says[lang];
    const tag = `${run}${lang}`;
    const api = await adminApi(request);
    const main = await mainStore(api);
    const category = await api.post('categories', { name_en: `Approvals ${tag}`, name_kh: `អនុម័ត ${tag}` });
    const unit = await api.post('units', {
      name_en: `Box ${tag}`,
      name_kh: `ប្រអប់ ${tag}`,
      short_name: `b${tag}`.slice(0, 10),
    });
    const product = await api.post('products', {
      name_en: `Soap ${tag}`,
      name_kh: `សាប៊ូ ${tag}`,
      sku: `APPR-${tag}`,
      category_id: category.id,
      unit_id: unit.id,
      price_usd_cents: 300,
      cost_usd_cents: 150,
      taxable: false,
    });
    await api.post('stocks/adjustments', {
      store_id: main.id,
      reason: 'found',
      note: `e2e ${tag}`,
      items: [{ product_id: product.id, quantity: 10 }],
    });
    const customers = await api.get<{ data: { id: number; is_walk_in: boolean }[] }>('customers?per_page=100');
    const walkIn = customers.data.find((c) => c.is_walk_in);
    if (!walkIn) throw new Error('no walk-in customer');

    // the cashier's paid sale, through the API with the cashier's own session
    const login = await request.post('/api/login', { data: { name: CASHIER.name, password: CASHIER.password } });
    const { token } = (await login.json()) as { token: string };
    const sold = await request.post('/api/orders', {
      headers: { authorization: `Bearer ${token}`, 'idempotency-key': `approval-${tag}` },
      data: {
        store_id: main.id,
        customer_id: walkIn.id,
        items: [{ product_id: product.id, quantity: 1 }],
        payments: [{ method: 'cash_usd', amount: 300 }],
      },
    });
    expect(sold.status(), await sold.text()).toBe(201);
    const order = ((await sold.json()) as { data: { id: number; number: string; abilities: { cancel: unknown } } })
      .data;
    // the server's word: a cashier voids a paid sale with a manager's approval
    expect(order.abilities.cancel).toBe('approval');

    const context = await newContext(browser, lang);
    const page = await context.newPage();
    await signIn(page, lang, CASHIER.name, CASHIER.password);
    await page.goto(`${prefix(lang)}/orders?view=${order.id}`);
    const details = page.getByTestId('order-details');
    await expect(details).toBeVisible();
    const cancel = page.getByTestId('order-cancel');
    await expect(cancel).toHaveText(text.cancel);
    await cancel.click();
    const dialog = page.getByTestId('approval-dialog');
    await expect(dialog).toBeVisible();
    await dialog.getByLabel(text.name).fill('admin');
    await dialog.getByLabel(text.password).fill('not-the-password');
    await page.getByTestId('approval-ok').click();
    await expect(dialog.getByTestId('approval-problem')).toHaveText(text.wrong);
    await snap(page, `approval-refused-${lang}`);
    await dialog.getByLabel(text.password).fill(ADMIN_PASSWORD);
    await page.getByTestId('approval-ok').click();
    await toast(page, text.done);
    await expect(dialog).toBeHidden();
    await expect(details.getByText(text.cancelled).first()).toBeVisible();
    await expect(details).toContainText(text.approvedBy);
    await expect(page.getByTestId('order-cancel')).toHaveCount(0);
    await snap(page, `approval-done-${lang}`);
    await context.close();
  });
}
