import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fakePrinter, saveRaster } from '../apps/server/src/test/printing.ts';
import { decodeEscPos, type Raster } from '../packages/contracts/src/index.ts';
import { ADMIN_PASSWORD, CASHIER } from './playwright.config.ts';
import {
  adminApi,
  expect,
  type Lang,
  mainStore,
  newContext,
  pick,
  prefix,
  shotOf,
  signIn,
  snap,
  test,
  toast,
} from './support.ts';

/**
 * A cashier's shift, in Khmer and in English: opened at a till with a float counted note by note in
 * dollars and riel; a sale paid in dollars whose change goes back in riel (made through the API as
 * the cashier: the till is selling.spec.ts's story) moves both drawers; a pay-in of riel; the X
 * report; the blind close counted $8 short, beyond the threshold, so a manager types their name
 * and password; the Z report on screen, printed on the store's network printer (a fake one that
 * turns the ESC/POS bytes back into the picture) and as the server's A4 PDF in the page's language.
 */
const run = Date.now().toString(36).slice(-5);
const shots = path.join(path.dirname(fileURLToPath(import.meta.url)), 'screenshots');

const says = {
  kh: {
    opened: 'បានបើកវេន។',
    payIn: 'ដាក់ប្រាក់ចូល',
    recorded: 'បានកត់ត្រាការដាក់ប្រាក់ចូល។',
    riel: 'រៀល',
    closed: 'បានបិទវេន។',
    z: 'របាយការណ៍ Z',
    sent: (n: string) => `បានផ្ញើទៅម៉ាស៊ីនបោះពុម្ព ${n}។`,
    open: 'កំពុងបើក',
  },
  en: {
    opened: 'Shift opened.',
    payIn: 'Pay in',
    recorded: 'Pay-in recorded.',
    riel: 'Riel',
    closed: 'Shift closed.',
    z: 'Z report',
    sent: (n: string) => `Sent to printer ${n}.`,
    open: 'Open',
  },
} as const;

for (const lang of ['kh', 'en'] as Lang[]) {
  test(`a cashier's shift in dollars and riel, closed short with a manager, Z report printed, in ${lang}`, async ({
    browser,
    request,
  }) => {
    test.setTimeout(150_000);
    const text = says[lang];
    const tag = `${run}${lang}`;
    const printer = fakePrinter();
    const port = await printer.listen();
    try {
      // ─── what the story stands on, through the API ──────────────────────────────────────
      const api = await adminApi(request);
      const main = await mainStore(api);
      const printerName = `Shift roll ${tag}`;
      await api.post('printers', { store_id: main.id, name: printerName, host: '127.0.0.1', port, paper: '80' });
      const category = await api.post('categories', { name_en: `Shifts ${tag}`, name_kh: `វេន ${tag}` });
      const unit = await api.post('units', { name_en: `Can ${tag}`, name_kh: `កំប៉ុង ${tag}`, short_name: `c${tag}` });
      const product = await api.post('products', {
        name_en: `Iced coffee ${tag}`,
        name_kh: `កាហ្វេទឹកកក ${tag}`,
        sku: `SHIFT-${tag}`,
        category_id: category.id,
        unit_id: unit.id,
        price_usd_cents: 250,
        taxable: false,
      });
      await api.post('stocks/adjustments', {
        store_id: main.id,
        reason: 'found',
        items: [{ product_id: product.id, quantity: 10 }],
      });
      const customers = await api.get<{ data: { id: number; is_walk_in: boolean }[] }>('customers?per_page=100');
      const walkIn = customers.data.find((c) => c.is_walk_in);
      if (!walkIn) throw new Error('no walk-in customer');

      // ─── the cashier opens a shift with a float: $45 and 100,000 riel ───────────────────
      const context = await newContext(browser, lang);
      const page = await context.newPage();
      await signIn(page, lang, CASHIER.name, CASHIER.password);
      // the till says no shift is open, with a link that opens one
      await page.goto(`${prefix(lang)}/pos`, { waitUntil: 'networkidle' });
      await expect(page.getByTestId('pos-shift')).toHaveAttribute('data-state', 'none');
      await snap(page, `shift-till-none-${lang}`);
      await page.getByTestId('pos-shift-open').click();
      const dialog = page.locator('.ant-modal').filter({ has: page.getByTestId('shift-till') });
      await dialog.getByTestId('shift-till').fill(`Till ${tag}`);
      await dialog.getByTestId('float-usd-2000').fill('2');
      await dialog.getByTestId('float-usd-100').fill('5');
      await dialog.getByTestId('float-khr-10000').fill('10');
      await expect(dialog.getByTestId('float-usd-total')).toHaveText('$45.00');
      await expect(dialog.getByTestId('float-khr-total')).toHaveText('100,000៛');
      await snap(page, `shift-open-${lang}`);
      await dialog.getByTestId('open-shift-submit').click();
      await toast(page, text.opened);
      const details = page.getByTestId('shift-details');
      await expect(details).toBeVisible();
      await expect(page.getByTestId('shift-status').first()).toHaveText(text.open);

      // ─── a sale: $2.50 paid with $3.00, the 50 cents back as 2,100 riel ─────────────────
      const login = await request.post('/api/login', { data: { name: CASHIER.name, password: CASHIER.password } });
      const { token } = (await login.json()) as { token: string };
      const sold = await request.post('/api/orders', {
        headers: { authorization: `Bearer ${token}`, 'idempotency-key': `shift-${tag}` },
        data: {
          store_id: main.id,
          customer_id: walkIn.id,
          items: [{ product_id: product.id, quantity: 1 }],
          payments: [{ method: 'cash_usd', amount: 300 }],
        },
      });
      expect(sold.status()).toBe(201);

      // ─── the cashier's dashboard: "today" is the open shift ─────────────────────────────
      const shiftUrl = page.url();
      await page.goto(`${prefix(lang)}/dashboards`, { waitUntil: 'networkidle' });
      await expect(page.getByTestId('dashboard-shift')).toContainText(`Till ${tag}`);
      await expect(page.getByTestId('dashboard-today').getByTestId('figure-orders')).toContainText('1');
      await snap(page, `shift-dashboard-${lang}`, { quiet: true });
      // the till shows the open shift, with a link to it
      await page.goto(`${prefix(lang)}/pos`, { waitUntil: 'networkidle' });
      await expect(page.getByTestId('pos-shift')).toContainText(`Till ${tag}`);
      await snap(page, `shift-till-open-${lang}`, { quiet: true });

      // ─── a pay-in of 20,000 riel in small notes ─────────────────────────────────────────
      await page.goto(shiftUrl, { waitUntil: 'networkidle' });
      await page.getByTestId('shift-payIn').click();
      const move = page.locator('.ant-modal').filter({ has: page.getByTestId('move-amount') });
      await move.getByTestId('move-currency').getByText(text.riel).click();
      await move.getByTestId('move-amount').fill('20000');
      await move.getByTestId('move-reason').fill(lang === 'kh' ? 'ប្រាក់រាយពីធនាគារ' : 'Small notes from the bank');
      await move.getByTestId('move-submit').click();
      await toast(page, text.recorded);
      await expect(move).toBeHidden();
      // blind: until the count is in, the cashier sees none of the drawers' figures (issue 26)
      await expect(page.getByTestId('shift-details')).toBeVisible();
      await expect(page.getByTestId('shift-drawers')).toHaveCount(0);
      await expect(page.getByTestId('shift-details')).not.toContainText('20,000៛');
      await snap(page, `shift-open-details-${lang}`, { quiet: true });

      // ─── the X report mid-shift ─────────────────────────────────────────────────────────
      await page.getByTestId('shift-report').click();
      const x = page.getByTestId('shift-report-doc');
      await expect(x).toBeVisible();
      await expect(x.getByTestId('report-usd')).toBeVisible();
      await expect(x.getByTestId('report-usd')).not.toContainText('$3.00');
      await expect(page.locator('.ant-message-notice')).toHaveCount(0, { timeout: 8_000 });
      await shotOf(x, `shift-x-report-${lang}`);
      await page.keyboard.press('Escape');

      // ─── the close: $40 of $48 (short $8, beyond $5) and all the riel, 117,900 ─────────
      await page.getByTestId('shift-close').click();
      const close = page.locator('.ant-modal').filter({ has: page.getByTestId('close-submit') });
      await close.getByTestId('counted-usd-2000').fill('2');
      for (const [note, count] of [
        ['100000', '1'],
        ['10000', '1'],
        ['5000', '1'],
        ['2000', '1'],
        ['500', '1'],
        ['100', '4'],
      ]) {
        await close.getByTestId(`counted-khr-${note}`).fill(count);
      }
      await expect(close.getByTestId('counted-khr-total')).toHaveText('117,900៛');
      await snap(page, `shift-close-count-${lang}`);
      await close.getByTestId('close-submit').click();
      // beyond the threshold: a manager approves at the till
      await expect(page.getByTestId('approval-dialog')).toBeVisible();
      await page.getByTestId('approval-name').fill('admin');
      await page.getByTestId('approval-password').fill(ADMIN_PASSWORD);
      await snap(page, `shift-close-approval-${lang}`);
      await page.getByTestId('approval-ok').click();
      await toast(page, text.closed);

      // ─── the Z report: expected, counted, the difference; on the roll and on A4 ────────
      const z = page.getByTestId('shift-report-doc');
      await expect(z).toBeVisible();
      await expect(z).toContainText(text.z);
      await expect(z.getByTestId('report-usd-difference')).toHaveText('−$8.00');
      await expect(z.getByTestId('report-khr-difference')).toHaveText('0៛');
      await expect(z).toContainText('$48.00');
      await expect(z).toContainText('117,900៛');
      await z.evaluate((element) => {
        const preview = element.closest('.print-preview') as HTMLElement | null;
        if (preview) preview.style.maxHeight = 'none';
      });
      await expect(page.locator('.ant-message-notice')).toHaveCount(0, { timeout: 8_000 });
      await shotOf(z, `shift-z-report-${lang}`);
      const modal = page.locator('.ant-modal').filter({ has: z });
      await pick(page, modal.getByTestId('print-target'), undefined, printerName);
      await modal.getByTestId('print-now').click();
      await toast(page, text.sent(printerName));
      const job = decodeEscPos(await printer.next());
      expect(job.cuts).toBe(1);
      const raster = job.raster as Raster;
      expect(raster.width).toBe(576);
      expect(raster.height).toBeGreaterThan(800);
      await saveRaster(raster, '', path.join(shots, `shift-z-raster-${lang}.png`));
      await modal.getByText('A4').click();
      await expect(modal.locator('.shift-a4')).toBeVisible();
      await snap(page, `shift-z-a4-${lang}`);
      // A4 is the server's PDF (kit/pdf.ts), in the page's language, not the browser's print
      const [file] = await Promise.all([page.waitForEvent('download'), modal.getByTestId('shift-report-pdf').click()]);
      expect(file.suggestedFilename()).toMatch(/^z-report-SH-\d{4}-\d{6}\.pdf$/);
      const pdf = execFileSync('pdftotext', ['-layout', await file.path(), '-']).toString('utf8');
      expect(pdf).toContain(text.z);
      expect(pdf).toContain('−$8.00');
      expect(pdf).toContain('117,900៛');
      await page.keyboard.press('Escape');

      // ─── the list: closed, short $8 ─────────────────────────────────────────────────────
      await page.goto(`${prefix(lang)}/shifts`, { waitUntil: 'networkidle' });
      await expect(page.locator('.ant-table-row').first()).toContainText('−$8.00');
      await snap(page, `shifts-list-${lang}`);
      await context.close();
    } finally {
      await printer.close();
    }
  });
}
