import fs from 'node:fs';
import path from 'node:path';
import { SAMPLE_PLAN } from '@depot/contracts';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/database.ts';
import { localDayOf } from '../../db/rollups.ts';
import { ADMIN_PASSWORD, bearer, createUser, login, useTestApp } from '../../test/harness.ts';
import { auditLedger } from '../stock/ledger.ts';

const ctx = useTestApp();
let admin: Record<string, string>;

const TABLES = [
  'products',
  'brands',
  'categories',
  'units',
  'customers',
  'suppliers',
  'stores',
  'users',
  'user_stores',
  'purchases',
  'purchase_items',
  'purchase_payments',
  'orders',
  'order_items',
  'order_item_batches',
  'order_payments',
  'invoices',
  'stock_batches',
  'stock_levels',
  'stock_valuations',
  'stock_movements',
  'search_terms',
  'sample_records',
  'sample_loads',
  // the reports' daily rollups: back to before once the samples are removed
  'daily_sales',
  'daily_orders',
  'daily_payments',
  'daily_stock',
  'daily_customers',
] as const;

async function counts(db: Db): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of TABLES) {
    const row = await db.selectFrom(table).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
    out[table] = Number(row.n);
  }
  return out;
}

async function send(method: 'GET' | 'POST' | 'DELETE', url: string, headers = admin, payload?: object) {
  const res = await ctx.app.inject({ method, url, headers, payload });
  return { status: res.statusCode, body: res.json() };
}

beforeAll(async () => {
  admin = { ...bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token), 'x-localization': 'en' };
});

describe('sample data', () => {
  let before: Record<string, number>;

  it('is an administrator’s: a manager may neither see, load nor remove it', async () => {
    const user = await createUser(ctx.db, { roles: ['manager'] });
    const manager = bearer((await login(ctx.app, user.name, user.password)).token);
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      expect((await send(method, '/api/samples', manager)).status).toBe(403);
    }
  });

  it('is not loaded on a new depot, and an administrator may load it', async () => {
    before = await counts(ctx.db);
    const res = await send('GET', '/api/samples');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'none', loaded_at: null, abilities: { load: true, remove: false } });
  });

  it('loads a demo depot through the services: stock, payments, invoices and search are real', {
    timeout: 180_000,
  }, async () => {
    const res = await send('POST', '/api/samples');
    expect(res.status).toBe(200);
    expect(res.body.message).toMatch(/^Sample data loaded: 20 products, 6 purchases and \d+ sales\.$/);
    const state = res.body.data;
    expect(state).toMatchObject({ status: 'loaded', loaded_by_name: expect.any(String) });
    expect(state.loaded_at).toEqual(expect.any(String));
    expect(state.abilities).toEqual({ load: false, remove: true });
    expect(state.counts).toMatchObject({
      products: 20,
      brands: 6,
      categories: 6,
      units: 6,
      suppliers: 3,
      customers: 6,
    });
    expect(state.counts.stores).toBe(1);
    expect(state.counts.orders).toBe(SAMPLE_PLAN.orders);
    expect(state.counts.invoices).toBe(state.counts.orders);

    // the ledger holds: every level is the sum of its movements
    expect(await auditLedger(ctx.db)).toEqual([]);

    // two stores sold, every sale paid, in dollars and in riel, over the past weeks
    const orders = await ctx.db.selectFrom('orders').select(['store_id', 'payment_status', 'order_date']).execute();
    expect(new Set(orders.map((o) => o.store_id)).size).toBe(2);
    expect(orders.every((o) => o.payment_status === 'paid')).toBe(true);
    const days = new Set(orders.map((o) => String(o.order_date).slice(0, 10)));
    expect(days.size).toBeGreaterThanOrEqual(15);
    expect(orders.every((o) => Date.parse(String(o.order_date)) < Date.now())).toBe(true);
    // the reports' daily rollup counts each sale on its back-dated local day, not on the day it was loaded
    const perDay = new Map<string, number>();
    for (const o of orders) perDay.set(localDayOf(o.order_date), (perDay.get(localDayOf(o.order_date)) ?? 0) + 1);
    const rolled = await ctx.db
      .selectFrom('daily_orders')
      .select(['day', sql<number>`sum(orders)`.as('orders')])
      .groupBy('day')
      .having(sql`sum(orders)`, '>', 0)
      .execute();
    expect(new Map(rolled.map((r) => [r.day, Number(r.orders)]))).toEqual(perDay);
    const methods = await ctx.db.selectFrom('order_payments').select('method').distinct().execute();
    expect(methods.map((m) => m.method)).toEqual(expect.arrayContaining(['cash_usd', 'cash_khr']));

    // purchases received in full, some still owed to the supplier
    const purchases = await send('GET', '/api/purchases?per_page=50');
    expect(purchases.body.data).toHaveLength(6);
    expect(purchases.body.data.every((p: { status: string }) => p.status === 'received')).toBe(true);
    expect(new Set(purchases.body.data.map((p: { payment_status: string }) => p.payment_status)).size).toBe(2);

    // Khmer names are searched; each product has its picture, made by the products' pipeline
    const found = await send('GET', `/api/products?search=${encodeURIComponent('ទឹកត្រី')}`);
    expect(found.body.data.map((p: { name_en: string }) => p.name_en)).toEqual(['Fish sauce']);
    const picture = found.body.data[0].image_url as string;
    expect(picture).toMatch(/^\/uploads\/products\/.+\.webp$/);
    expect(fs.existsSync(path.join(ctx.uploadsDir, picture.replace('/uploads/', '')))).toBe(true);
    const invoices = await send('GET', '/api/invoices?per_page=10');
    expect(invoices.body.meta.total).toBe(state.counts.invoices);
  });

  it('loading again adds nothing', async () => {
    const once = await counts(ctx.db);
    const res = await send('POST', '/api/samples');
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('The sample data is already loaded: nothing was added.');
    expect(await counts(ctx.db)).toEqual(once);
  });

  it('removes everything it created and only that: the counts are back to before', async () => {
    const pictures = await ctx.db
      .selectFrom('products')
      .select('image_path')
      .where('image_path', 'is not', null)
      .execute();
    const res = await send('DELETE', '/api/samples');
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Sample data removed.');
    expect(res.body.data).toMatchObject({ status: 'none', abilities: { load: true, remove: false } });
    expect(await counts(ctx.db)).toEqual(before);
    for (const p of pictures) expect(fs.existsSync(path.join(ctx.uploadsDir, String(p.image_path)))).toBe(false);
    expect((await send('DELETE', '/api/samples')).body.message).toBe('There is no sample data to remove.');
  });

  it('two loads at once load it once: the other is told it is under way', { timeout: 180_000 }, async () => {
    const [a, b] = await Promise.all([send('POST', '/api/samples'), send('POST', '/api/samples')]);
    const answers = [a, b].map((r) => `${r.status} ${r.body.message}`).sort();
    expect(answers[0]).toMatch(/^200 Sample data loaded: 20 products/);
    expect(answers[1]).toMatch(
      /^(409 The sample data is being loaded or removed right now\. Try again in a moment\.|200 The sample data is already loaded: nothing was added\.)$/,
    );
    expect((await send('GET', '/api/samples')).body.data.counts.orders).toBe(SAMPLE_PLAN.orders);
    expect(await auditLedger(ctx.db)).toEqual([]);
  });

  it('is not removed while staff’s own records use it, and says which', { timeout: 180_000 }, async () => {
    const water = await ctx.db
      .selectFrom('products')
      .select('id')
      .where('sku', '=', 'SMPL-WATER-05')
      .executeTakeFirstOrThrow();
    const walkIn = await ctx.db
      .selectFrom('customers')
      .select('id')
      .where('is_walk_in', '=', 1)
      .executeTakeFirstOrThrow();
    const sale = await send('POST', '/api/orders', admin, {
      customer_id: walkIn.id,
      items: [{ product_id: water.id, quantity: 2 }],
    });
    expect(sale.status).toBe(201);
    const loaded = await counts(ctx.db);
    const res = await send('DELETE', '/api/samples');
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('records of your own use it (Order: 1, stock movements: 1)');
    const kh = await send('DELETE', '/api/samples', { ...admin, 'x-localization': 'kh' });
    expect(kh.body.message).toContain('ការលក់: 1');
    expect(await counts(ctx.db)).toEqual(loaded);
    expect((await send('GET', '/api/samples')).body.data.status).toBe('loaded');
  });
});
