import { todayInCambodia } from '@depot/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { factories, firstStore, stockIn, TAXED_BEER } from '../../test/factories.ts';
import { FAKE_BUSINESS, FAKE_CLIENT, type FakeCamInvoice, startFakeCamInvoice } from '../../test/fake-caminvoice.ts';
import { ADMIN_PASSWORD, bearer, login, useTestApp } from '../../test/harness.ts';
import { validateUbl } from '../einvoice/ubl.validate.ts';

/**
 * Issued tax documents cleared with CamInvoice (the fake platform): a tax invoice to a registered
 * buyer is queued in its issuing transaction, submitted as an Invoice (380), turns valid and its
 * detail carries the verification link; a return's credit note is a CreditNote (381) referencing it.
 */

const ctx = useTestApp();
let fake: FakeCamInvoice;
let app: FastifyInstance;
let headers: Record<string, string>;
const ids: Record<string, number> = {};

async function send(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  const res = await app.inject({ method, url, headers, payload });
  return { status: res.statusCode, body: res.json() };
}

async function sale(customerId: number, quantity = 4) {
  const res = await send('POST', '/api/orders', {
    customer_id: customerId,
    items: [{ product_id: ids.beer, quantity }],
    payments: [{ method: 'cash_usd', amount: 10_000 }],
  });
  expect(res.status).toBe(201);
  return res.body.data as { id: number; items: { id: number }[] };
}

const outbox = () => ctx.db.selectFrom('einvoice_outbox').selectAll().orderBy('id').execute();

beforeAll(async () => {
  fake = await startFakeCamInvoice();
  app = await buildApp({
    db: ctx.db,
    uploadsDir: ctx.uploadsDir,
    einvoice: {
      caminvoice: { clientId: FAKE_CLIENT.id, clientSecret: FAKE_CLIENT.secret, baseUrl: fake.base, timeoutMs: 3000 },
      webhookSecret: 'webhook-secret-for-tax-tests-0123456789',
    },
  });
  await app.ready();
  headers = { ...bearer((await login(app, 'admin', ADMIN_PASSWORD)).token), 'x-localization': 'en' };
  const make = factories({ ...ctx, app } as typeof ctx, () => headers);
  const { drinks, can } = await make.catalogue();
  ids.beer = await make.product({ ...TAXED_BEER, category_id: drinks, unit_id: can });
  await stockIn(ctx.db, { store: await firstStore(ctx.db), product: ids.beer, quantity: 100, valueCents: 5000 });
  ids.buyer = await make.create('/api/customers', {
    name: 'Sokha Mart',
    phone: '012 345 678',
    address: 'Street 63, Phnom Penh',
    vat_number: 'K002-100200300',
  });
  ids.other = await make.create('/api/customers', {
    name: 'Dara Shop',
    phone: '012 999 888',
    address: 'Street 2, Phnom Penh',
    vat_number: 'K003-100200301',
  });
  const current = (await send('GET', '/api/settings')).body.data;
  const { logo_url: _l, favicon_url: _f, ...rest } = current;
  const seller = { vat_number: FAKE_BUSINESS.tin, store_address: 'Street 271, Phnom Penh' };
  expect((await send('PUT', '/api/settings', { ...rest, ...seller })).status).toBe(200);
  expect(
    (await send('POST', '/api/official-rates', { kind: 'nbc_daily', date: todayInCambodia(), rate_khr: 4100 })).status,
  ).toBe(201);
});

afterAll(async () => {
  await app?.close();
  await fake?.close();
});

describe('tax documents cleared with CamInvoice', () => {
  it('queues nothing while the business is not connected', async () => {
    const order = await sale(ids.other);
    const issued = await send('POST', '/api/tax-documents', { order_id: order.id });
    expect(issued.status).toBe(201);
    expect(issued.body.data.einvoice).toBeNull();
    expect(await outbox()).toEqual([]);
  });

  it('submits a tax invoice to a registered buyer, which turns valid with its verification link', async () => {
    const started = await send('POST', '/api/caminvoice/connection/start', { redirect_url: 'http://depot.test/s' });
    const callback = await fake.approve(started.body.data.authorize_url);
    expect((await send('POST', '/api/caminvoice/connection', { callback_url: callback })).status).toBe(200);

    const order = await sale(ids.buyer);
    ids.order = order.id;
    ids.item = order.items[0].id;
    const issued = await send('POST', '/api/tax-documents', { order_id: order.id });
    expect(issued.status).toBe(201);
    ids.invoice = issued.body.data.id;
    // queued in the issuing transaction
    expect(issued.body.data.einvoice).toMatchObject({ kind: 'invoice', status: 'draft', verification_link: null });

    await app.einvoicing.tick();
    const sent = fake.documents.find((d) => d.number === issued.body.data.number);
    expect(sent?.type).toBe('INVOICE');
    expect(sent?.xml).toContain('<cbc:InvoiceTypeCode');
    expect(sent?.xml).toContain('>380<');
    expect(sent?.xml).toContain(FAKE_BUSINESS.endpoint_id);
    expect(sent?.xml).toContain('K002-100200300');
    expect(await validateUbl('invoice', sent?.xml ?? '')).toEqual({ valid: true, errors: '' });

    const detail = await send('GET', `/api/tax-documents/${ids.invoice}`);
    expect(detail.body.data.einvoice).toEqual({
      kind: 'invoice',
      status: 'valid',
      reason: null,
      verification_link: `${fake.base}/verify/${sent?.id}`,
    });
  });

  it('makes a return’s credit note a CreditNote (381) referencing the invoice', async () => {
    const back = await send('POST', `/api/orders/${ids.order}/returns`, {
      items: [{ order_item_id: ids.item, quantity: 1 }],
      refund_method: 'cash_usd',
      note: 'Dented can',
    });
    expect(back.status).toBe(200);
    const invoice = (await send('GET', `/api/tax-documents/${ids.invoice}`)).body.data;
    const creditId = invoice.notes[0].id;
    await app.einvoicing.tick();
    const credit = (await send('GET', `/api/tax-documents/${creditId}`)).body.data;
    expect(credit.einvoice).toMatchObject({ kind: 'credit_note', status: 'valid' });
    expect(credit.einvoice.verification_link).toMatch(/\/verify\//);
    const sent = fake.documents.find((d) => d.number === credit.number);
    expect(sent?.type).toBe('CREDIT_NOTE');
    expect(sent?.xml).toContain('<CreditNote');
    expect(sent?.xml).toContain('>381<');
    expect((await validateUbl('credit_note', sent?.xml ?? '')).valid).toBe(true);
    expect(sent?.xml).toMatch(new RegExp(`<cac:BillingReference>[\\s\\S]*${invoice.number}`));
    expect((await outbox()).map((r) => [r.document_kind, r.document_id, r.status])).toEqual([
      ['invoice', ids.invoice, 'valid'],
      ['credit_note', creditId, 'valid'],
    ]);
  });

  it('does not clear a commercial invoice', async () => {
    const walkIn = (
      await ctx.db.selectFrom('customers').select('id').where('is_walk_in', '=', 1).executeTakeFirstOrThrow()
    ).id;
    const order = await sale(walkIn, 1);
    const issued = await send('POST', '/api/tax-documents', { order_id: order.id });
    expect(issued.body.data).toMatchObject({ kind: 'commercial_invoice', einvoice: null });
    expect(await outbox()).toHaveLength(2);
  });
});

describe('a weighed line (1.250 kg at $4.99 a kg)', () => {
  it('is invoiced as 1250 g with the unit’s 3 decimals, no discount, and cleared as 1.250 KGM', async () => {
    const create = async (url: string, body: object) => {
      const res = await send('POST', url, body);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.data.id as number;
    };
    const kg = await create('/api/units', { name_en: 'Kilogram', name_kh: 'គីឡូក្រាម', short_name: 'kg', decimals: 3 });
    const meat = await create('/api/categories', { name_en: 'Meat', name_kh: 'សាច់' });
    const pork = await create('/api/products', {
      name_en: 'Pork belly',
      name_kh: 'សាច់ជ្រូកបីជាន់',
      sku: 'PORK-KG',
      category_id: meat,
      unit_id: kg,
      price_usd_cents: 499,
      taxable: true,
    });
    await stockIn(ctx.db, { store: await firstStore(ctx.db), product: pork, quantity: 20_000, valueCents: 6_000 });
    const sold = await send('POST', '/api/orders', {
      customer_id: ids.buyer,
      items: [{ product_id: pork, quantity: 1250 }],
      payments: [{ method: 'cash_usd', amount: 10_000 }],
    });
    expect(sold.status).toBe(201);
    const item = sold.body.data.items[0];

    const issued = await send('POST', '/api/tax-documents', { order_id: sold.body.data.id });
    expect(issued.status).toBe(201);
    // $4.99 × 1.250 = $6.2375: $6.24 before VAT, nothing taken off; VAT 10 %
    expect(issued.body.data.lines).toEqual([
      expect.objectContaining({ quantity: 1250, decimals: 3, unit_price_cents: 499, discount_cents: 0 }),
    ]);
    expect(issued.body.data.lines[0]).toMatchObject({ net_cents: 624, tax_cents: 62, total_cents: 686 });
    expect(issued.body.data).toMatchObject({ net_cents: 624, tax_cents: 62, total_cents: 686 });
    expect(item).toMatchObject({ net_cents: 624, total_cents: 686 });

    await app.einvoicing.tick();
    const sent = fake.documents.find((d) => d.number === issued.body.data.number);
    expect(sent?.xml).toContain('<cbc:InvoicedQuantity unitCode="KGM">1.250</cbc:InvoicedQuantity>');
    expect(await validateUbl('invoice', sent?.xml ?? '')).toEqual({ valid: true, errors: '' });

    // 250 g brought back: the credit note's line is 0.250 kg, its share of the money, no discount
    const back = await send('POST', `/api/orders/${sold.body.data.id}/returns`, {
      items: [{ order_item_id: item.id, quantity: 250 }],
      refund_method: 'cash_usd',
      note: 'Too much',
    });
    expect(back.status).toBe(200);
    const creditId = (await send('GET', `/api/tax-documents/${issued.body.data.id}`)).body.data.notes[0].id;
    const credit = (await send('GET', `/api/tax-documents/${creditId}`)).body.data;
    expect(credit.lines).toEqual([
      expect.objectContaining({ quantity: 250, decimals: 3, net_cents: 125, discount_cents: 0 }),
    ]);
    await app.einvoicing.tick();
    const note = fake.documents.find((d) => d.number === credit.number);
    expect(note?.xml).toContain('<cbc:CreditedQuantity unitCode="KGM">0.250</cbc:CreditedQuantity>');
    expect(await validateUbl('credit_note', note?.xml ?? '')).toEqual({ valid: true, errors: '' });
  });
});
