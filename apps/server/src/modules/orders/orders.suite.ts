import { beforeAll } from 'vitest';
import { factories, firstStore, stockIn, TAXED_BEER, walkIn } from '../../test/factories.ts';
import { ADMIN_PASSWORD, bearer, login, useTestApp } from '../../test/harness.ts';

/**
 * The orders suites' set-up (orders.test.ts, orders.races.test.ts): the server on a fresh
 * database, the admin signed in (English answers), a beer sold by the can or the carton of 24 with
 * VAT and rice by the bag without, both in stock in the first store. Call it where `describe`
 * bodies run; each call is its own suite (its own app, ids and sign-in).
 */
export function ordersSuite() {
  const ctx = useTestApp();
  let headers: Record<string, string> = {};
  const ids: Record<string, number> = {};
  const make = factories(ctx, () => headers);

  async function send(
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    payload?: object,
    extra: Record<string, string> = {},
  ) {
    const res = await ctx.app.inject({ method, url, headers: { ...headers, ...extra }, payload });
    return { status: res.statusCode, body: res.json(), headers: res.headers };
  }

  /** Units of a product in the first store, from the levels API. */
  async function onHand(productId: number): Promise<number> {
    const res = await send('GET', `/api/stocks/levels?filter[store_id]=${ids.store}&per_page=100`);
    return res.body.data.find((l: { product_id: number }) => l.product_id === productId)?.quantity ?? 0;
  }

  /** A sale of 3 cans of beer and a bag of rice to the walk-in customer. */
  const sale = (over: object = {}) => ({
    customer_id: ids.walkIn,
    items: [
      { product_id: ids.beer, unit_id: ids.can, quantity: 3 },
      { product_id: ids.rice, quantity: 1 },
    ],
    ...over,
  });

  /** Stock of a product received into the first store. */
  const stock = (product: number, quantity: number, valueCents: number) =>
    stockIn(ctx.db, { store: ids.store, product, quantity, valueCents });

  beforeAll(async () => {
    headers = { ...bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token), 'x-localization': 'en' };
    ids.store = await firstStore(ctx.db);
    ids.walkIn = await walkIn(ctx.db);
    Object.assign(ids, await make.catalogue('carton', 'bag'));
    ids.beer = await make.product({ ...TAXED_BEER, category_id: ids.drinks, unit_id: ids.can });
    ids.rice = await make.product({
      name_en: 'Jasmine rice 5kg',
      name_kh: 'អង្ករម្លិះ ៥គក',
      sku: 'RICE-5',
      category_id: ids.drinks,
      unit_id: ids.bag,
      price_usd_cents: 1000,
      taxable: false,
    });
    await stock(ids.beer, 48, 2400);
    await stock(ids.rice, 10, 7000);
  });

  return { ctx, ids, send, onHand, sale, stock };
}
