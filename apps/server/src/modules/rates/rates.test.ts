import { DEFAULT_SALE_SETTINGS, type SaleSettingsInput, usdCentsToKhr } from '@depot/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, bearer, createUser, login, useTestApp } from '../../test/harness.ts';
import { saleRates } from './rates.service.ts';

const ctx = useTestApp();
let token: string;
let productId: number;

type Headers = Record<string, string>;
const en = (): Headers => ({ ...bearer(token), 'x-localization': 'en' });

async function send(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, headers = en()) {
  const res = await ctx.app.inject({ method, url, headers, payload });
  return { status: res.statusCode, body: res.json() };
}

const current = async () => (await send('GET', '/api/exchange-rates/current')).body.data;
const rielPrice = async () => (await send('GET', `/api/products/${productId}`)).body.data.price_khr_effective;
const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();

const settings = (overrides: Partial<SaleSettingsInput> = {}): SaleSettingsInput => ({
  vat_rate_bp: 1000,
  khr_rounding_step: 100,
  stale_after_hours: 24,
  receipt_title: 'Depot Phnom Penh',
  receipt_footer: 'សូមអរគុណ សូមអញ្ជើញមកម្តងទៀត',
  ...overrides,
});

beforeAll(async () => {
  token = (await login(ctx.app, 'admin', ADMIN_PASSWORD)).token;
  const category = (await send('POST', '/api/categories', { name_en: 'Drinks', name_kh: 'ភេសជ្ជៈ' })).body.data.id;
  const unit = (await send('POST', '/api/units', { name_en: 'Can', name_kh: 'កំប៉ុង', short_name: 'can' })).body.data.id;
  productId = (
    await send('POST', '/api/products', {
      name_en: 'Angkor beer',
      name_kh: 'ស្រាបៀរអង្គរ',
      sku: 'ANG-330',
      category_id: category,
      unit_id: unit,
      price_usd_cents: 250,
    })
  ).body.data.id;
});

describe('a fresh installation', () => {
  it('has the sale settings’ defaults, filled in by the seed', async () => {
    const res = await send('GET', '/api/settings/sale');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(DEFAULT_SALE_SETTINGS);
    expect(res.body.data).toMatchObject({ vat_rate_bp: 1000, khr_rounding_step: 100, stale_after_hours: 24 });
  });
});

describe('the exchange rate', () => {
  it('before any rate: the settings’ rate, never updated, stale', async () => {
    expect(await current()).toEqual({
      rate_khr: 4100,
      rate_in_khr: null,
      rate_out_khr: null,
      khr_step: 100,
      vat_rate_bp: 1000,
      stale_after_hours: 24,
      updated_at: null,
      updated_by_name: null,
      stale: true,
      receipt_title: '',
      receipt_footer: 'សូមអរគុណ! Thank you!',
    });
    expect((await send('GET', '/api/exchange-rates')).body).toMatchObject({ data: [], meta: { total: 0 } });
    // $2.50 at 4100: 10,250 riel, rounded half up to 10,300
    expect(await rielPrice()).toBe(10_300);
  });

  it('records a rate: it is current, fresh, and products’ riel prices follow it', async () => {
    const res = await send('POST', '/api/exchange-rates', {
      rate_khr: 4010,
      rate_in_khr: 4050,
      rate_out_khr: 3990,
      note: 'Bank rate this morning',
    });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Exchange rate updated: 4010 riel per dollar.');
    expect(res.body.data).toMatchObject({
      rate_khr: 4010,
      rate_in_khr: 4050,
      rate_out_khr: 3990,
      note: 'Bank rate this morning',
      created_by_name: 'Administrator',
    });
    const now = await current();
    expect(now).toEqual({
      rate_khr: 4010,
      rate_in_khr: 4050,
      rate_out_khr: 3990,
      khr_step: 100,
      vat_rate_bp: 1000,
      stale_after_hours: 24,
      updated_at: res.body.data.created_at,
      updated_by_name: 'Administrator',
      stale: false,
      receipt_title: '',
      receipt_footer: 'សូមអរគុណ! Thank you!',
    });
    const stored = await ctx.db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', 'exchange_rate_khr')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(stored.value)).toBe(4010);
    // $2.50 at the rate riel is received at, 4050: 10,125 riel, rounded to 10,100 (what a
    // customer paying riel hands over for it, not 10,000 at the day's 4010)
    expect(await rielPrice()).toBe(10_100);
    expect(await rielPrice()).toBe(usdCentsToKhr(250, 4050, 100));
    expect(await saleRates(ctx.db)).toEqual({
      rate_khr: 4010,
      rate_in_khr: 4050,
      rate_out_khr: 3990,
      khr_step: 100,
      vat_rate_bp: 1000,
    });
  });

  it('keeps the history, newest first, a page at a time', async () => {
    const later = await send('POST', '/api/exchange-rates', { rate_khr: 4020 });
    expect(later.status).toBe(201);
    expect(later.body.data).toMatchObject({ rate_khr: 4020, rate_in_khr: null, rate_out_khr: null, note: null });
    const history = await send('GET', '/api/exchange-rates');
    expect(history.status).toBe(200);
    expect(history.body.data.map((r: { rate_khr: number }) => r.rate_khr)).toEqual([4020, 4010]);
    expect(history.body.meta).toMatchObject({ total: 2, current_page: 1, last_page: 1 });
    const page = await send('GET', '/api/exchange-rates?per_page=10&page=2');
    expect(page.body.data).toEqual([]);
    expect(await current()).toMatchObject({ rate_khr: 4020, rate_in_khr: null, rate_out_khr: null, stale: false });
    expect((await saleRates(ctx.db)).rate_in_khr).toBeNull();
  });

  it('is stale once older than the settings allow', async () => {
    const newest = await ctx.db
      .selectFrom('exchange_rates')
      .select('id')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    await ctx.db
      .updateTable('exchange_rates')
      .set({ created_at: hoursAgo(25) })
      .where('id', '=', newest.id)
      .execute();
    await ctx.db
      .updateTable('exchange_rates')
      .set({ created_at: hoursAgo(30) })
      .where('id', '!=', newest.id)
      .execute();
    const old = await current();
    expect(old).toMatchObject({ rate_khr: 4020, stale: true, stale_after_hours: 24 });
    expect(Date.now() - new Date(old.updated_at).getTime()).toBeGreaterThan(25 * 3_600_000 - 60_000);

    expect((await send('PUT', '/api/settings/sale', settings({ stale_after_hours: 48 }))).status).toBe(200);
    expect(await current()).toMatchObject({ stale: false, stale_after_hours: 48 });
    await send('PUT', '/api/settings/sale', settings());
    expect(await current()).toMatchObject({ stale: true });
  });

  it('refuses a rate out of 1000 to 10000 riel per dollar', async () => {
    const res = await send('POST', '/api/exchange-rates', { rate_khr: 999, rate_in_khr: 10_001, rate_out_khr: 40.5 });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      rate_khr: ['Must be at least 1000.'],
      rate_in_khr: ['Must be at most 10000.'],
      rate_out_khr: ['The value is not valid.'],
    });
    const kh = await send('POST', '/api/exchange-rates', {}, { ...bearer(token), 'x-localization': 'kh' });
    expect(kh.body.errors).toEqual({ rate_khr: ['ប្រអប់នេះត្រូវតែបំពេញ!'] });
    expect((await current()).rate_khr).toBe(4020);
  });
});

describe('the sale settings', () => {
  it('are saved whole; the riel step reaches the till and products’ riel prices', async () => {
    const res = await send(
      'PUT',
      '/api/settings/sale',
      settings({ vat_rate_bp: 0, khr_rounding_step: 500, receipt_title: ' ហាងលក់ដុំ Depot ', receipt_footer: null }),
    );
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Sale settings saved.');
    expect(res.body.data).toEqual({
      vat_rate_bp: 0,
      khr_rounding_step: 500,
      stale_after_hours: 24,
      receipt_title: 'ហាងលក់ដុំ Depot',
      receipt_footer: '',
      // left out of the form: unchanged
      tax_rate_policy: 'market',
    });
    expect((await send('GET', '/api/settings/sale')).body.data).toEqual(res.body.data);
    expect(await current()).toMatchObject({ khr_step: 500, vat_rate_bp: 0 });
    // $2.50 at 4020: 10,050 riel, rounded half up to the 500 step
    expect(await rielPrice()).toBe(10_000);
    expect(await rielPrice()).toBe(usdCentsToKhr(250, 4020, 500));
    expect(await saleRates(ctx.db)).toMatchObject({ khr_step: 500, vat_rate_bp: 0 });
    await send('PUT', '/api/settings/sale', settings());
    expect(await rielPrice()).toBe(10_100);
  });

  it('refuse what is out of range, field by field', async () => {
    const res = await send('PUT', '/api/settings/sale', {
      vat_rate_bp: 3001,
      khr_rounding_step: 200,
      stale_after_hours: 0,
      receipt_title: 'ក'.repeat(201),
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      vat_rate_bp: ['Must be at most 3000.'],
      khr_rounding_step: ['Choose one of the allowed values.'],
      stale_after_hours: ['Must be at least 1.'],
      receipt_title: ['Must be at most 200 characters.'],
    });
    const kh = await send('PUT', '/api/settings/sale', settings({ stale_after_hours: 721 }), {
      ...bearer(token),
      'x-localization': 'kh',
    });
    expect(kh.body.errors).toEqual({ stale_after_hours: ['មិនត្រូវលើសពី 720។'] });
    expect((await send('PUT', '/api/settings/sale', { ...settings(), vat_rate_bp: undefined })).body.errors).toEqual({
      vat_rate_bp: ['This field is required!'],
    });
  });

  it('read as their defaults when a stored value no longer fits, by the till and by products alike', async () => {
    const store = (key: string, value: string) =>
      ctx.db.updateTable('settings').set({ value }).where('key', '=', key).execute();
    await send('PUT', '/api/settings/sale', settings({ khr_rounding_step: 500, vat_rate_bp: 0 }));
    await store('khr_rounding_step', '"not json');
    await store('vat_rate_bp', '"ten"');
    const till = await current();
    expect(till).toMatchObject({
      khr_step: DEFAULT_SALE_SETTINGS.khr_rounding_step,
      vat_rate_bp: DEFAULT_SALE_SETTINGS.vat_rate_bp,
    });
    expect(await saleRates(ctx.db)).toEqual({
      rate_khr: till.rate_khr,
      rate_in_khr: till.rate_in_khr,
      rate_out_khr: till.rate_out_khr,
      khr_step: till.khr_step,
      vat_rate_bp: till.vat_rate_bp,
    });
    await send('PUT', '/api/settings/sale', settings());
  });
});

describe('rate and sale-settings permissions', () => {
  it('lets a cashier read the current rate and the history, and change nothing', async () => {
    const cashier = await createUser(ctx.db, { roles: ['cashier'] });
    const headers = { ...bearer((await login(ctx.app, cashier.name, cashier.password)).token), 'x-localization': 'en' };
    const now = await send('GET', '/api/exchange-rates/current', undefined, headers);
    expect(now.status).toBe(200);
    expect(now.body.data.rate_khr).toBe(4020);
    expect((await send('GET', '/api/exchange-rates', undefined, headers)).status).toBe(200);
    const refused = await send('POST', '/api/exchange-rates', { rate_khr: 5000 }, headers);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('You do not have permission to do this.');
    expect((await send('GET', '/api/settings/sale', undefined, headers)).status).toBe(403);
    expect((await send('PUT', '/api/settings/sale', settings(), headers)).status).toBe(403);
    expect((await current()).rate_khr).toBe(4020);
  });

  it('lets a manager enter a rate and read the sale settings, not change them', async () => {
    const manager = await createUser(ctx.db, { roles: ['manager'] });
    const headers = { ...bearer((await login(ctx.app, manager.name, manager.password)).token), 'x-localization': 'en' };
    expect((await send('POST', '/api/exchange-rates', { rate_khr: 4030 }, headers)).status).toBe(201);
    expect((await current()).updated_by_name).toBe(`Test ${manager.name}`);
    expect((await send('GET', '/api/settings/sale', undefined, headers)).status).toBe(200);
    expect((await send('PUT', '/api/settings/sale', settings(), headers)).status).toBe(403);
  });
});
