import { todayInCambodia } from '@depot/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { FieldError } from '../../http/errors.ts';
import { factories, firstStore, walkIn } from '../../test/factories.ts';
import { ADMIN_PASSWORD, bearer, login, useTestApp } from '../../test/harness.ts';
import { saleRates } from '../rates/rates.service.ts';
import { type OrderInput, paymentStatus, priceOrder, readCart } from './orders.cart.ts';
import { recordPayments } from './orders.payments.ts';
import { moveDelivery, returnLines } from './orders.returns.ts';

/** The steps of an order's writes, each alone, against a real database. */
const ctx = useTestApp();
const ids: Record<string, number> = {};

const input = (items: OrderInput['items'], over: Partial<OrderInput> = {}): OrderInput => ({
  store_id: null,
  customer_id: ids.walkIn,
  items,
  discount_id: null,
  note: null,
  approval: null,
  awaiting_khqr: false,
  delivery: null,
  hold: false,
  payments: [],
  change_in: 'split',
  offline: null,
  ...over,
});
const line = (over: Partial<OrderInput['items'][number]>) => ({
  product_id: null,
  combo_id: null,
  unit_id: null,
  quantity: 1,
  serials: [],
  discount_id: null,
  ...over,
});

/** The field errors a step throws, as the API would name them (message keys). */
async function problems(run: () => Promise<unknown>) {
  try {
    await run();
  } catch (error) {
    if (!(error instanceof FieldError)) throw error;
    return Object.fromEntries(Object.entries(error.fields).map(([field, list]) => [field, list.map((m) => m.key)]));
  }
  throw new Error('no refusal');
}

beforeAll(async () => {
  const headers = bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token);
  const post = async (url: string, payload: object) =>
    (await ctx.app.inject({ method: 'POST', url, headers, payload })).json().data as {
      id: number;
      items: { id: number }[];
    };
  const make = factories(ctx, () => headers);
  ids.walkIn = await walkIn(ctx.db);
  ids.store = await firstStore(ctx.db);
  const { drinks, can, bag } = await make.catalogue('bag');
  Object.assign(ids, { category: drinks, can, bag });
  const product = (sku: string, price: number, status: 'active' | 'inactive' = 'active') =>
    make.product({
      name_en: `Product ${sku}`,
      name_kh: `ផលិតផល ${sku}`,
      sku,
      category_id: ids.category,
      unit_id: ids.can,
      price_usd_cents: price,
      taxable: true,
      status,
    });
  ids.beer = await product('BEER', 125);
  ids.old = await product('OLD', 100, 'inactive');
  await post('/api/stocks/adjustments', {
    store_id: ids.store,
    reason: 'found',
    items: [{ product_id: ids.beer, quantity: 100 }],
  });
  const sold = await post('/api/orders', {
    customer_id: ids.walkIn,
    items: [{ product_id: ids.beer, quantity: 3 }],
    payments: [{ method: 'cash_usd', amount: 413 }],
  });
  ids.sold = sold.id;
  ids.soldLine = sold.items[0].id;
});

describe('order steps', () => {
  it('paymentStatus: paid, part paid, pending for a delivery, unpaid', () => {
    expect(paymentStatus(100, 100, false)).toBe('paid');
    expect(paymentStatus(100, 40, false)).toBe('partially_paid');
    expect(paymentStatus(100, 0, true)).toBe('pending');
    expect(paymentStatus(100, 0, false)).toBe('unpaid');
  });

  it('readCart names every mistake at once, on its line; priceOrder prices what is right', async () => {
    const wrong = input([
      line({ product_id: ids.beer, unit_id: ids.bag }),
      line({ product_id: 999_999 }),
      line({ product_id: ids.old }),
    ]);
    expect(await problems(() => readCart(ctx.db, wrong, todayInCambodia()))).toEqual({
      'items.0.unit_id': ['stock.unit_of_product'],
      'items.1.product_id': ['validation.exists'],
      'items.2.product_id': ['validation.product_inactive'],
    });
    const cart = await readCart(ctx.db, input([line({ product_id: ids.beer, quantity: 3 })]), todayInCambodia());
    expect(cart.lines[0]).toMatchObject({ kind: 'product', unit_price_cents: 125, takes: [{ units: 3 }] });
    // 3 × $1.25 = $3.75 and 10 % VAT, rounded half up: $4.13
    const priced = priceOrder(cart, await saleRates(ctx.db), null);
    expect(priced).toMatchObject({ subtotal_cents: 375, tax_cents: 38, total_cents: 413 });
  });

  it('recordPayments refuses a card over what is due, and nothing is left to pay on a paid order', async () => {
    const order = await ctx.db.selectFrom('orders').selectAll().where('id', '=', ids.sold).executeTakeFirstOrThrow();
    expect(
      await problems(() =>
        recordPayments(ctx.db, { ...order, paid_cents: 0 }, [{ method: 'card', amount: 500, transaction_id: null }], 1),
      ),
    ).toEqual({ payments: ['order.over_paid_card'] });
    expect(
      await problems(() => recordPayments(ctx.db, order, [{ method: 'cash_usd', amount: 1, transaction_id: null }], 1)),
    ).toEqual({ payments: ['order.nothing_due'] });
  });

  it('returnLines shares the refund by quantity, the last unit taking the rest; a line named twice counts once', async () => {
    await expect(
      ctx.db.transaction().execute(async (trx) => {
        // a third of $4.13 is $1.38 (rounded half up); two more take the rest, $2.75
        const first = await returnLines(trx, ids.sold, [{ order_item_id: ids.soldLine, quantity: 1, serials: [] }]);
        expect(first).toEqual({
          refund: 138,
          back: [{ itemId: ids.soldLine, share: [1, 3] }],
          parts: [{ itemId: ids.soldLine, from: 0, to: 1 }],
        });
        const rest = await returnLines(trx, ids.sold, [
          { order_item_id: ids.soldLine, quantity: 1, serials: [] },
          { order_item_id: ids.soldLine, quantity: 1, serials: [] },
        ]);
        expect(rest).toEqual({
          refund: 275,
          back: [{ itemId: ids.soldLine, share: [3, 3] }],
          parts: [{ itemId: ids.soldLine, from: 1, to: 3 }],
        });
        expect(
          await problems(() => returnLines(trx, ids.sold, [{ order_item_id: ids.soldLine, quantity: 1, serials: [] }])),
        ).toEqual({ 'items.0.quantity': ['order.over_returned'] });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
  });

  it('moveDelivery goes one allowed step at a time, and names both ends when refused', async () => {
    await expect(moveDelivery(ctx.db, { id: ids.sold, delivery_status: 'preparing' }, 'shipped')).rejects.toMatchObject(
      {
        statusCode: 409,
        key: 'order.delivery_step',
        params: { from: { key: 'delivery.preparing' }, to: { key: 'delivery.shipped' } },
      },
    );
  });
});
