import { appEvent, NOTIFICATION_CREATED_EVENT } from '@depot/contracts';
import type Pusher from 'pusher-js';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DomainEvent } from '../events/events.ts';
import { notificationRaiser } from '../modules/notifications/notifications.raise.ts';
import { notificationService } from '../modules/notifications/notifications.service.ts';
import { stockIn, walkIn } from '../test/factories.ts';
import { bearer, createStore, createUser, login, useTestApp } from '../test/harness.ts';
import { connected, type Endpoint, listening, next, pusherClient, record, subscribe } from '../test/realtime.ts';
import { sellableProduct } from '../test/selling.ts';

/**
 * Domain events reach the screens (realtime/domain.ts) and raise notifications for the right
 * people only (modules/notifications/notifications.raise.ts), as a client sees them: pusher-js on
 * the embedded endpoint, and the API's inbox.
 */
const ctx = useTestApp();
let endpoint: Endpoint;
let admin: Record<string, string>;
let goods: Awaited<ReturnType<typeof sellableProduct>>;
let elsewhere: number;
const clients: Pusher[] = [];

beforeAll(async () => {
  endpoint = await listening(ctx.app);
  admin = bearer((await login(ctx.app, 'admin', 'admin-pass-123')).token);
  goods = await sellableProduct(ctx.app, ctx.db, admin, 250);
  elsewhere = await createStore(ctx.db, `EL${Math.random().toString(36).slice(2, 6)}`);
});

afterEach(() => {
  for (const client of clients.splice(0)) client.disconnect();
});

async function staff(roles: string[], store?: number) {
  const user = await createUser(ctx.db, { roles, store });
  const { token } = await login(ctx.app, user.name, user.password);
  return { ...user, token, headers: bearer(token) };
}

async function clientOf(token: string) {
  const client = pusherClient(endpoint, token);
  clients.push(client);
  await connected(client);
  return client;
}

/** The user's inbox as the API answers it: [type, data] newest first. */
async function inbox(headers: Record<string, string>) {
  const res = await ctx.app.inject({ method: 'GET', url: '/api/notifications?filter[status]=all', headers });
  expect(res.statusCode).toBe(200);
  return (res.json().data as { type: string; data: Record<string, unknown> }[]).map((n) => [n.type, n.data] as const);
}

describe('domain events on the channels', () => {
  it('a sale broadcasts StockChanged (and OrderCreated) to its store’s channel, not to another store’s', async () => {
    const here = await staff(['stock_keeper']);
    const there = await staff(['stock_keeper'], elsewhere);
    const ours = await subscribe(await clientOf(here.token), `private-stores.${goods.storeId}`);
    const theirs = record(await subscribe(await clientOf(there.token), `private-stores.${elsewhere}`));
    const stock = next(ours, appEvent('StockChanged'));
    const order = next(ours, appEvent('OrderCreated'));
    const sale = await goods.sell(1);
    expect(await stock).toEqual({ store_id: goods.storeId, product_ids: [goods.product] });
    expect(await order).toMatchObject({ id: sale.id, store_id: goods.storeId, status: 'confirmed' });
    // the other store's channel hears nothing of it (a marker broadcast there arrives after anything earlier)
    const marker = next(clients[1].channel(`private-stores.${elsewhere}`), appEvent('Marker'));
    await ctx.app.realtime.broadcast(`private-stores.${elsewhere}`, appEvent('Marker'), {});
    await marker;
    expect(theirs.filter(([event]) => !event.startsWith('pusher'))).toEqual([['App\\Events\\Marker', {}]]);
  });

  it('a new exchange rate reaches every signed-in user on the depot channel', async () => {
    const cashier = await staff(['cashier'], elsewhere);
    const depot = await subscribe(await clientOf(cashier.token), 'private-depot');
    const heard = next(depot, appEvent('ExchangeRateChanged'));
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/exchange-rates',
      headers: admin,
      payload: { rate_khr: 4100 },
    });
    expect(res.statusCode).toBe(201);
    expect(await heard).toMatchObject({ rate_khr: 4100 });
  });
});

describe('notifications raised by what happens', () => {
  it('low stock: told once on crossing the reorder level, to those keeping stock in that store only', async () => {
    const keeper = await staff(['stock_keeper']);
    const cashier = await staff(['cashier']);
    const farKeeper = await staff(['stock_keeper'], elsewhere);
    const level = Number(
      (
        await ctx.db
          .selectFrom('stock_levels')
          .select((eb) => eb.fn.sum<number>('quantity').as('q'))
          .where('product_id', '=', goods.product)
          .where('store_id', '=', goods.storeId)
          .executeTakeFirstOrThrow()
      ).q,
    );
    await ctx.db
      .updateTable('products')
      .set({ reorder_level: level - 3 })
      .where('id', '=', goods.product)
      .execute();
    const mine = await subscribe(await clientOf(keeper.token), `private-App.Models.User.${keeper.id}`);
    const arrived = next<Record<string, unknown>>(mine, NOTIFICATION_CREATED_EVENT);

    await goods.sell(2); // still above
    await goods.sell(2); // crosses: level - 4 <= level - 3
    const live = await arrived;
    expect(live).toMatchObject({
      type: 'low_stock',
      product_id: goods.product,
      store_id: goods.storeId,
      quantity: level - 4,
      reorder_level: level - 3,
      link: `/stocks/low?filter[store_id]=${goods.storeId}`,
    });
    await vi.waitFor(async () => expect(await inbox(keeper.headers)).toHaveLength(1));
    await goods.sell(1); // still low: nobody is told again
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await inbox(keeper.headers)).map(([type]) => type)).toEqual(['low_stock']);
    expect(await inbox(cashier.headers)).toEqual([]);
    expect(await inbox(farKeeper.headers)).toEqual([]);

    // back above the level, then under again: told again
    await stockIn(ctx.db, { store: goods.storeId, product: goods.product, quantity: 10, valueCents: 1000 });
    await ctx.app.notifications.handle({
      name: 'StockChanged',
      payload: { store_id: goods.storeId, product_ids: [goods.product] },
    });
    await goods.sell(10);
    await vi.waitFor(async () => expect(await inbox(keeper.headers)).toHaveLength(2));
    expect(await inbox(farKeeper.headers)).toEqual([]);
  });

  it('a sale of goods neither low nor told of opens no transaction for low stock (every sale asks)', async () => {
    const plenty = await sellableProduct(ctx.app, ctx.db, admin, 50);
    // a raiser of its own on the app's database, counting the transactions it opens
    let opened = 0;
    const counted = new Proxy(ctx.db, {
      get(target, key) {
        if (key === 'transaction') opened += 1;
        const value = Reflect.get(target, key, target);
        // Kysely's methods read private fields: called on the database itself, not the proxy
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const raiser = notificationRaiser(counted, notificationService(ctx.db, ctx.app.realtime));
    const changed: DomainEvent = {
      name: 'StockChanged',
      payload: { store_id: plenty.storeId, product_ids: [plenty.product] },
    };
    expect(await raiser.handle(changed)).toEqual([]);
    expect(opened).toBe(0);
    // at its reorder level (it holds 1,000) it is told, in a transaction of its own
    await ctx.db.updateTable('products').set({ reorder_level: 1000 }).where('id', '=', plenty.product).execute();
    expect((await raiser.handle(changed)).length).toBeGreaterThan(0);
    expect(opened).toBe(1);
    // still low and told of: nothing to write again
    expect(await raiser.handle(changed)).toEqual([]);
    expect(opened).toBe(1);
    // no longer sold (inactive): not low, as on the list (stock/low.ts); its mark goes, nobody is told
    await ctx.db.updateTable('products').set({ status: 'inactive' }).where('id', '=', plenty.product).execute();
    expect(await raiser.handle(changed)).toEqual([]);
    expect(opened).toBe(2);
    const marks = await ctx.db
      .selectFrom('notification_marks')
      .select('subject')
      .where('kind', '=', 'low_stock')
      .execute();
    expect(marks.map((m) => m.subject)).not.toContain(`${plenty.storeId}:${plenty.product}`);
  });

  it('a sale for delivery: those working the orders of that store are told once to prepare it', async () => {
    const cashier = await staff(['cashier']);
    const farCashier = await staff(['cashier'], elsewhere);
    const keeper = await staff(['stock_keeper']);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: admin,
      payload: {
        customer_id: await walkIn(ctx.db),
        items: [{ product_id: goods.product, quantity: 1 }],
        delivery: { shipping_address: 'Street 271, Phnom Penh' },
      },
    });
    expect(res.statusCode).toBe(201);
    const order = res.json().data as { id: number; number: string };
    await vi.waitFor(async () =>
      expect(await inbox(cashier.headers)).toEqual([
        [
          'delivery_to_prepare',
          expect.objectContaining({ order_id: order.id, number: order.number, link: `/orders?view=${order.id}` }),
        ],
      ]),
    );
    expect(await inbox(farCashier.headers)).toEqual([]);
    expect(await inbox(keeper.headers)).toEqual([]);
  });

  it('batches near their expiry: the daily check tells each batch of each store once', async () => {
    const keeper = await staff(['stock_keeper']);
    const farKeeper = await staff(['stock_keeper'], elsewhere);
    const today = '2031-03-01';
    for (const [lot, expiryDate] of [
      ['NEAR-1', '2031-03-20'],
      ['FAR-1', '2031-09-01'],
    ])
      await stockIn(ctx.db, {
        store: goods.storeId,
        product: goods.product,
        quantity: 5,
        valueCents: 500,
        lot,
        expiryDate,
      });
    const first = await ctx.app.notifications.expiringBatches(today);
    expect(first.filter((s) => s.userId === keeper.id).map((s) => s.notification.data)).toEqual([
      expect.objectContaining({ lot: 'NEAR-1', expiry_date: '2031-03-20', quantity: 5, store_id: goods.storeId }),
    ]);
    expect(await ctx.app.notifications.expiringBatches(today)).toEqual([]);
    expect((await inbox(keeper.headers)).map(([type]) => type)).toEqual(['batch_expiring']);
    expect(await inbox(farKeeper.headers)).toEqual([]);
  });

  it('a transfer sent: stock keepers of the destination are told it is on its way; both stores’ channels hear it', async () => {
    const arriving = await staff(['stock_keeper'], elsewhere);
    const sending = await staff(['stock_keeper']);
    const there = await subscribe(await clientOf(arriving.token), `private-stores.${elsewhere}`);
    const here = await subscribe(await clientOf(sending.token), `private-stores.${goods.storeId}`);
    const heardThere = next(there, appEvent('TransferSent'));
    const heardHere = next(here, appEvent('TransferSent'));
    const unit = await ctx.db
      .selectFrom('products')
      .select('unit_id')
      .where('id', '=', goods.product)
      .executeTakeFirstOrThrow();
    const made = await ctx.app.inject({
      method: 'POST',
      url: '/api/stock-transfers',
      headers: admin,
      payload: {
        from_store_id: goods.storeId,
        to_store_id: elsewhere,
        items: [{ product_id: goods.product, unit_id: unit.unit_id, quantity: 2 }],
      },
    });
    expect(made.statusCode, made.body).toBe(201);
    const transfer = made.json().data as { id: number; number: string };
    const sent = await ctx.app.inject({
      method: 'POST',
      url: `/api/stock-transfers/${transfer.id}/send`,
      headers: admin,
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const stores = { id: transfer.id, from_store_id: goods.storeId, to_store_id: elsewhere };
    expect(await heardThere).toEqual(stores);
    expect(await heardHere).toEqual(stores);
    await vi.waitFor(async () =>
      expect(await inbox(arriving.headers)).toEqual([
        [
          'transfer_arriving',
          expect.objectContaining({
            transfer_id: transfer.id,
            number: transfer.number,
            to_store_id: elsewhere,
            link: `/stocks/transfer?view=${transfer.id}`,
          }),
        ],
      ]),
    );
    expect(await inbox(sending.headers)).toEqual([]);
  });

  it('a purchase received: those following purchases in that store are told', async () => {
    const keeper = await staff(['stock_keeper']);
    const farKeeper = await staff(['stock_keeper'], elsewhere);
    const cashier = await staff(['cashier']);
    const supplier = await ctx.app.inject({
      method: 'POST',
      url: '/api/suppliers',
      headers: admin,
      payload: { name: `Supplier ${Math.random().toString(36).slice(2, 6)}` },
    });
    expect(supplier.statusCode, supplier.body).toBe(201);
    const unit = await ctx.db
      .selectFrom('products')
      .select('unit_id')
      .where('id', '=', goods.product)
      .executeTakeFirstOrThrow();
    const made = await ctx.app.inject({
      method: 'POST',
      url: '/api/purchases',
      headers: admin,
      payload: {
        supplier_id: supplier.json().data.id,
        store_id: goods.storeId,
        purchase_date: '2026-11-20',
        items: [{ product_id: goods.product, unit_id: unit.unit_id, quantity: 4, unit_price_cents: 100 }],
      },
    });
    expect(made.statusCode, made.body).toBe(201);
    const purchase = made.json().data as { id: number; number: string; items: { id: number }[] };
    const received = await ctx.app.inject({
      method: 'POST',
      url: `/api/purchases/${purchase.id}/receive`,
      headers: admin,
      payload: { items: [{ item_id: purchase.items[0].id, quantity: 4 }] },
    });
    expect(received.statusCode, received.body).toBe(200);
    await vi.waitFor(async () =>
      expect(await inbox(keeper.headers)).toEqual([
        [
          'purchase_received',
          expect.objectContaining({
            purchase_id: purchase.id,
            number: purchase.number,
            link: `/purchases?view=${purchase.id}`,
          }),
        ],
      ]),
    );
    expect(await inbox(farKeeper.headers)).toEqual([]);
    expect(await inbox(cashier.headers)).toEqual([]);
  });
});

describe('GET /api/broadcasting/channels', () => {
  it('names the stores the user covers; every store for one with all_stores.view', async () => {
    const cashier = await staff(['cashier']);
    const mine = await ctx.app.inject({ method: 'GET', url: '/api/broadcasting/channels', headers: cashier.headers });
    expect(mine.json()).toEqual({ data: { stores: [goods.storeId] } });
    const all = await ctx.app.inject({ method: 'GET', url: '/api/broadcasting/channels', headers: admin });
    expect(all.json().data.stores).toEqual(expect.arrayContaining([goods.storeId, elsewhere]));
    const nobody = await ctx.app.inject({ method: 'GET', url: '/api/broadcasting/channels' });
    expect(nobody.statusCode).toBe(401);
  });
});
