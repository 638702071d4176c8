import type { PurchaseInput } from '@depot/contracts';
import { sql } from 'kysely';
import { beforeAll, expect } from 'vitest';
import { BEER, factories, firstStore, RICE, WATER } from '../../test/factories.ts';
import { ADMIN_PASSWORD, bearer, login, useTestApp } from '../../test/harness.ts';

type Headers = Record<string, string>;

/**
 * The purchases suites' set-up (purchases.test.ts, purchases.payments.test.ts): the server on a
 * fresh database, the admin signed in, beer and water by the can (a carton is 24), rice by the
 * kilogram, a supplier, and the helpers that order, receive and pay. Call it where `describe`
 * bodies run; each call is its own suite.
 */
export function purchasesSuite() {
  const ctx = useTestApp();
  let token = '';
  const ids = {} as Record<'piece' | 'carton' | 'kilo' | 'beer' | 'water' | 'rice' | 'supplier' | 'store', number>;
  const en = (): Headers => ({ ...bearer(token), 'x-localization': 'en' });
  const inKhmer = (): Headers => ({ ...bearer(token), 'x-localization': 'kh' });
  const make = factories(ctx, en);

  async function send(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, headers: Headers = en()) {
    const res = await ctx.app.inject({ method, url, headers, payload });
    return { status: res.statusCode, body: res.json() };
  }

  beforeAll(async () => {
    token = (await login(ctx.app, 'admin', ADMIN_PASSWORD)).token;
    const { drinks, can, carton, kilo } = await make.catalogue('carton', 'kilo');
    Object.assign(ids, { piece: can, carton, kilo });
    const product = (name: { name_en: string; name_kh: string }, sku: string, unit_id: number) =>
      make.product({ ...name, sku, category_id: drinks, unit_id });
    ids.beer = await product(BEER, 'ANG-330', ids.piece);
    ids.water = await product(WATER, 'VIT-500', ids.piece);
    ids.rice = await product(RICE, 'RICE-1', ids.kilo);
    ids.supplier = await make.create('/api/suppliers', { name: 'Cambrew Ltd' });
    ids.store = await firstStore(ctx.db);
  });

  function order(overrides: Partial<PurchaseInput> = {}): PurchaseInput {
    return {
      supplier_id: ids.supplier,
      store_id: ids.store,
      purchase_date: '2025-03-02',
      items: [{ product_id: ids.beer, unit_id: ids.carton, quantity: 100, unit_price_cents: 1000 }],
      ...overrides,
    };
  }

  async function create(overrides: Partial<PurchaseInput> = {}) {
    const res = await send('POST', '/api/purchases', order(overrides));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data;
  }

  const receive = (id: number, items: { item_id: number; quantity: number }[], headers?: Headers) =>
    send('POST', `/api/purchases/${id}/receive`, { items }, headers);
  const pay = (id: number, amount_cents: number, paid_at = '2025-03-05', headers?: Headers) =>
    send('POST', `/api/purchases/${id}/payments`, { amount_cents, method: 'bank_transfer', paid_at }, headers);

  /** Base units of a product in the store, from the stock levels. */
  async function stockOf(productId: number): Promise<number> {
    const row = await ctx.db
      .selectFrom('stock_levels')
      .select(sql<number>`coalesce(sum(quantity), 0)`.as('n'))
      .where('product_id', '=', productId)
      .where('store_id', '=', ids.store)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The purchase receipts of a purchase's product, oldest first. */
  async function receipts(purchaseId: number, productId: number) {
    const rows = await ctx.db
      .selectFrom('stock_movements')
      .innerJoin('stock_batches', 'stock_batches.id', 'stock_movements.batch_id')
      .select([
        'stock_movements.quantity',
        'stock_movements.value_cents',
        'stock_batches.lot',
        'stock_batches.expiry_date',
      ])
      .where('stock_movements.type', '=', 'purchase_receipt')
      .where('stock_movements.document_type', '=', 'purchase')
      .where('stock_movements.document_id', '=', purchaseId)
      .where('stock_movements.product_id', '=', productId)
      .orderBy('stock_movements.id')
      .execute();
    return rows.map((r) => ({ ...r, quantity: Number(r.quantity), value_cents: Number(r.value_cents) }));
  }

  return { ctx, ids, en, inKhmer, send, order, create, receive, pay, stockOf, receipts };
}
