import { createHash } from 'node:crypto';
import { decodeKhqr, encodeKhqr } from '@depot/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { type FakeBakong, startFakeBakong } from '../../test/fakeBakong.ts';
import { ADMIN_PASSWORD, bearer, createUser, login, useTestApp } from '../../test/harness.ts';
import { sellableProduct } from '../../test/selling.ts';

// Bank payments checked by the bank (issue 27 §3), against a local fake Bakong.

const ctx = useTestApp();
let headers: Record<string, string>;
let shop: Awaited<ReturnType<typeof sellableProduct>>;
let bakong: FakeBakong;
let app: FastifyInstance;

const ACCOUNT = 'depot_pp@aclb';
const hashOf = (seed: string) => createHash('sha256').update(seed).digest('hex');

async function send(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, as = headers, on = app) {
  const res = await on.inject({ method, url, headers: as, payload });
  return { status: res.statusCode, body: res.json() };
}
const kh = () => ({ ...headers, 'x-localization': 'kh' });

beforeAll(async () => {
  headers = { ...bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token), 'x-localization': 'en' };
  shop = await sellableProduct(ctx.app, ctx.db, headers, 1250);
  await ctx.db
    .updateTable('stores')
    .set({ khqr_account_id: ACCOUNT, khqr_merchant_name: 'Depot Phnom Penh', khqr_merchant_city: 'Phnom Penh' })
    .where('id', '=', shop.storeId)
    .execute();
  bakong = await startFakeBakong();
  app = await buildApp({
    db: ctx.db,
    uploadsDir: ctx.uploadsDir,
    bakong: { token: 'test-token', url: bakong.url },
    khqrMinutes: 5,
  });
});
afterAll(async () => {
  await app?.close();
  await bakong?.close();
});
beforeEach(() => {
  bakong.refuse = false;
});

describe('a till’s KHQR expires', () => {
  it('after the server’s setting (at most 10 minutes); a receipt’s after 15 minutes, a day at most', async () => {
    const order = await shop.sell(1);
    const minutes = async (body: object) => {
      const res = await send('POST', `/api/orders/${order.id}/khqr`, body);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const fields = decodeKhqr(res.body.data.payload);
      // tag 99 carries the creation and expiry (ms), and the row says the same
      expect(Date.parse(res.body.data.expires_at)).toBe(fields.expires_at);
      return (fields.expires_at - fields.created_at) / 60_000;
    };
    expect(await minutes({ currency: 'USD' })).toBe(5);
    expect(await minutes({ currency: 'USD', expires_in_minutes: 60 })).toBe(5);
    expect(await minutes({ currency: 'USD', expires_in_minutes: 2 })).toBe(2);
    expect(await minutes({ currency: 'USD', for: 'receipt' })).toBe(15);
    expect(await minutes({ currency: 'KHR', for: 'receipt', expires_in_minutes: 1440 })).toBe(1440);
    const tooLong = await send('POST', `/api/orders/${order.id}/khqr`, {
      currency: 'USD',
      for: 'receipt',
      expires_in_minutes: 1441,
    });
    expect(tooLong.status).toBe(422);
  });
});

describe('finishing a KHQR sale twice', () => {
  it('records the payment once, whether the checks come one after another or at once', async () => {
    const order = await shop.sell(1);
    const qr = (await send('POST', `/api/orders/${order.id}/khqr`, { currency: 'USD' })).body.data;
    const hash = hashOf(`twice-${order.id}`);
    bakong.byMd5.set(qr.md5, { hash, toAccountId: ACCOUNT, currency: 'USD', amount: 12.5 });
    const answers = await Promise.all([1, 2, 3].map(() => send('POST', `/api/orders/${order.id}/khqr/check`, {})));
    for (const answer of answers) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.data).toMatchObject({ paid: true, hash });
    }
    const again = await send('POST', `/api/orders/${order.id}/khqr/check`, { md5: qr.md5 });
    expect(again.body.data.order).toMatchObject({ payment_status: 'paid', due_cents: 0 });
    const tenders = again.body.data.order.payments.filter((p: { kind: string }) => p.kind === 'payment');
    expect(tenders).toEqual([expect.objectContaining({ method: 'khqr', amount: 1250, transaction_id: hash })]);
    // the cashier's "customer has paid" after Bakong's: nothing is due, nothing is added
    const byHand = await send('POST', `/api/orders/${order.id}/payments`, {
      payments: [{ method: 'khqr', amount: 1250, transaction_id: qr.md5 }],
    });
    expect(byHand.status).toBe(422);
    expect((await send('GET', `/api/orders/${order.id}`)).body.data.paid_cents).toBe(1250);
  });
});

describe('“paid by transfer”', () => {
  it('asks Bakong by short hash with the amount due and its currency, and records the bank’s hash', async () => {
    const order = await shop.sell(2);
    const hash = hashOf(`transfer-${order.id}`);
    bakong.transfers.push({ hash, fromAccountId: 'dara@wing', toAccountId: ACCOUNT, currency: 'USD', amount: 25 });
    const res = await send('POST', `/api/orders/${order.id}/khqr/transfer`, {
      hash: hash.slice(0, 8).toUpperCase(),
      currency: 'USD',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toBe('Bakong confirmed the transfer: the payment is recorded.');
    expect(res.body.data).toMatchObject({ payment_status: 'paid', due_cents: 0 });
    expect(res.body.data.payments.at(-1)).toMatchObject({
      method: 'bank_transfer',
      amount: 2500,
      transaction_id: hash,
    });
    expect(bakong.calls.at(-1)).toEqual({
      path: '/v1/check_transaction_by_short_hash',
      auth: 'Bearer test-token',
      body: { hash: hash.slice(0, 8), amount: 25, currency: 'USD' },
    });
  });

  it('in riel asks for the riel due at the sale’s rate', async () => {
    const order = await shop.sell(1);
    const hash = hashOf(`riel-${order.id}`);
    bakong.transfers.push({ hash, toAccountId: ACCOUNT, currency: 'KHR', amount: order.total_khr });
    const res = await send('POST', `/api/orders/${order.id}/khqr/transfer`, {
      hash: hash.slice(0, 8),
      currency: 'KHR',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(bakong.calls.at(-1)?.body).toEqual({ hash: hash.slice(0, 8), amount: order.total_khr, currency: 'KHR' });
  });

  it('refuses a hash already used by another sale, in English and Khmer, and changes nothing', async () => {
    const first = await shop.sell(1);
    const second = await shop.sell(1);
    const hash = hashOf(`used-${first.id}`);
    bakong.transfers.push({ hash, toAccountId: ACCOUNT, currency: 'USD', amount: 12.5 });
    expect(
      (await send('POST', `/api/orders/${first.id}/khqr/transfer`, { hash: hash.slice(0, 8), currency: 'USD' })).status,
    ).toBe(200);

    const again = await send('POST', `/api/orders/${second.id}/khqr/transfer`, {
      hash: hash.slice(0, 8),
      currency: 'USD',
    });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(`This transfer already paid sale ${first.number}: one transfer pays one sale.`);
    const whole = await send('POST', `/api/orders/${second.id}/khqr/transfer`, { hash, currency: 'USD' }, kh());
    expect(whole.status).toBe(409);
    expect(whole.body.message).toContain('ការផ្ទេរប្រាក់នេះបានបង់សម្រាប់ការលក់');
    expect(whole.body.message).toContain(first.number);
    const after = (await send('GET', `/api/orders/${second.id}`)).body.data;
    expect(after).toMatchObject({ paid_cents: 0, payments: [] });
  });

  it('pays one sale when two cashiers claim one transfer at once', async () => {
    const sales = await Promise.all([shop.sell(1), shop.sell(1), shop.sell(1)]);
    const hash = hashOf(`race-${sales[0].id}`);
    bakong.transfers.push({ hash, toAccountId: ACCOUNT, currency: 'USD', amount: 12.5 });
    const answers = await Promise.all(
      sales.map((s) => send('POST', `/api/orders/${s.id}/khqr/transfer`, { hash: hash.slice(0, 8), currency: 'USD' })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    const claimed = await ctx.db.selectFrom('bank_transactions').selectAll().where('hash', '=', hash).execute();
    expect(claimed).toHaveLength(1);
    const paid = await ctx.db
      .selectFrom('order_payments')
      .select('order_id')
      .where('transaction_id', '=', hash)
      .execute();
    expect(paid).toEqual([{ order_id: claimed[0].order_id }]);
  });

  it('refuses a transfer Bakong does not have, into another account, or of another amount', async () => {
    const order = await shop.sell(1);
    const missing = await send('POST', `/api/orders/${order.id}/khqr/transfer`, { hash: 'deadbeef', currency: 'USD' });
    expect(missing.status).toBe(422);
    expect(missing.body.errors.hash).toEqual([
      'Bakong has no transfer deadbeef of $12.50: check the reference and the amount.',
    ]);
    const elsewhere = hashOf(`elsewhere-${order.id}`);
    bakong.transfers.push({ hash: elsewhere, toAccountId: 'someone@aba', currency: 'USD', amount: 12.5 });
    const wrong = await send(
      'POST',
      `/api/orders/${order.id}/khqr/transfer`,
      { hash: elsewhere.slice(0, 8), currency: 'USD' },
      kh(),
    );
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.hash[0]).toContain('មិនបានបង់ចូលគណនីរបស់ហាងនេះ');
    // half the amount is not found by Bakong's short hash at all
    const half = hashOf(`half-${order.id}`);
    bakong.transfers.push({ hash: half, toAccountId: ACCOUNT, currency: 'USD', amount: 6.25 });
    expect(
      (await send('POST', `/api/orders/${order.id}/khqr/transfer`, { hash: half.slice(0, 8), currency: 'USD' })).status,
    ).toBe(422);
    for (const hash of ['xyz', '1234567', `${elsewhere}0`, '']) {
      expect((await send('POST', `/api/orders/${order.id}/khqr/transfer`, { hash, currency: 'USD' })).status).toBe(422);
    }
    expect((await send('GET', `/api/orders/${order.id}`)).body.data.paid_cents).toBe(0);
  });

  it('is refused to a user who may not take payments, and outside the user’s stores', async () => {
    const order = await shop.sell(1);
    const viewer = await createUser(ctx.db, { permissions: ['orders.view'] });
    const token = (await login(ctx.app, viewer.name, viewer.password)).token;
    const res = await send(
      'POST',
      `/api/orders/${order.id}/khqr/transfer`,
      { hash: 'deadbeef', currency: 'USD' },
      bearer(token),
    );
    expect(res.status).toBe(403);
    expect((await send('POST', '/api/orders/999999/khqr/transfer', { hash: 'deadbeef', currency: 'USD' })).status).toBe(
      404,
    );
  });
});

describe('Bakong’s refusals', () => {
  it('says when Bakong refuses the address (outside Cambodia) and when it refuses the token', async () => {
    const order = await shop.sell(1);
    await send('POST', `/api/orders/${order.id}/khqr`, { currency: 'USD' });
    bakong.refuse = true;
    const refused = await send('POST', `/api/orders/${order.id}/khqr/check`, {});
    expect(refused.status).toBe(502);
    expect(refused.body.message).toBe(
      'Bakong refused the call: it answers only calls from Cambodia. Set a relay in Cambodia (BAKONG_RELAY_URL), or confirm the payment by hand.',
    );
    const inKhmer = await send(
      'POST',
      `/api/orders/${order.id}/khqr/transfer`,
      { hash: 'deadbeef', currency: 'USD' },
      kh(),
    );
    expect(inKhmer.status).toBe(502);
    expect(inKhmer.body.message).toContain('BAKONG_RELAY_URL');
    expect(inKhmer.body.message).toContain('បាគងបានបដិសេធការហៅ');
    bakong.refuse = false;

    const stale = await buildApp({
      db: ctx.db,
      uploadsDir: ctx.uploadsDir,
      bakong: { token: 'expired', url: bakong.url },
    });
    try {
      const res = await send('POST', `/api/orders/${order.id}/khqr/check`, {}, headers, stale);
      expect(res.status).toBe(502);
      expect(res.body.message).toMatch(/^Bakong refused this server’s token/);
    } finally {
      await stale.close();
    }
  });

  it('goes through the relay when one is set, with the same paths and token', async () => {
    const relayed = await buildApp({
      db: ctx.db,
      uploadsDir: ctx.uploadsDir,
      // the API's own address is unreachable from here: only the relay answers
      bakong: { token: 'test-token', url: 'http://127.0.0.1:9', relayUrl: `${bakong.url}/` },
    });
    try {
      const order = await shop.sell(1);
      const qr = (await send('POST', `/api/orders/${order.id}/khqr`, { currency: 'USD' }, headers, relayed)).body.data;
      const res = await send('POST', `/api/orders/${order.id}/khqr/check`, {}, headers, relayed);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(bakong.calls.at(-1)).toMatchObject({ path: '/v1/check_transaction_by_md5', body: { md5: qr.md5 } });
    } finally {
      await relayed.close();
    }
  });
});

/** A KHQR as the till makes it on the device while offline: the sale's store account and amount. */
function deviceQr(number: string, cents: number) {
  const created = Date.now();
  const payload = encodeKhqr({
    account_id: ACCOUNT,
    merchant_id: null,
    acquiring_bank: null,
    merchant_name: 'Depot Phnom Penh',
    merchant_city: 'Phnom Penh',
    mcc: '5999',
    currency: 'USD',
    amount: cents,
    bill_number: number,
    store_label: null,
    terminal_label: null,
    created_at: created,
    expires_at: created + 5 * 60_000,
  });
  return { payload, md5: createHash('md5').update(payload).digest('hex') };
}

describe('a KHQR shown offline', () => {
  it('is recorded when the sale syncs and checked with Bakong at once', async () => {
    const qrOf = deviceQr('OFF-TEST-0001', 1250);
    const order = await shop.sell(1, [{ method: 'khqr', amount: 1250, transaction_id: qrOf.md5 }]);
    const hash = hashOf(`offline-${order.id}`);
    bakong.byMd5.set(qrOf.md5, { hash, toAccountId: ACCOUNT, currency: 'USD', amount: 12.5 });
    const res = await send('POST', `/api/orders/${order.id}/khqr/offline`, qrOf);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ offline: true, md5: qrOf.md5, paid_hash: hash, amount_cents: 1250 });
    // recorded once: a second sync answers the same
    expect((await send('POST', `/api/orders/${order.id}/khqr/offline`, qrOf)).body.data.paid_hash).toBe(hash);
    const claimed = await ctx.db.selectFrom('bank_transactions').select('order_id').where('hash', '=', hash).execute();
    expect(claimed).toEqual([{ order_id: order.id }]);
  });

  it('refuses a QR that is not the sale’s (md5, account) with a localized message', async () => {
    const order = await shop.sell(1);
    const qrOf = deviceQr(order.number, 1250);
    const forged = await send('POST', `/api/orders/${order.id}/khqr/offline`, { ...qrOf, md5: 'f'.repeat(32) }, kh());
    expect(forged.status).toBe(422);
    expect(forged.body.errors.payload).toEqual(['នេះមិនមែនជា KHQR នៃការលក់នេះ ចូលគណនីរបស់ហាងនោះទេ។']);
    const other = encodeKhqr({ ...decodeKhqr(qrOf.payload), account_id: 'thief@aba' });
    const md5 = createHash('md5').update(other).digest('hex');
    expect((await send('POST', `/api/orders/${order.id}/khqr/offline`, { payload: other, md5 })).status).toBe(422);
  });
});

describe('closing a shift', () => {
  it('lists the KHQR sales Bakong has not confirmed and checks them in one call', async () => {
    const cashier = await createUser(ctx.db, { roles: ['cashier'] });
    const walkIn = (
      await ctx.db.selectFrom('customers').select('id').where('is_walk_in', '=', 1).executeTakeFirstOrThrow()
    ).id;
    const as = { ...bearer((await login(ctx.app, cashier.name, cashier.password)).token), 'x-localization': 'en' };
    const opened = await send(
      'POST',
      '/api/shifts',
      { store_id: shop.storeId, till: 'Till K', float: { usd: [], khr: [] } },
      as,
    );
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    const shift = opened.body.data.id as number;
    const sold = [];
    for (let i = 0; i < 3; i++) {
      // the till's KHQR checkout: the sale first, unpaid, then its QR
      const sale = await send(
        'POST',
        '/api/orders',
        {
          customer_id: walkIn,
          items: [{ product_id: shop.product, quantity: 1 }],
          payments: [],
          awaiting_khqr: true,
        },
        as,
      );
      expect(sale.status, JSON.stringify(sale.body)).toBe(201);
      const order = sale.body.data as { id: number; number: string };
      const qr = (await send('POST', `/api/orders/${order.id}/khqr`, { currency: 'USD' }, as)).body.data;
      // the cashier saw the bank's notification and confirmed by hand
      const paid = await send(
        'POST',
        `/api/orders/${order.id}/payments`,
        {
          payments: [{ method: 'khqr', amount: 1250, transaction_id: qr.md5 }],
        },
        as,
      );
      expect(paid.status, JSON.stringify(paid.body)).toBe(200);
      sold.push({ order, qr });
    }
    const listed = await send('GET', `/api/shifts/${shift}/khqr`, undefined, as);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((r: { order_number: string }) => r.order_number)).toEqual(
      sold.map((s) => s.order.number),
    );

    const [good, wrong] = sold;
    bakong.byMd5.set(good.qr.md5, {
      hash: hashOf(`sweep-${good.order.id}`),
      toAccountId: ACCOUNT,
      currency: 'USD',
      amount: 12.5,
    });
    bakong.byMd5.set(wrong.qr.md5, {
      hash: hashOf(`sweep-${wrong.order.id}`),
      toAccountId: ACCOUNT,
      currency: 'USD',
      amount: 1,
    });
    const before = bakong.calls.length;
    const checked = await send('POST', `/api/shifts/${shift}/khqr/check`, undefined, as);
    expect(checked.status, JSON.stringify(checked.body)).toBe(200);
    expect(bakong.calls.slice(before)).toEqual([
      { path: '/v1/check_transaction_by_md5_list', auth: 'Bearer test-token', body: sold.map((s) => s.qr.md5) },
    ]);
    expect(checked.body.message).toBe('Checked with Bakong: 1 confirmed, 2 not found.');
    expect(checked.body.data.map((r: { result: string }) => r.result)).toEqual(['confirmed', 'mismatch', 'not_found']);
    // confirmed ones leave the list; the order keeps its one payment
    const left = (await send('GET', `/api/shifts/${shift}/khqr`, undefined, as)).body.data;
    expect(left.map((r: { order_number: string }) => r.order_number)).toEqual([
      wrong.order.number,
      sold[2].order.number,
    ]);
    expect(left[1].checked_at).not.toBeNull();
    expect((await send('GET', `/api/orders/${good.order.id}`)).body.data.paid_cents).toBe(1250);
  });

  it('is not listed for a shift outside the user’s stores, nor checked by a viewer', async () => {
    expect((await send('GET', '/api/shifts/999999/khqr')).status).toBe(404);
    const viewer = await createUser(ctx.db, { permissions: ['shifts.view'] });
    const token = (await login(ctx.app, viewer.name, viewer.password)).token;
    expect((await send('POST', '/api/shifts/1/khqr/check', undefined, bearer(token))).status).toBe(403);
  });
});
