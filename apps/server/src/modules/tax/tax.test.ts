import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { previousMonth, taxRiel, todayInCambodia } from '@depot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transaction } from '../../db/transaction.ts';
import { ADMIN_PASSWORD, bearer, createStore, createUser, login, useTestApp } from '../../test/harness.ts';
import { lockProducts, receive } from '../stock/ledger.ts';
import { pullNbcRate, RateFeedFailed } from './tax.feed.ts';
import { issueSaleInvoice } from './tax.issue.ts';
import { taxDocumentById } from './tax.snapshot.ts';

const ctx = useTestApp();
let admin: Record<string, string>;
const ids: Record<string, number> = {};
let storeCode = '';
const today = todayInCambodia();
const year = today.slice(0, 4);

async function send(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, headers = admin) {
  const res = await ctx.app.inject({ method, url, headers, payload });
  return { status: res.statusCode, body: res.json() };
}
const en = () => ({ ...admin, 'x-localization': 'en' });
const kh = () => ({ ...admin, 'x-localization': 'kh' });

async function made(url: string, body: object) {
  const res = await send('POST', url, body, en());
  if (res.status !== 201) throw new Error(`${url}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** A paid sale of 3 beers ($1.25, VAT 10 %) and a bag of rice ($10, untaxed) to a customer. */
async function paidSale(customerId: number) {
  return made('/api/orders', {
    customer_id: customerId,
    items: [
      { product_id: ids.beer, quantity: 3 },
      { product_id: ids.rice, quantity: 1 },
    ],
    payments: [{ method: 'cash_usd', amount: 1500 }],
  });
}

async function setSeller(values: { vat_number: string; store_address: string }) {
  const current = (await send('GET', '/api/settings', undefined, en())).body.data;
  const { logo_url: _l, favicon_url: _f, ...rest } = current;
  const res = await send('PUT', '/api/settings', { ...rest, ...values }, en());
  expect(res.status).toBe(200);
}

async function setPolicy(policy: 'market' | 'gdt_monthly') {
  const current = (await send('GET', '/api/settings/sale', undefined, en())).body.data;
  const res = await send('PUT', '/api/settings/sale', { ...current, tax_rate_policy: policy }, en());
  expect(res.status).toBe(200);
}

const countDocs = async () =>
  Number(
    (
      await ctx.db
        .selectFrom('tax_documents')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

beforeAll(async () => {
  admin = bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token);
  const store = await ctx.db.selectFrom('stores').select(['id', 'code']).orderBy('id').executeTakeFirstOrThrow();
  ids.store = store.id;
  storeCode = store.code;
  ids.walkIn = (
    await ctx.db.selectFrom('customers').select('id').where('is_walk_in', '=', 1).executeTakeFirstOrThrow()
  ).id;
  const category = (await made('/api/categories', { name_en: 'Drinks', name_kh: 'ភេសជ្ជៈ' })).id;
  const unit = (await made('/api/units', { name_en: 'Can', name_kh: 'កំប៉ុង', short_name: 'can' })).id;
  const base = { category_id: category, unit_id: unit };
  ids.beer = (
    await made('/api/products', {
      ...base,
      name_en: 'Beer',
      name_kh: 'ស្រាបៀរ',
      sku: 'B1',
      price_usd_cents: 125,
      taxable: true,
    })
  ).id;
  ids.rice = (
    await made('/api/products', {
      ...base,
      name_en: 'Rice',
      name_kh: 'អង្ករ',
      sku: 'R1',
      price_usd_cents: 1000,
      taxable: false,
    })
  ).id;
  await ctx.db.transaction().execute(async (trx) => {
    for (const productId of [ids.beer, ids.rice]) {
      await lockProducts(trx, [productId]);
      await receive(trx, {
        storeId: ids.store,
        productId,
        type: 'purchase_receipt',
        batch: { lot: null, expiryDate: null },
        quantity: 500,
        valueCents: 500 * 50,
        document: null,
        userId: null,
      });
    }
  });
  ids.buyer = (
    await made('/api/customers', {
      name: 'Sokha Trading Co., Ltd.',
      phone: '012 345 678',
      address: 'No. 12, Street 271, Phnom Penh',
      vat_number: 'K001-901234567',
    })
  ).id;
  ids.noAddress = (await made('/api/customers', { name: 'Dara Shop', vat_number: 'L001-100200300' })).id;
});

describe('issuing a sale’s invoice', () => {
  it('refuses a tax invoice while the seller has no VAT number, naming it in the user’s language', async () => {
    const order = await paidSale(ids.buyer);
    const res = await send('POST', '/api/tax-documents', { order_id: order.id }, en());
    expect(res.status).toBe(422);
    expect(res.body.errors['seller.tin'][0]).toMatch(/seller’s VAT number \(TIN\) is missing/);
    expect(res.body.errors['seller.address'][0]).toMatch(/seller’s address is missing/);
    const khmer = await send('POST', '/api/tax-documents', { order_id: order.id }, kh());
    expect(khmer.body.errors['seller.tin'][0]).toContain('អ្នកលក់');
    expect(await countDocs()).toBe(0);
  });

  it('refuses under the market rule without a recent National Bank rate', async () => {
    await setSeller({ vat_number: 'K009-123456789', store_address: 'Street 2004, Sen Sok, Phnom Penh' });
    const order = await paidSale(ids.buyer);
    const res = await send('POST', '/api/tax-documents', { order_id: order.id }, en());
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/No National Bank rate/);
    expect(await countDocs()).toBe(0);
  });

  it('issues a tax invoice to a registered buyer at the NBC rate when the sale’s rate is below it', async () => {
    const nbc = await made('/api/official-rates', { kind: 'nbc_daily', date: today, rate_khr: 4105 });
    expect(nbc).toMatchObject({ kind: 'nbc_daily', rate_khr: 4105, source: 'manual' });
    const order = await paidSale(ids.buyer);
    const res = await send('POST', '/api/tax-documents', { order_id: order.id }, en());
    expect(res.status).toBe(201);
    const doc = res.body.data;
    expect(res.body.message).toBe(`Tax invoice ${doc.number} issued.`);
    expect(doc).toMatchObject({
      kind: 'tax_invoice',
      series: `TI-${storeCode}-${year}`,
      sequence: 1,
      number: `TI-${storeCode}-${year}-000001`,
      seller: { tin: 'K009-123456789', address: 'Street 2004, Sen Sok, Phnom Penh' },
      buyer: { name: 'Sokha Trading Co., Ltd.', tin: 'K001-901234567', address: 'No. 12, Street 271, Phnom Penh' },
      rate_khr: 4105,
      rate_source: 'nbc_daily',
      rate_date: today,
      net_cents: 1375,
      tax_cents: 38,
      total_cents: 1413,
      total_khr: taxRiel(1413, 4105),
    });
    expect(doc.total_cents).toBe(order.total_cents);
    // 14.13 $ × 4105 = 58,003.65 ៛ → 58,004 ៛ (half up, to the riel)
    expect(doc.total_khr).toBe(58_004);
    expect(doc.taxes).toEqual([
      { tax_category: 'S', tax_rate_bp: 1000, net_cents: 375, tax_cents: 38 },
      { tax_category: 'E', tax_rate_bp: 0, net_cents: 1000, tax_cents: 0 },
    ]);
    expect(doc.lines.map((l: { quantity: number; tax_category: string }) => [l.quantity, l.tax_category])).toEqual([
      [3, 'S'],
      [1, 'E'],
    ]);
    ids.invoice = doc.id;
    ids.invoicedOrder = order.id;
    // the snapshot the e-invoice is made from is the same
    expect(await taxDocumentById(ctx.db, doc.id)).toMatchObject({ number: doc.number, total_khr: 58_004 });
    const again = await send('POST', '/api/tax-documents', { order_id: order.id }, en());
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(`This sale already has its invoice ${doc.number}.`);
  });

  it('issues a commercial invoice to a walk-in customer, and refuses them a tax invoice naming what is missing', async () => {
    const order = await paidSale(ids.walkIn);
    const refused = await send('POST', '/api/tax-documents', { order_id: order.id, kind: 'tax_invoice' }, en());
    expect(refused.status).toBe(422);
    expect(Object.keys(refused.body.errors).sort()).toEqual(['buyer.address', 'buyer.name', 'buyer.tin']);
    const res = await send('POST', '/api/tax-documents', { order_id: order.id }, en());
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ kind: 'commercial_invoice', number: `CI-${storeCode}-${year}-000001` });
    const noAddress = await paidSale(ids.noAddress);
    const missing = await send('POST', '/api/tax-documents', { order_id: noAddress.id }, en());
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.errors)).toEqual(['buyer.address']);
  });

  it('uses the tax office’s rate of the previous month under that rule, once entered', async () => {
    await setPolicy('gdt_monthly');
    const order = await paidSale(ids.buyer);
    const refused = await send('POST', '/api/tax-documents', { order_id: order.id }, en());
    expect(refused.status).toBe(422);
    expect(refused.body.message).toContain(previousMonth(today).slice(0, 7));
    await made('/api/official-rates', {
      kind: 'gdt_monthly',
      date: previousMonth(today).replace(/01$/, '15'),
      rate_khr: 4090,
    });
    const res = await send('POST', '/api/tax-documents', { order_id: order.id }, en());
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      rate_khr: 4090,
      rate_source: 'gdt_monthly',
      rate_date: previousMonth(today),
    });
    expect(res.body.data.total_khr).toBe(taxRiel(res.body.data.total_cents, 4090));
    await setPolicy('market');
  });

  it('keeps the numbers of a series unbroken when issues run at once and when one is rolled back', async () => {
    const orders: { id: number }[] = [];
    for (let i = 0; i < 6; i++) orders.push(await paidSale(ids.buyer));
    // one taken and rolled back: its number is taken again
    await expect(
      transaction(ctx.db, async (trx) => {
        await issueSaleInvoice(trx, orders[0].id, undefined, 1);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const answers = await Promise.all(
      orders.map((order) => send('POST', '/api/tax-documents', { order_id: order.id }, en())),
    );
    expect(answers.map((a) => a.status)).toEqual(orders.map(() => 201));
    const rows = await ctx.db
      .selectFrom('tax_documents')
      .select(['sequence', 'number'])
      .where('series', '=', `TI-${storeCode}-${year}`)
      .orderBy('sequence')
      .execute();
    expect(rows.map((r) => Number(r.sequence))).toEqual(rows.map((_, i) => i + 1));
    expect(new Set(rows.map((r) => r.number)).size).toBe(rows.length);
  });
});

describe('credit and debit notes', () => {
  it('makes a credit note of a return that references the invoice and keeps its rate', async () => {
    // a later NBC rate does not change the invoice's
    await made('/api/official-rates', { kind: 'nbc_daily', date: today, rate_khr: 4200 });
    const order = (await send('GET', `/api/orders/${ids.invoicedOrder}`, undefined, en())).body.data;
    const beer = order.items.find((i: { sku: string }) => i.sku === 'B1');
    const back = await send(
      'POST',
      `/api/orders/${order.id}/returns`,
      { items: [{ order_item_id: beer.id, quantity: 1 }], refund_method: 'cash_usd', note: 'Dented can' },
      en(),
    );
    expect(back.status).toBe(200);
    const invoice = (await send('GET', `/api/tax-documents/${ids.invoice}`, undefined, en())).body.data;
    expect(invoice.notes).toHaveLength(1);
    const credit = (await send('GET', `/api/tax-documents/${invoice.notes[0].id}`, undefined, en())).body.data;
    expect(credit).toMatchObject({
      kind: 'credit_note',
      number: `CN-${storeCode}-${year}-000001`,
      original_id: ids.invoice,
      original_number: invoice.number,
      reason: 'Dented can',
      rate_khr: 4105,
      rate_source: 'nbc_daily',
      buyer: { tin: 'K001-901234567' },
      net_cents: 125,
      tax_cents: 13,
      total_cents: 138,
      total_khr: taxRiel(138, 4105),
    });
    expect(credit.return_id).toEqual(expect.any(Number));
    const refunds = (await send('GET', `/api/orders/${order.id}`, undefined, en())).body.data.payments.filter(
      (p: { kind: string }) => p.kind === 'refund',
    );
    expect(refunds.map((p: { amount_cents: number }) => p.amount_cents)).toEqual([credit.total_cents]);
    // the invoice itself is as it was issued
    expect(invoice).toMatchObject({ total_cents: 1413, total_khr: 58_004 });
  });

  it('makes a debit note for a manager only, at the invoice’s VAT and rate, and never against a note', async () => {
    const cashier = await createUser(ctx.db, { roles: ['cashier'] });
    const cashierHeaders = {
      ...bearer((await login(ctx.app, cashier.name, cashier.password)).token),
      'x-localization': 'en',
    };
    const body = {
      reason: 'Price list error',
      lines: [{ description: 'Beer price correction', quantity: 3, unit_price_cents: 10, tax_category: 'S' }],
    };
    const forbidden = await send('POST', `/api/tax-documents/${ids.invoice}/debit-notes`, body, cashierHeaders);
    expect(forbidden.status).toBe(403);
    const res = await send('POST', `/api/tax-documents/${ids.invoice}/debit-notes`, body, en());
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      kind: 'debit_note',
      number: `DN-${storeCode}-${year}-000001`,
      original_id: ids.invoice,
      reason: 'Price list error',
      net_cents: 30,
      tax_cents: 3,
      total_cents: 33,
      rate_khr: 4105,
    });
    const onNote = await send('POST', `/api/tax-documents/${res.body.data.id}/debit-notes`, body, en());
    expect(onNote.status).toBe(409);
    const bad = await send('POST', `/api/tax-documents/${ids.invoice}/debit-notes`, { reason: '', lines: [] }, en());
    expect(bad.status).toBe(422);
  });

  it('makes a credit note of everything left when an invoiced sale is voided', async () => {
    const order = await paidSale(ids.buyer);
    const invoice = await made('/api/tax-documents', { order_id: order.id });
    const res = await send('POST', `/api/orders/${order.id}/cancel`, { reason: 'Wrong customer' }, en());
    expect(res.status).toBe(200);
    const detail = (await send('GET', `/api/tax-documents/${invoice.id}`, undefined, en())).body.data;
    expect(detail.notes).toHaveLength(1);
    expect(detail.notes[0]).toMatchObject({
      kind: 'credit_note',
      total_cents: invoice.total_cents,
      total_khr: invoice.total_khr,
    });
  });
});

describe('who sees what', () => {
  it('hides another store’s documents and refuses issuing without the permission', async () => {
    const other = await createStore(ctx.db, 'FAR');
    const stranger = await createUser(ctx.db, { roles: ['cashier'], store: other });
    const headers = {
      ...bearer((await login(ctx.app, stranger.name, stranger.password)).token),
      'x-localization': 'en',
    };
    expect((await send('GET', `/api/tax-documents/${ids.invoice}`, undefined, headers)).status).toBe(404);
    const list = await send('GET', '/api/tax-documents', undefined, headers);
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([]);
    const order = await paidSale(ids.buyer);
    expect((await send('POST', '/api/tax-documents', { order_id: order.id }, headers)).status).toBe(404);
    const reader = await createUser(ctx.db, { permissions: ['tax_documents.list', 'tax_documents.view'] });
    const readerHeaders = bearer((await login(ctx.app, reader.name, reader.password)).token);
    expect((await send('POST', '/api/tax-documents', { order_id: order.id }, readerHeaders)).status).toBe(403);
    const mine = await send(
      'GET',
      `/api/tax-documents?filter[order_id]=${ids.invoicedOrder}`,
      undefined,
      readerHeaders,
    );
    expect(mine.body.data.map((d: { kind: string }) => d.kind).sort()).toEqual([
      'credit_note',
      'debit_note',
      'tax_invoice',
    ]);
    const found = await send('GET', '/api/tax-documents?search=sokha', undefined, readerHeaders);
    expect(found.body.meta.total).toBeGreaterThan(0);
  });
});

describe('the NBC rate feed', () => {
  let server: http.Server;
  let body = '';
  let status = 200;
  let url = '';
  beforeAll(async () => {
    // a stand-in for https://www.nbc.gov.kh/api/exRate.php, in the NBC's XML
    server = http.createServer((_req, res) => {
      res.writeHead(status, { 'content-type': 'text/xml' });
      res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/exRate.php`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const nbcXml = (date: string, average: string) =>
    `<?xml version="1.0" encoding="UTF-8"?><ExchangeRate>` +
    `<ex><date>${date}</date><key>THB/KHR</key><unit>1</unit><bid>110</bid><ask>112</ask><average>111</average></ex>` +
    `<ex><date>${date}</date><key>USD/KHR</key><unit>1</unit><bid>4011</bid><ask>4027</ask><average>${average}</average></ex>` +
    `</ExchangeRate>`;

  it('keeps the day’s USD/KHR average, rounded up, once per publication', async () => {
    body = nbcXml('01/05/2026', '4019.5');
    const rate = await pullNbcRate(ctx.db, { url });
    expect(rate).toMatchObject({ kind: 'nbc_daily', date: '2026-01-05', rate_khr: 4020, source: 'feed' });
    const again = await pullNbcRate(ctx.db, { url });
    expect(again.id).toBe(rate.id);
    const history = await send('GET', '/api/official-rates?filter[kind]=nbc_daily', undefined, en());
    expect(history.body.data.some((r: { id: number }) => r.id === rate.id)).toBe(true);
  });

  it('refuses an answer that is not the NBC’s format, or not an answer', async () => {
    body = '<html>maintenance</html>';
    await expect(pullNbcRate(ctx.db, { url })).rejects.toBeInstanceOf(RateFeedFailed);
    status = 503;
    body = nbcXml('2026-01-06', '4020');
    await expect(pullNbcRate(ctx.db, { url })).rejects.toBeInstanceOf(RateFeedFailed);
    status = 200;
  });

  it('says so when no feed is configured', async () => {
    const res = await send('POST', '/api/official-rates/fetch', undefined, en());
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/DEPOT_RATE_FEED_URL/);
  });
});
