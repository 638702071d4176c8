import { beforeEach, describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../http.ts';
import {
  enqueueSale,
  type QueuedSale,
  queuedSales,
  requestBody,
  resetOutboxDb,
  type Send,
  syncOutbox,
} from './outbox.ts';

/** The cashiers of the till: each queued sale is theirs. */
const dara = { id: 7, name: 'Sok Dara' };
const sokha = { id: 8, name: 'Chan Sokha' };

/** A server that makes a keyed sale once, as the real one does: the same key answers the first sale. */
function fakeServer() {
  const orders = new Map<string, number>();
  const sent: string[] = [];
  let next = 1;
  const create = (sale: QueuedSale) => {
    sent.push(sale.key);
    if (!orders.has(sale.key)) orders.set(sale.key, next++);
    return orders.get(sale.key);
  };
  return { orders, sent, create };
}

/** Web Locks as the browser keeps them: one holder of a name; `ifAvailable` gets null while it is held. */
function fakeLocks() {
  const held = new Set<string>();
  return {
    async request(name: string, options: { ifAvailable?: boolean }, work: (lock: object | null) => Promise<unknown>) {
      if (held.has(name) && options.ifAvailable) return work(null);
      held.add(name);
      try {
        return await work({ name });
      } finally {
        held.delete(name);
      }
    },
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

let dbCount = 0;
beforeEach(async () => {
  resetOutboxDb(`depot-till-test-${++dbCount}`);
  Object.defineProperty(navigator, 'locks', { configurable: true, value: undefined });
});

describe('the offline sale queue', () => {
  it('keeps a sale once per key, with receipt numbers unique to the device, in order', async () => {
    const a = await enqueueSale({ key: 'k1', body: { n: 1 }, total_cents: 100, user: dara, tried: false });
    const again = await enqueueSale({ key: 'k1', body: { n: 1 }, total_cents: 100, user: dara, tried: false });
    const b = await enqueueSale({ key: 'k2', body: { n: 2 }, total_cents: 200, user: dara, tried: false });
    expect(again.client_id).toBe(a.client_id);
    expect(a.client_id).toMatch(/^OFF-[A-Z0-9]{4}-0001$/);
    expect(b.client_id).toMatch(/-0002$/);
    expect(b.client_id.slice(0, 8)).toBe(a.client_id.slice(0, 8));
    expect((await queuedSales()).map((s) => s.key)).toEqual(['k1', 'k2']);
  });

  it('sends the queue in order with the same keys; a lost answer is sent again and made once', async () => {
    const server = fakeServer();
    for (const key of ['a', 'b', 'c'])
      await enqueueSale({ key, body: { key }, total_cents: 1, user: dara, tried: false });
    let lose = true;
    // 'b' reaches the server but its answer is lost: the queue stops there and keeps b and c
    const flaky: Send = async (sale) => {
      const id = server.create(sale);
      if (sale.key === 'b' && lose) {
        lose = false;
        throw new NetworkError(new Error('dropped'));
      }
      return id;
    };
    const first = await syncOutbox({ send: flaky, userId: dara.id });
    expect(first).toMatchObject({ sent: 1, stopped: true });
    expect((await queuedSales()).map((s) => s.key)).toEqual(['b', 'c']);
    const second = await syncOutbox({ send: flaky, userId: dara.id });
    expect(second).toMatchObject({ sent: 2, stopped: false });
    expect(server.sent).toEqual(['a', 'b', 'b', 'c']);
    expect(server.orders.size).toBe(3);
    expect(await queuedSales()).toEqual([]);
  });

  it('keeps a refused sale as failed with the reason, sends the rest, and retries it when asked', async () => {
    const server = fakeServer();
    await enqueueSale({ key: 'x', body: {}, total_cents: 1, user: dara, tried: false });
    await enqueueSale({ key: 'y', body: {}, total_cents: 1, user: dara, tried: false });
    let refuse = true;
    const send: Send = async (sale) => {
      if (sale.key === 'x' && refuse) throw new ApiError(409, { message: 'Not enough stock for Rice' });
      return server.create(sale);
    };
    expect(await syncOutbox({ send, userId: dara.id })).toMatchObject({ sent: 1, failed: 1 });
    const [kept] = await queuedSales();
    expect(kept).toMatchObject({ key: 'x', status: 'failed', error: 'Not enough stock for Rice' });
    // a plain sync leaves it for the cashier; a retry sends it with its key
    expect(await syncOutbox({ send, userId: dara.id })).toMatchObject({ sent: 0, failed: 0 });
    refuse = false;
    expect(await syncOutbox({ send, retryFailed: true, userId: dara.id })).toMatchObject({ sent: 1 });
    expect([...server.orders.keys()]).toEqual(['y', 'x']);
  });

  it('two tabs syncing at once: one sends, the other leaves it, each sale made once', async () => {
    Object.defineProperty(navigator, 'locks', { configurable: true, value: fakeLocks() });
    const server = fakeServer();
    for (const key of ['1', '2', '3']) await enqueueSale({ key, body: {}, total_cents: 1, user: dara, tried: false });
    const slow: Send = async (sale) => {
      await tick();
      return server.create(sale);
    };
    const [one, two] = await Promise.all([
      syncOutbox({ send: slow, userId: dara.id }),
      syncOutbox({ send: slow, userId: dara.id }),
    ]);
    expect([one.skipped, two.skipped].sort()).toEqual([false, true]);
    expect(one.sent + two.sent).toBe(3);
    expect(server.sent).toEqual(['1', '2', '3']);
  });

  it('without Web Locks two senders may both send, and the keys still make each sale once', async () => {
    const server = fakeServer();
    for (const key of ['p', 'q']) await enqueueSale({ key, body: {}, total_cents: 1, user: dara, tried: false });
    const slow: Send = async (sale) => {
      await tick();
      return server.create(sale);
    };
    await Promise.all([syncOutbox({ send: slow, userId: dara.id }), syncOutbox({ send: slow, userId: dara.id })]);
    expect(server.orders.size).toBe(2);
    expect(await queuedSales()).toEqual([]);
  });

  it('sends only the signed-in cashier’s own sales; another’s wait on the device for them, never dropped', async () => {
    const server = fakeServer();
    await enqueueSale({ key: 'd1', body: {}, total_cents: 1, user: dara, tried: false });
    await enqueueSale({ key: 's1', body: {}, total_cents: 1, user: sokha, tried: false });
    await enqueueSale({ key: 'd2', body: {}, total_cents: 1, user: dara, tried: false });
    // Sokha signs in after Dara sold offline: only Sokha's sale goes, as Sokha
    expect(await syncOutbox({ send: async (sale) => server.create(sale), userId: sokha.id })).toMatchObject({
      sent: 1,
    });
    expect(server.sent).toEqual(['s1']);
    const left = await queuedSales();
    expect(left.map((s) => [s.key, s.user_name])).toEqual([
      ['d1', 'Sok Dara'],
      ['d2', 'Sok Dara'],
    ]);
    // nobody signed in: nothing is sent
    expect(await syncOutbox({ send: async (sale) => server.create(sale), userId: null })).toMatchObject({ sent: 0 });
    // Dara back: Dara's two, in order
    expect(await syncOutbox({ send: async (sale) => server.create(sale), userId: dara.id })).toMatchObject({ sent: 2 });
    expect(server.sent).toEqual(['s1', 'd1', 'd2']);
    expect(await queuedSales()).toEqual([]);
  });

  it('sends a kept sale marked as made offline: when, and its receipt number on this device', async () => {
    const kept = await enqueueSale({ key: 'o1', body: { customer_id: 1 }, total_cents: 1, user: dara, tried: false });
    expect(requestBody(kept)).toEqual({
      customer_id: 1,
      offline: { sold_at: kept.sold_at, device_receipt_no: kept.client_id },
    });
    // a request that went unanswered goes again as sent: its key may already hold it
    const lost = await enqueueSale({ key: 'o2', body: { customer_id: 1 }, total_cents: 1, user: dara, tried: true });
    expect(requestBody(lost)).toEqual({ customer_id: 1 });
  });
});
