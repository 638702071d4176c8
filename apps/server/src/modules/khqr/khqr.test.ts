import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { decodeKhqr, encodeKhqr, type KhqrFields } from '@depot/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../app.ts';
import { ADMIN_PASSWORD, bearer, createUser, login, useTestApp } from '../../test/harness.ts';
import { SAMPLE_KHQR } from '../../test/printing.ts';
import { sellableProduct } from '../../test/selling.ts';

// The National Bank's SDK, in tests only: our payloads must be the ones it makes.
type Made = { status: { code: number }; data: { qr: string; md5: string } | null };
const sdk = createRequire(import.meta.url)('bakong-khqr') as {
  BakongKHQR: (new () => { generateIndividual(i: unknown): Made; generateMerchant(i: unknown): Made }) & {
    verify(qr: string): { isValid: boolean };
    decode(qr: string): { data: Record<string, unknown> };
  };
  IndividualInfo: new (account: string, name: string, city: string, optional: object) => unknown;
  MerchantInfo: new (
    account: string,
    name: string,
    city: string,
    id: string,
    bank: string,
    optional: object,
  ) => unknown;
  khqrData: { currency: { usd: number; khr: number } };
};

const ctx = useTestApp();
let headers: Record<string, string>;
let shop: Awaited<ReturnType<typeof sellableProduct>>;

async function send(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, as = headers, app = ctx.app) {
  const res = await app.inject({ method, url, headers: as, payload });
  return { status: res.statusCode, body: res.json() };
}

/** The first store with these Bakong settings (the rest of the store as it is). */
async function setStore(khqr: Record<string, string | null>) {
  const store = (await send('GET', `/api/stores/${shop.storeId}`)).body.data;
  const { name, code, phone, address, village_id, status } = store;
  return send('PUT', `/api/stores/${shop.storeId}`, { name, code, phone, address, village_id, status, ...khqr });
}

const account = {
  khqr_account_id: 'depot_pp@aclb',
  khqr_merchant_name: 'Depot Phnom Penh',
  khqr_merchant_city: 'Phnom Penh',
  khqr_merchant_id: null,
  khqr_acquiring_bank: null,
};

beforeAll(async () => {
  headers = { ...bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token), 'x-localization': 'en' };
  shop = await sellableProduct(ctx.app, ctx.db, headers, 1250);
});

describe('KHQR payloads', () => {
  const now = SAMPLE_KHQR.created_at;
  const fields: KhqrFields = { ...SAMPLE_KHQR, terminal_label: 'Till 2' };
  const optional = (f: KhqrFields) => ({
    currency: f.currency === 'USD' ? sdk.khqrData.currency.usd : sdk.khqrData.currency.khr,
    // the SDK writes "12.50" from the text; from the number 12.5 too, but "3" from 3: Depot always writes cents
    amount:
      f.currency === 'USD' ? `${Math.floor(f.amount / 100)}.${String(f.amount % 100).padStart(2, '0')}` : f.amount,
    billNumber: f.bill_number,
    storeLabel: f.store_label,
    terminalLabel: f.terminal_label,
    expirationTimestamp: f.expires_at,
    merchantCategoryCode: f.mcc,
    acquiringBank: f.merchant_id ? undefined : f.acquiring_bank,
  });

  it('are byte-equal to the SDK’s for the same inputs (its clock pinned)', () => {
    vi.spyOn(Date, 'now').mockReturnValue(now);
    try {
      const cases: KhqrFields[] = [
        fields,
        { ...fields, currency: 'KHR', amount: 51_300, terminal_label: null },
        { ...fields, amount: 300, bill_number: null, store_label: null, terminal_label: null },
        { ...fields, acquiring_bank: 'ACLEDA Bank' },
        { ...fields, merchant_id: '1234567', acquiring_bank: 'Dev Bank' },
      ];
      for (const f of cases) {
        const info = f.merchant_id
          ? new sdk.MerchantInfo(
              f.account_id,
              f.merchant_name,
              f.merchant_city,
              f.merchant_id,
              f.acquiring_bank ?? '',
              optional(f),
            )
          : new sdk.IndividualInfo(f.account_id, f.merchant_name, f.merchant_city, optional(f));
        const made = f.merchant_id
          ? new sdk.BakongKHQR().generateMerchant(info)
          : new sdk.BakongKHQR().generateIndividual(info);
        expect(made.status.code, JSON.stringify(made.status)).toBe(0);
        expect(encodeKhqr(f)).toBe(made.data?.qr);
        expect(decodeKhqr(made.data?.qr ?? '')).toEqual(f);
      }
    } finally {
      vi.restoreAllMocks();
    }
  });
});

describe('a store’s Bakong account', () => {
  it('is checked: name@bank, EMV lengths, Latin letters, all three together', async () => {
    const bad = await setStore({ ...account, khqr_account_id: 'not an account', khqr_merchant_city: 'x'.repeat(16) });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['khqr_account_id', 'khqr_merchant_city']);
    const khmer = await setStore({ ...account, khqr_merchant_name: 'ហាងដេប៉ូ' });
    expect(khmer.body.errors.khqr_merchant_name).toEqual(['The format is not valid.']);
    const half = await setStore({ ...account, khqr_merchant_city: null });
    expect(half.body.errors).toEqual({
      khqr_merchant_city: ['A Bakong account needs its account id, merchant name and city together.'],
    });
    const merchant = await setStore({ ...account, khqr_merchant_id: '123' });
    expect(merchant.body.errors).toEqual({ khqr_acquiring_bank: ['A merchant account names its acquiring bank.'] });
  });

  it('is refused to a cashier, who may not update stores', async () => {
    const cashier = await createUser(ctx.db, { roles: ['cashier'] });
    const token = (await login(ctx.app, cashier.name, cashier.password)).token;
    const res = await ctx.app.inject({
      method: 'PUT',
      url: `/api/stores/${shop.storeId}`,
      headers: bearer(token),
      payload: { name: 'Main', code: 'PP01', ...account },
    });
    expect(res.statusCode).toBe(403);
  });

  it('without one, no KHQR is made', async () => {
    expect(
      (await setStore({ ...account, khqr_account_id: null, khqr_merchant_name: null, khqr_merchant_city: null }))
        .status,
    ).toBe(200);
    const order = await shop.sell(1);
    const res = await send('POST', `/api/orders/${order.id}/khqr`, { currency: 'USD' });
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/has no Bakong account for KHQR/);
  });
});

describe('paying an order by KHQR', () => {
  beforeAll(async () => {
    const saved = await setStore(account);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data).toMatchObject(account);
  });

  it('makes a dynamic KHQR for what is due, in dollars or riel, with the order’s number as the bill', async () => {
    // 2 × $12.50 = $25.00, $5 paid in cash: $20.00 due, 82,000៛ at 4,100
    const order = await shop.sell(2, [{ method: 'cash_usd', amount: 500 }]);
    const usd = await send('POST', `/api/orders/${order.id}/khqr`, { currency: 'USD' });
    expect(usd.status).toBe(201);
    expect(usd.body.message).toBe('KHQR ready for $20.00.');
    expect(usd.body.data).toMatchObject({
      order_number: order.number,
      currency: 'USD',
      amount: 2000,
      amount_cents: 2000,
      offline: false,
      can_check: false,
    });
    const fields = decodeKhqr(usd.body.data.payload);
    expect(fields).toMatchObject({
      account_id: 'depot_pp@aclb',
      merchant_name: 'Depot Phnom Penh',
      merchant_city: 'Phnom Penh',
      currency: 'USD',
      amount: 2000,
      bill_number: order.number,
    });
    // a till's QR: 10 minutes at most (BAKONG_QR_MINUTES)
    expect(fields.expires_at - fields.created_at).toBe(10 * 60_000);
    expect(sdk.BakongKHQR.verify(usd.body.data.payload).isValid).toBe(true);
    expect(sdk.BakongKHQR.decode(usd.body.data.payload).data).toMatchObject({
      bakongAccountID: 'depot_pp@aclb',
      billNumber: order.number,
      transactionCurrency: '840',
      transactionAmount: '20.00',
    });

    const khr = await send('POST', `/api/orders/${order.id}/khqr`, {
      currency: 'KHR',
      for: 'receipt',
      expires_in_minutes: 60,
    });
    expect(khr.body.data).toMatchObject({ currency: 'KHR', amount: 82_000, amount_cents: 2000 });
    expect(decodeKhqr(khr.body.data.payload)).toMatchObject({ currency: 'KHR', amount: 82_000 });
    // the receipt reads the newest
    expect((await send('GET', `/api/orders/${order.id}/khqr`)).body.data.md5).toBe(khr.body.data.md5);
  });

  it('answers in Khmer too, and refuses what cannot be paid', async () => {
    const paid = await shop.sell(1, [{ method: 'cash_usd', amount: 1250 }]);
    const none = await send(
      'POST',
      `/api/orders/${paid.id}/khqr`,
      { currency: 'USD' },
      { ...headers, 'x-localization': 'kh' },
    );
    expect(none.status).toBe(422);
    expect(none.body.errors.currency).toEqual(['ការលក់នេះគ្មានអ្វីត្រូវបង់ទៀតទេ។']);
    expect((await send('POST', '/api/orders/999999/khqr', { currency: 'USD' })).status).toBe(404);
    expect((await send('POST', `/api/orders/${paid.id}/khqr`, { currency: 'EUR' })).status).toBe(422);
    expect((await send('GET', `/api/orders/${paid.id}/khqr`)).body.data).toBeNull();
  });

  it('is confirmed by hand without a Bakong token: the tender is KHQR with the QR’s reference', async () => {
    const order = await shop.sell(1);
    const qr = (await send('POST', `/api/orders/${order.id}/khqr`, { currency: 'USD' })).body.data;
    const check = await send('POST', `/api/orders/${order.id}/khqr/check`, {});
    expect(check.status).toBe(409);
    expect(check.body.message).toBe('Payment checks through Bakong are not set up: confirm the payment by hand.');
    const res = await send('POST', `/api/orders/${order.id}/payments`, {
      payments: [{ method: 'khqr', amount: qr.amount_cents, transaction_id: qr.md5 }],
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ payment_status: 'paid', due_cents: 0 });
    expect(res.body.data.payments.at(-1)).toMatchObject({ method: 'khqr', amount: 1250, transaction_id: qr.md5 });
  });
});

describe('the Bakong check (a fake Bakong on port 0)', () => {
  let bakong: http.Server;
  let app: FastifyInstance;
  const paid = new Map<string, object>();
  const seen: { auth?: string; md5?: string }[] = [];

  beforeAll(async () => {
    bakong = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        const { md5 } = JSON.parse(body) as { md5: string };
        seen.push({ auth: request.headers.authorization, md5 });
        response.setHeader('content-type', 'application/json');
        const data = request.url === '/v1/check_transaction_by_md5' ? paid.get(md5) : undefined;
        response.end(
          JSON.stringify(
            data
              ? { responseCode: 0, responseMessage: 'Getting transaction successfully.', errorCode: null, data }
              : { responseCode: 1, responseMessage: 'Transaction could not be found.', errorCode: 1, data: null },
          ),
        );
      });
    });
    await new Promise<void>((resolve) => bakong.listen(0, '127.0.0.1', resolve));
    const { port } = bakong.address() as AddressInfo;
    app = await buildApp({
      db: ctx.db,
      uploadsDir: ctx.uploadsDir,
      bakong: { token: 'test-token', url: `http://127.0.0.1:${port}/` },
    });
  });
  afterAll(async () => {
    await app?.close();
    await new Promise((resolve) => bakong?.close(resolve));
  });

  it('finds no payment, then the payment: recorded once with the bank’s hash, however often it is asked', async () => {
    const order = await shop.sell(1);
    const qr = (await send('POST', `/api/orders/${order.id}/khqr`, { currency: 'KHR' }, headers, app)).body.data;
    expect(qr.can_check).toBe(true);

    const before = await send('POST', `/api/orders/${order.id}/khqr/check`, {}, headers, app);
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ message: 'Bakong has no payment for this QR yet.', data: { paid: false } });
    expect(seen.at(-1)).toEqual({ auth: 'Bearer test-token', md5: qr.md5 });

    paid.set(qr.md5, {
      hash: 'a1b2c3',
      toAccountId: 'depot_pp@aclb',
      currency: 'KHR',
      amount: qr.amount,
      description: '',
    });
    for (let i = 0; i < 2; i++) {
      const after = await send('POST', `/api/orders/${order.id}/khqr/check`, { md5: qr.md5 }, headers, app);
      expect(after.status).toBe(200);
      expect(after.body.message).toBe('Bakong confirmed the payment.');
      expect(after.body.data).toMatchObject({
        paid: true,
        hash: 'a1b2c3',
        order: { payment_status: 'paid', due_cents: 0 },
      });
      const khqr = after.body.data.order.payments.filter((p: { method: string }) => p.method === 'khqr');
      expect(khqr).toEqual([expect.objectContaining({ amount: 1250, transaction_id: 'a1b2c3' })]);
    }
  });

  it('refuses a payment into another account or for another amount', async () => {
    const order = await shop.sell(1);
    const qr = (await send('POST', `/api/orders/${order.id}/khqr`, { currency: 'USD' }, headers, app)).body.data;
    paid.set(qr.md5, { hash: 'zz', toAccountId: 'someone@else', currency: 'USD', amount: 12.5 });
    const res = await send('POST', `/api/orders/${order.id}/khqr/check`, {}, headers, app);
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/does not match this QR/);
    paid.set(qr.md5, { hash: 'zz', toAccountId: 'depot_pp@aclb', currency: 'USD', amount: 12.49 });
    expect((await send('POST', `/api/orders/${order.id}/khqr/check`, {}, headers, app)).status).toBe(409);
    paid.set(qr.md5, { hash: 'zz', toAccountId: 'depot_pp@aclb', currency: 'USD', amount: 12.5 });
    expect((await send('POST', `/api/orders/${order.id}/khqr/check`, {}, headers, app)).body.data.paid).toBe(true);
  });

  it('says so when Bakong cannot be reached', async () => {
    const down = await buildApp({
      db: ctx.db,
      uploadsDir: ctx.uploadsDir,
      bakong: { token: 't', url: 'http://127.0.0.1:9' },
    });
    try {
      const order = await shop.sell(1);
      await send('POST', `/api/orders/${order.id}/khqr`, { currency: 'USD' }, headers, down);
      const res = await send(
        'POST',
        `/api/orders/${order.id}/khqr/check`,
        {},
        { ...headers, 'x-localization': 'kh' },
        down,
      );
      expect(res.status).toBe(502);
      expect(res.body.message).toBe('មិនអាចភ្ជាប់ទៅបាគងបានទេ៖ សូមព្យាយាមម្ដងទៀត ឬបញ្ជាក់ការបង់ប្រាក់ដោយដៃ។');
    } finally {
      await down.close();
    }
  });
});
