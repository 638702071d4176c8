import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database.ts';
import { stockIn } from './factories.ts';

/** A product with stock in the first store, and a way to sell it: for suites about what follows a sale. */
export async function sellableProduct(
  app: FastifyInstance,
  db: Db,
  headers: Record<string, string>,
  priceCents: number,
) {
  const post = async (url: string, body: object) => {
    const res = await app.inject({ method: 'POST', url, headers, payload: body });
    if (res.statusCode !== 201) throw new Error(`${url}: ${res.body}`);
    return res.json().data.id as number;
  };
  const tag = Math.random().toString(36).slice(2, 8);
  const category = await post('/api/categories', { name_en: `Goods ${tag}`, name_kh: `ទំនិញ ${tag}` });
  const unit = await post('/api/units', { name_en: `Piece ${tag}`, name_kh: `ដុំ ${tag}`, short_name: tag });
  const product = await post('/api/products', {
    name_en: `Soap ${tag}`,
    name_kh: `សាប៊ូ ${tag}`,
    sku: `SOAP-${tag}`,
    category_id: category,
    unit_id: unit,
    price_usd_cents: priceCents,
    taxable: false,
  });
  const store = await db.selectFrom('stores').select('id').orderBy('id').executeTakeFirstOrThrow();
  const walkIn = await db.selectFrom('customers').select('id').where('is_walk_in', '=', 1).executeTakeFirstOrThrow();
  await stockIn(db, { store: store.id, product, quantity: 1000, valueCents: 1000 * Math.floor(priceCents / 2) });
  /** Sells `quantity` of it with these tenders (none: an unpaid sale); answers the order. */
  const sell = async (quantity: number, payments: object[] = [], as = headers) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: as,
      payload: { customer_id: walkIn.id, items: [{ product_id: product, quantity }], payments },
    });
    if (res.statusCode !== 201) throw new Error(`sale: ${res.body}`);
    return res.json().data as { id: number; number: string; total_cents: number; due_cents: number; total_khr: number };
  };
  return { product, storeId: store.id, sell };
}
