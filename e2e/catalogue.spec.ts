import type { Locator, Page } from '@playwright/test';
import { ADMIN_PASSWORD, CASHIER } from './playwright.config.ts';
import {
  adminApi,
  confirm,
  confirmation,
  ean13,
  expect,
  type Lang,
  mainStore,
  newContext,
  pick,
  prefix,
  setColorMode,
  signIn,
  snap,
  test,
  toast,
} from './support.ts';

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
    productCreated: 'បានបង្កើតផលិតផលដោយជោគជ័យ។',
    productDeleted: 'បានលុបផលិតផលដោយជោគជ័យ។',
    productRestored: 'បានស្ដារផលិតផលឡើងវិញដោយជោគជ័យ។',
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
    productCreated: 'Product created.',
    productDeleted: 'Product deleted.',
    productRestored: 'Product restored.',
    categoryInUse: 'Category cannot be deleted: sub-categories still use it (1).',
    delete: 'Delete',
    restore: 'Restore',
    required: 'This field is required!',
  },
} as const;

/** A small green square as a PNG: a real picture for the upload, made without any file on disk. */
const PICTURE_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAEAAAABACAIAAAAlC+aJAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAn0lEQVRoge2SQQkAQRDDqiKianONnoh7hIFCBKSh4fU00Q3YgOoV2YV6l+gGbED1iuxCvUt0AzagekV2od4lugEbUL0iu1DvEt2ADahekV2od4luwAZUr8gu1LtEN2ADqldkF+pdohuwAdUrsgv1LtEN2IDqFdmFepfoBmxA9YrsQr1LdAM2oHpFdqHeJboBG1C9IrtQ7xLdgA2oXvEPH9M3MPHM06BMAAAAAElFTkSuQmCC',
  'base64',
);

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
      await confirm(page, text.delete, text.brandDeleted);
      await expect(row(page, brand)).toHaveCount(0);

      await page.getByTestId('show-deleted').click();
      await row(page, brand).getByRole('button', { name: text.restore }).click();
      await confirm(page, text.restore, text.brandRestored);
      await expect(row(page, brand)).toHaveCount(0);
      await page.getByTestId('show-deleted').click();
      await expect(row(page, brand)).toHaveCount(1);
    });

    await test.step('a product with a picture, found by its barcode, deleted and restored', async () => {
      const barcode = ean13('20', `${run}${lang === 'kh' ? 1 : 2}`);
      const name = { en: `Soda can ${tag}`, kh: `សូដាកំប៉ុង ${tag}` };
      await open(page, lang, '/products/create');
      await page.locator('#record_name_kh').fill(name.kh);
      await page.locator('#record_name_en').fill(name.en);
      await page.locator('#record_sku').fill(`SODA-${tag}`);
      await page.locator('#record_barcode').fill(barcode);
      await pick(page, page.locator('#record_brand_id'), tag, brand);
      await pick(page, page.locator('#record_category_id'), tag, shown(category));
      await pick(page, page.locator('#record_sub_category_id'), undefined, shown(sub));
      await pick(page, page.locator('#record_unit_id'), tag, shown(base));
      await page.locator('#record_price_usd_cents').fill('1.26');
      await page.locator('#record_cost_usd_cents').fill('0.90');
      await page
        .locator('input[type=file]')
        .setInputFiles({ name: 'soda.png', mimeType: 'image/png', buffer: PICTURE_PNG });
      await expect(page.getByTestId('image-preview')).toBeVisible();
      await snap(page, `product-form-${lang}-light`);
      const pictureSent = page.waitForResponse((r) => /\/api\/products\/\d+\/image$/.test(r.url()));
      await page.getByTestId('save').click();
      expect((await pictureSent).status()).toBe(200);
      await toast(page, text.productCreated);
      await expect(page).toHaveURL(new RegExp(`${prefix(lang)}/products$`));

      // a scanner types the barcode into the search box
      await search(page, barcode);
      const found = row(page, name[lang]);
      await expect(page.getByTestId('list-table').locator('tbody tr.ant-table-row')).toHaveCount(1);
      await expect(found).toContainText('$1.26');
      await expect(found).toContainText('5,200៛');
      await expect(found.locator('img.ant-image-img')).toHaveAttribute('src', /\/uploads\/products\/.+-thumb\.webp$/);
      await snap(page, `products-${lang}-light`);

      await found.getByRole('button', { name: text.delete }).click();
      await confirm(page, text.delete, text.productDeleted);
      await expect(found).toHaveCount(0);
      await page.getByTestId('show-deleted').click();
      await row(page, name[lang]).getByRole('button', { name: text.restore }).click();
      await confirm(page, text.restore, text.productRestored);
      await page.getByTestId('show-deleted').click();
      await expect(row(page, name[lang])).toHaveCount(1);
    });

    await test.step('a category still used by a sub-category is not deleted', async () => {
      await open(page, lang, '/categories');
      await search(page, tag);
      await row(page, shown(category)).getByRole('button', { name: text.delete }).click();
      await confirm(page, text.delete, text.categoryInUse);
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
      await open(page, lang, '/products');
      await search(page, tag);
      await expect(page.getByTestId('list-table').locator('tbody tr.ant-table-row')).toHaveCount(1);
      await snap(page, `products-${lang}-dark`);
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

test('a manager of one store gives a new product opening stock in that store only', async ({ browser, request }) => {
  const api = await adminApi(request);
  const home = await mainStore(api);
  const other = await api.post<{ id: number; name: string; code: string }>('stores', {
    name: `Kampot ${run}`,
    code: `KP-${run}`,
  });
  const roles = await api.get<{ data: { id: number; name: string }[] }>('roles');
  const manager = roles.data.find((r) => r.name === 'manager');
  const name = `mgr_${run}`;
  const password = 'manager-pass-1';
  await api.post('users', {
    name,
    full_name: `Manager ${run}`,
    password,
    password_confirmation: password,
    store_id: home.id,
    store_ids: [],
    role_ids: [manager?.id],
  });
  for (const lang of ['kh', 'en'] as const) {
    const context = await newContext(browser, lang);
    const page = await context.newPage();
    await signIn(page, lang, name, password);
    await page.goto(`${prefix(lang)}/products/create`);
    const opening = page.getByTestId('opening-stock');
    await expect(opening).toContainText(`${home.name} (${home.code})`);
    await expect(opening).not.toContainText(other.code);
    await opening.scrollIntoViewIfNeeded();
    await snap(page, `product-opening-covered-${lang}-light`);
    await context.close();
  }
});

test('products from a spreadsheet: mistakes listed and nothing imported, then imported and exported', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const login = await request.post('/api/login', { data: { name: 'admin', password: ADMIN_PASSWORD } });
  const { token } = (await login.json()) as { token: string };
  const headers = { authorization: `Bearer ${token}` };
  const post = async (url: string, data: object) => {
    const made = await request.post(url, { headers, data });
    expect(made.status()).toBe(201);
  };
  await post('/api/categories', { name_en: `Noodles ${run}`, name_kh: `មី ${run}` });
  await post('/api/units', { name_en: `Pack ${run}`, name_kh: `កញ្ចប់ ${run}`, short_name: `p${run}`.slice(0, 10) });

  const header = 'sku,name_kh,name_en,category,unit,price_usd,price_khr';
  const good = (sku: string, kh: string, en: string) => `${sku},${kh},${en},មី ${run},p${run}`;
  const csv = (lines: string[]) => Buffer.from(`\uFEFF${[header, ...lines].join('\r\n')}\r\n`);
  const wrong = csv([
    `${good(`MAMA-${run}`, `មីម៉ាម៉ា ${run}`, `Mama pork ${run}`)},0.35,`,
    `YUM-${run},មីយំយំ ${run},Yum yum ${run},Toys ${run},p${run},abc,`,
  ]);
  const right = csv([
    `${good(`MAMA-${run}`, `មីម៉ាម៉ា ${run}`, `Mama pork ${run}`)},0.35,`,
    `${good(`YUM-${run}`, `មីយំយំ ${run}`, `Yum yum ${run}`)},0.40,1500`,
  ]);

  for (const lang of ['en', 'kh'] as Lang[]) {
    const context = await newContext(browser, lang);
    const page = await context.newPage();
    await signIn(page, lang);
    await open(page, lang, '/products');
    await page.getByTestId('import').click();
    const dialog = page.getByTestId('import-dialog');
    await dialog
      .locator('input[type=file]')
      .setInputFiles({ name: 'products.csv', mimeType: 'text/csv', buffer: wrong });
    const result = dialog.getByTestId('import-result');
    await expect(result).toContainText(lang === 'en' ? 'Nothing was imported' : 'គ្មានអ្វី');
    await expect(result.locator('tbody tr.ant-table-row')).toHaveCount(2);
    await expect(result).toContainText(`Toys ${run}`);
    await expect(result).toContainText('price_usd');
    await snap(page, `product-import-errors-${lang}`);
    if (lang === 'kh') {
      await context.close();
      continue;
    }
    const report = page.waitForEvent('download');
    await result.getByTestId('import-report').click();
    const saved = await (await report).path();
    const text = (await import('node:fs')).readFileSync(saved, 'utf8');
    expect(text).toMatch(/^\uFEFFRow,Column,Value,Problem\r\n3,category,Toys/);
    await search(page, run);
    await expect(row(page, `Mama pork ${run}`)).toHaveCount(0);

    await dialog
      .locator('input[type=file]')
      .setInputFiles({ name: 'products.csv', mimeType: 'text/csv', buffer: right });
    await expect(result).toContainText('Products imported: 2 (2 created, 0 updated).');
    await snap(page, `product-import-done-${lang}`);
    await page.getByTestId('import-close').click();
    // its own riel price is its label price, told beside the till's figure (money.ts)
    await expect(row(page, `Yum yum ${run}`).getByTitle(/1,500៛/)).toBeVisible();
    await expect(row(page, `Mama pork ${run}`)).toContainText('$0.35');

    const exported = page.waitForEvent('download');
    await page.getByTestId('export').hover();
    await page.getByText('Excel (.xlsx)').click();
    expect((await exported).suggestedFilename()).toMatch(/^products-\d{4}-\d{2}-\d{2}\.xlsx$/);
    await context.close();
  }
});
