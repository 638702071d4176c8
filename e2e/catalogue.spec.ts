import { expect, type Locator, type Page, test } from '@playwright/test';
import { ADMIN_PASSWORD, CASHIER } from './playwright.config.ts';
import { type Lang, newContext, prefix, setColorMode, shot, signIn } from './support.ts';

/** The database is shared by every spec of a run: every name this spec creates is its own. */
const run = Date.now().toString(36).slice(-5);

const says = {
  kh: {
    brandCreated: 'បានបង្កើតម៉ាកដោយជោគជ័យ។',
    brandDeleted: 'បានលុបម៉ាកដោយជោគជ័យ។',
    brandRestored: 'បានស្ដារម៉ាកឡើងវិញដោយជោគជ័យ។',
    categoryCreated: 'បានបង្កើតប្រភេទដោយជោគជ័យ។',
    subCategoryCreated: 'បានបង្កើតប្រភេទរងដោយជោគជ័យ។',
    unitCreated: 'បានបង្កើតឯកតាដោយជោគជ័យ។',
    storeCreated: 'បានបង្កើតហាងដោយជោគជ័យ។',
    categoryInUse: 'មិនអាចលុបប្រភេទបានទេ ព្រោះនៅមានប្រភេទរង 1 កំពុងប្រើ។',
    delete: 'លុប',
    restore: 'ស្ដារ',
    required: 'ប្រអប់នេះត្រូវតែបំពេញ!',
  },
  en: {
    brandCreated: 'Brand created.',
    brandDeleted: 'Brand deleted.',
    brandRestored: 'Brand restored.',
    categoryCreated: 'Category created.',
    subCategoryCreated: 'Sub-category created.',
    unitCreated: 'Unit created.',
    storeCreated: 'Store created.',
    categoryInUse: 'Category cannot be deleted: 1 sub-categories still use it.',
    delete: 'Delete',
    restore: 'Restore',
    required: 'This field is required!',
  },
} as const;

/** Waits for antd's fades and slides to end, so a screenshot shows what a user sees, not half of it. */
async function snap(page: Page, name: string): Promise<void> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Number.POSITIVE_INFINITY),
  );
  await shot(page, name);
}

/** The open dropdown of an antd Select (closed ones stay in the page, hidden). */
const openDropdown = (page: Page) => page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');

/** Opens a select, types to search, and takes the first option that matches `text` (or the first). */
async function pick(page: Page, select: Locator, search?: string, text?: string | RegExp): Promise<string> {
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

async function toast(page: Page, text: string): Promise<void> {
  await expect(page.locator('.ant-message').getByText(text)).toBeVisible();
}

/** The open Popconfirm (Delete or Restore asks first). */
async function confirmation(page: Page): Promise<Locator> {
  const popup = page.locator('.ant-popconfirm:not(.ant-popover-hidden)');
  await expect(popup).toBeVisible();
  return popup;
}

async function confirm(page: Page, label: string): Promise<void> {
  await (await confirmation(page)).getByRole('button', { name: label }).click();
}

function row(page: Page, text: string): Locator {
  return page.getByTestId('list-table').locator('tbody tr', { hasText: text });
}

async function search(page: Page, text: string): Promise<void> {
  const answer = page.waitForResponse((r) => new URL(r.url()).searchParams.get('search') === text, {
    timeout: 10_000,
  });
  await page.getByTestId('list-search').fill(text);
  await answer;
}

async function open(page: Page, lang: Lang, path: string): Promise<void> {
  await page.goto(`${prefix(lang)}${path}`);
  const form = path.endsWith('/create') || path.includes('/update/');
  await expect(page.getByTestId(form ? 'record-form' : 'list-table')).toBeVisible();
}

for (const lang of ['kh', 'en'] as Lang[]) {
  test(`catalogue, partners and places in ${lang}`, async ({ browser }) => {
    test.setTimeout(180_000);
    const text = says[lang];
    const context = await newContext(browser, lang);
    const page = await context.newPage();
    await signIn(page, lang);
    const tag = `${run}${lang}`;
    const brand = `Brand ${tag}`;
    const category = { en: `Drinks ${tag}`, kh: `ភេសជ្ជៈ ${tag}` };
    const sub = { en: `Soft drinks ${tag}`, kh: `ភេសជ្ជៈស្រាល ${tag}` };
    const base = { en: `Can ${tag}`, kh: `កំប៉ុង ${tag}`, short: `c${tag}`.slice(0, 10) };
    const carton = { en: `Carton ${tag}`, kh: `កេស ${tag}`, short: `k${tag}`.slice(0, 10) };
    const shown = (names: { en: string; kh: string }) => names[lang];

    await test.step('the menu opens the brands list through its group', async () => {
      await page.getByTestId('menu-menu.group.catalogue').click();
      await page.getByTestId('menu-/brands').click();
      await expect(page).toHaveURL(new RegExp(`${prefix(lang)}/brands$`));
      await expect(page.getByTestId('list-table')).toBeVisible();
    });

    await test.step('a brand: the form refuses an empty name, then creates it', async () => {
      await page.getByTestId('create').click();
      await expect(page).toHaveURL(new RegExp(`${prefix(lang)}/brands/create$`));
      await page.getByTestId('save').click();
      await expect(page.getByTestId('record-form')).toContainText(text.required);
      await page.locator('#record_name').fill(brand);
      await page.locator('#record_description').fill('E2E');
      await page.getByTestId('save').click();
      await toast(page, text.brandCreated);
      await expect(page).toHaveURL(new RegExp(`${prefix(lang)}/brands$`));
    });

    await test.step('a category and a sub-category under it', async () => {
      await open(page, lang, '/categories/create');
      await page.locator('#record_name_kh').fill(category.kh);
      await page.locator('#record_name_en').fill(category.en);
      await page.getByTestId('save').click();
      await toast(page, text.categoryCreated);

      await open(page, lang, '/subCategories/create');
      await pick(page, page.locator('#record_category_id'), tag, shown(category));
      await page.locator('#record_name_kh').fill(sub.kh);
      await page.locator('#record_name_en').fill(sub.en);
      await page.getByTestId('save').click();
      await toast(page, text.subCategoryCreated);
      await search(page, tag);
      await expect(row(page, shown(sub))).toContainText(shown(category));
    });

    await test.step('a base unit and a carton of 24 of it', async () => {
      await open(page, lang, '/units/create');
      await page.locator('#record_name_kh').fill(base.kh);
      await page.locator('#record_name_en').fill(base.en);
      await page.locator('#record_short_name').fill(base.short);
      await page.getByTestId('save').click();
      await toast(page, text.unitCreated);

      await open(page, lang, '/units/create');
      await page.locator('#record_name_kh').fill(carton.kh);
      await page.locator('#record_name_en').fill(carton.en);
      await page.locator('#record_short_name').fill(carton.short);
      await pick(page, page.locator('#record_base_unit_id'), tag, shown(base));
      await page.locator('#record_factor').fill('24');
      await snap(page, `unit-form-${lang}-light`);
      await page.getByTestId('save').click();
      await toast(page, text.unitCreated);
      await search(page, tag);
      await expect(row(page, shown(carton))).toContainText(`24 × ${shown(base)}`);
      await snap(page, `units-${lang}-light`);
    });

    await test.step('find the brand, delete it and restore it, each after a confirmation', async () => {
      await open(page, lang, '/brands');
      await search(page, brand);
      await expect(page.getByTestId('list-table').locator('tbody tr.ant-table-row')).toHaveCount(1);
      await row(page, brand).getByRole('button', { name: text.delete }).click();
      // the question says what happens: it can be brought back
      await expect(await confirmation(page)).toContainText(text.restore);
      await snap(page, `brand-delete-confirm-${lang}`);
      await confirm(page, text.delete);
      await toast(page, text.brandDeleted);
      await expect(row(page, brand)).toHaveCount(0);

      await page.getByTestId('show-deleted').click();
      await row(page, brand).getByRole('button', { name: text.restore }).click();
      await confirm(page, text.restore);
      await toast(page, text.brandRestored);
      await expect(row(page, brand)).toHaveCount(0);
      await page.getByTestId('show-deleted').click();
      await expect(row(page, brand)).toHaveCount(1);
    });

    await test.step('a category still used by a sub-category is not deleted', async () => {
      await open(page, lang, '/categories');
      await search(page, tag);
      await row(page, shown(category)).getByRole('button', { name: text.delete }).click();
      await confirm(page, text.delete);
      await toast(page, text.categoryInUse);
      await expect(row(page, shown(category))).toHaveCount(1);
    });

    await test.step('a store with its village, picked province by province', async () => {
      const name = `Store ${tag}`;
      await open(page, lang, '/stores/create');
      await page.locator('#record_name').fill(name);
      await page.locator('#record_code').fill(`S-${tag}`);
      await page.locator('#record_phone').fill('012 345 678');
      await pick(page, page.getByTestId('location-province'), 'Phnom', lang === 'kh' ? 'ភ្នំពេញ' : 'Phnom Penh');
      await pick(page, page.getByTestId('location-district'));
      await pick(page, page.getByTestId('location-commune'));
      const village = await pick(page, page.getByTestId('location-village'));
      await snap(page, `store-form-${lang}-light`);
      await page.getByTestId('save').click();
      await toast(page, text.storeCreated);
      await search(page, name);
      const stored = row(page, name);
      // the location reads in the page's language
      await expect(stored).toContainText(lang === 'kh' ? 'ភ្នំពេញ' : 'Phnom Penh');
      await expect(stored).toContainText(village);

      // the form of an existing store reads its province, district and commune back from the village
      await stored.getByTestId(/^edit-/).click();
      await expect(page.getByTestId('location-village')).toContainText(village);
      await expect(page.getByTestId('location-province')).toContainText(lang === 'kh' ? 'ភ្នំពេញ' : 'Phnom Penh');
    });

    await test.step('the gazetteer lists carry their attribution', async () => {
      await open(page, lang, '/villages');
      await expect(page.getByTestId('gazetteer-attribution')).toContainText('Open Development Cambodia');
      await snap(page, `villages-${lang}-light`);
    });

    await test.step('the same screens in dark mode', async () => {
      await setColorMode(page, 'dark');
      await open(page, lang, '/units');
      await search(page, tag);
      await expect(page.locator('html')).toHaveClass(/p-dark/);
      await snap(page, `units-${lang}-dark`);
      await open(page, lang, '/stores/create');
      await pick(page, page.getByTestId('location-province'), 'Kampot', lang === 'kh' ? 'កំពត' : 'Kampot');
      await page.getByTestId('save').click();
      await expect(page.getByTestId('record-form')).toContainText(text.required);
      await snap(page, `store-form-${lang}-dark`);
      await setColorMode(page, 'light');
    });
    await context.close();
  });
}

test('a cashier sees only what the role allows: no way to add or delete categories', async ({ browser, request }) => {
  // a category to look at, made by the administrator through the API
  const login = await request.post('/api/login', { data: { name: 'admin', password: ADMIN_PASSWORD } });
  const { token } = (await login.json()) as { token: string };
  const made = await request.post('/api/categories', {
    headers: { authorization: `Bearer ${token}` },
    data: { name_en: `Snacks ${run}`, name_kh: `នំ ${run}` },
  });
  expect(made.status()).toBe(201);

  const context = await newContext(browser, 'en');
  const page = await context.newPage();
  await signIn(page, 'en', CASHIER.name, CASHIER.password);
  await page.getByTestId('menu-menu.group.catalogue').click();
  await expect(page.getByTestId('menu-/categories')).toBeVisible();
  await expect(page.getByTestId('menu-/brands')).toHaveCount(0);
  // places are read-only for a cashier: every address form picks a village
  await expect(page.getByTestId('menu-menu.group.gazetteer')).toBeVisible();
  await page.getByTestId('menu-/categories').click();
  await search(page, `Snacks ${run}`);
  await expect(row(page, `Snacks ${run}`)).toHaveCount(1);
  await expect(page.getByTestId('create')).toHaveCount(0);
  await expect(page.getByTestId('list-table').getByRole('button', { name: 'Delete' })).toHaveCount(0);
  await expect(page.getByTestId('show-deleted')).toHaveCount(0);
  await page.goto('/en/categories/create');
  await expect(page).toHaveURL(/\/en\/no-permission$/);
  await context.close();
});
