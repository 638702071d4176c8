import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { document, line } from '../../test/einvoices.ts';
import { FAKE_BUSINESS, FAKE_CLIENT, type FakeCamInvoice, startFakeCamInvoice } from '../../test/fake-caminvoice.ts';
import { ADMIN_PASSWORD, bearer, createUser, login, useTestApp } from '../../test/harness.ts';
import { sellableProduct } from '../../test/selling.ts';
import { type EInvoiceDocument, registerEInvoiceSource } from './document.ts';
import { einvoiceVerificationLink } from './einvoice.service.ts';
import { writeUbl } from './ubl.ts';

/**
 * CamInvoice end to end against the fake platform (test/fake-caminvoice.ts): connecting a business,
 * submitting, polling, the webhook, a refusal, token refresh and revocation, a restart in the middle
 * of a submission, the TIN lookup and a supplier's e-invoice becoming a draft purchase.
 */

const ctx = useTestApp();
let fake: FakeCamInvoice;
let app: FastifyInstance;
let base: string;
let headers: Record<string, string>;

/** The tax documents as the (other) tax module would hand them over: by kind and id. */
const issued = new Map<string, EInvoiceDocument>();
/** After the app registered the tax module's own sources (app.ts), these documents stand in for them. */
function madeUpSources() {
  for (const kind of ['invoice', 'credit_note'] as const) {
    registerEInvoiceSource(kind, async (_db, id) => {
      const doc = issued.get(`${kind}:${id}`);
      if (!doc) throw new Error('no such document');
      return doc;
    });
  }
}

async function start(): Promise<FastifyInstance> {
  const built = await buildApp({
    db: ctx.db,
    uploadsDir: ctx.uploadsDir,
    einvoice: {
      caminvoice: { clientId: FAKE_CLIENT.id, clientSecret: FAKE_CLIENT.secret, baseUrl: fake.base, timeoutMs: 3000 },
      webhookSecret: 'webhook-secret-for-tests-0123456789',
    },
  });
  madeUpSources();
  await built.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(built.server.address() as AddressInfo).port}`;
  return built;
}

async function send(method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object, as = headers) {
  const res = await app.inject({ method, url, headers: as, payload });
  return { status: res.statusCode, body: res.json() };
}

async function connect() {
  const started = await send('POST', '/api/caminvoice/connection/start', {
    redirect_url: `${base}/settings/caminvoice`,
  });
  expect(started.status).toBe(200);
  const callback = await fake.approve(started.body.data.authorize_url);
  return send('POST', '/api/caminvoice/connection', { callback_url: callback });
}

beforeAll(async () => {
  fake = await startFakeCamInvoice();
  app = await start();
  headers = { ...bearer((await login(app, 'admin', ADMIN_PASSWORD)).token), 'x-localization': 'en' };
  const store = await ctx.db.selectFrom('stores').select('id').orderBy('id').executeTakeFirstOrThrow();
  issued.set('invoice:1', {
    ...document('invoice', 'INV-2026-000001', [line(), line({ tax_category: 'E' })]),
    store_id: store.id,
  });
  issued.set('invoice:2', { ...document('invoice', 'INV-2026-000002', [line({ quantity: 5 })]), store_id: store.id });
  issued.set('invoice:3', { ...document('invoice', 'INV-2026-000003', [line({ quantity: 7 })]), store_id: store.id });
  issued.set('credit_note:1', { ...document('credit_note', 'CN-2026-000001', [line()]), store_id: store.id });
});

afterAll(async () => {
  await app?.close();
  await fake?.close();
});

describe('CamInvoice connection', () => {
  it('starts disconnected, and refuses lookups until connected', async () => {
    const status = await send('GET', '/api/caminvoice/connection');
    expect(status.body.data).toMatchObject({ configured: true, status: 'disconnected' });
    const lookup = await send('GET', '/api/caminvoice/businesses?tin=K002-100200300');
    expect(lookup.status).toBe(409);
    expect(lookup.body.message).toMatch(/Connect the business to CamInvoice/);
  });

  it('is an administrator’s: a cashier may not start it', async () => {
    const cashier = await createUser(ctx.db, { roles: ['cashier'] });
    const as = bearer((await login(app, cashier.name, cashier.password)).token);
    expect((await send('POST', '/api/caminvoice/connection/start', { redirect_url: `${base}/x` }, as)).status).toBe(
      403,
    );
    expect((await send('GET', '/api/caminvoice/connection', undefined, as)).status).toBe(403);
  });

  it('refuses a callback whose state this administrator was not given', async () => {
    const started = await send('POST', '/api/caminvoice/connection/start', {
      redirect_url: `${base}/settings/caminvoice`,
    });
    const callback = new URL(await fake.approve(started.body.data.authorize_url));
    callback.searchParams.set('state', 'forged-state');
    const refused = await send('POST', '/api/caminvoice/connection', { callback_url: callback.toString() });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.callback_url[0]).toMatch(/unknown or has expired/);
    // another administrator's state is not this one's
    const other = await createUser(ctx.db, { roles: ['administrator'] });
    const as = { ...bearer((await login(app, other.name, other.password)).token), 'x-localization': 'en' };
    const theirs = await send('POST', '/api/caminvoice/connection/start', { redirect_url: `${base}/s` }, as);
    const theirCallback = await fake.approve(theirs.body.data.authorize_url);
    expect((await send('POST', '/api/caminvoice/connection', { callback_url: theirCallback })).status).toBe(422);
  });

  it('connects through the merchant’s approval, keeping the tokens sealed', async () => {
    const connected = await connect();
    expect(connected.status).toBe(200);
    expect(connected.body.data).toMatchObject({
      status: 'connected',
      endpoint_id: FAKE_BUSINESS.endpoint_id,
      tin: FAKE_BUSINESS.tin,
      company_name_kh: FAKE_BUSINESS.company_name_kh,
    });
    expect(connected.body.message).toBe(`Connected to CamInvoice as ${FAKE_BUSINESS.company_name_kh}.`);
    const row = await ctx.db.selectFrom('einvoice_connections').selectAll().executeTakeFirstOrThrow();
    expect(row.refresh_token).not.toContain(fake.state.refreshToken);
    expect(row.refresh_token).toMatch(/^v1\./);
    // the state was used once
    const audit = await ctx.db
      .selectFrom('audit_log')
      .select('action')
      .where('action', '=', 'einvoice.connected')
      .execute();
    expect(audit).toHaveLength(1);
  });

  it('looks a buyer up by TIN through the server', async () => {
    const found = await send('GET', '/api/caminvoice/businesses?tin=K002-100200300');
    expect(found.body.data).toEqual({
      endpoint_id: 'KHUID00005678',
      tin: 'K002-100200300',
      name_en: 'Sokha Mart',
      name_kh: 'ហាងលក់ទំនិញ សុខា',
      address: 'Street 63, Phnom Penh',
    });
    expect((await send('GET', '/api/caminvoice/businesses?tin=K009-999999999')).status).toBe(404);
    expect((await send('GET', '/api/caminvoice/businesses?tin=..%2F..%2Fadmin')).status).toBe(422);
  });
});

describe('submitting documents', () => {
  let platformId: string;

  it('clears an invoice: valid, with its verification link', async () => {
    const submitted = await send('POST', '/api/einvoices/invoice/1/submit');
    expect(submitted.status).toBe(200);
    expect(submitted.body.data).toMatchObject({ number: 'INV-2026-000001', status: 'valid', reason: null });
    platformId = submitted.body.data.platform_document_id;
    expect(submitted.body.data.verification_link).toBe(`${fake.base}/verify/${platformId}`);
    expect(await einvoiceVerificationLink(ctx.db, 'invoice', 1)).toBe(`${fake.base}/verify/${platformId}`);
    // what CamInvoice received is the UBL Depot wrote
    expect(fake.documents.find((d) => d.id === platformId)?.xml).toBe(
      writeUbl(issued.get('invoice:1') as EInvoiceDocument),
    );
    // asking again does not send it again
    expect((await send('POST', '/api/einvoices/invoice/1/submit')).status).toBe(409);
    expect(fake.submissions.filter((n) => n === 'INV-2026-000001')).toHaveLength(1);
  });

  it('follows the status by polling', async () => {
    fake.setStatus(platformId, 'DELIVERED');
    await app.einvoicing.pollOnce();
    expect((await send('GET', '/api/einvoices/invoice/1')).body.data.status).toBe('delivered');
  });

  it('follows the status by the webhook, read again from CamInvoice, never from the body', async () => {
    const url = `${base}/api/caminvoice/webhook/webhook-secret-for-tests-0123456789`;
    // a body claiming a rejection changes nothing: CamInvoice says delivered
    const forged = await fake.webhook(url, {
      type: 'DOCUMENT.STATUS_UPDATED',
      document_id: platformId,
      status: 'REJECTED',
    });
    expect(forged).toEqual({ status: 200, body: { result: 'done' } });
    expect((await send('GET', '/api/einvoices/invoice/1')).body.data.status).toBe('delivered');
    fake.setStatus(platformId, 'ACCEPTED');
    await fake.webhook(url, { type: 'DOCUMENT.STATUS_UPDATED', document_id: platformId, status: 'ACCEPTED' });
    expect((await send('GET', '/api/einvoices/invoice/1')).body.data.status).toBe('accepted');
    // a wrong secret is nobody's webhook
    const wrong = await fake.webhook(`${base}/api/caminvoice/webhook/guess`, {
      type: 'DOCUMENT.STATUS_UPDATED',
      document_id: platformId,
    });
    expect(wrong.status).toBe(404);
  });

  it('records a refusal with the platform’s reason', async () => {
    fake.state.refuseNext = 'Customer TIN K002-100200300 does not match the endpoint';
    const refused = await send('POST', '/api/einvoices/invoice/2/submit');
    expect(refused.body.data).toMatchObject({
      status: 'rejected',
      reason: 'Customer TIN K002-100200300 does not match the endpoint',
      verification_link: null,
    });
    expect(await einvoiceVerificationLink(ctx.db, 'invoice', 2)).toBeNull();
    const again = await send('POST', '/api/einvoices/invoice/2/submit');
    expect(again.status).toBe(409);
  });

  it('lists statuses only for the stores a user covers', async () => {
    const list = await send('GET', '/api/einvoices');
    expect(list.body.data.map((d: { number: string }) => d.number)).toEqual(['INV-2026-000002', 'INV-2026-000001']);
    const elsewhere = await ctx.db
      .insertInto('stores')
      .values({
        name: 'Far store',
        code: 'FAR',
        status: 'active',
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    const cashier = await createUser(ctx.db, { roles: ['cashier'], store: elsewhere.id });
    const as = bearer((await login(app, cashier.name, cashier.password)).token);
    expect((await send('GET', '/api/einvoices', undefined, as)).body.data).toEqual([]);
    expect((await send('GET', '/api/einvoices/invoice/1', undefined, as)).status).toBe(404);
  });

  it('survives a restart in the middle of a submission without sending twice', async () => {
    fake.state.dropNextAnswer = true;
    const first = await send('POST', '/api/einvoices/invoice/3/submit');
    expect(first.body.data).toMatchObject({ status: 'submitting', platform_document_id: null });
    expect(fake.submissions.filter((n) => n === 'INV-2026-000003')).toHaveLength(1);
    // the server stops and starts again; the retry is due
    await app.close();
    app = await start();
    headers = { ...bearer((await login(app, 'admin', ADMIN_PASSWORD)).token), 'x-localization': 'en' };
    await ctx.db
      .updateTable('einvoice_outbox')
      .set({ next_attempt_at: new Date(0).toISOString() })
      .execute();
    await app.einvoicing.outbox.run();
    const after = await send('GET', '/api/einvoices/invoice/3');
    expect(after.body.data).toMatchObject({ status: 'valid' });
    expect(after.body.data.platform_document_id).toBe(fake.documents.find((d) => d.number === 'INV-2026-000003')?.id);
    expect(fake.submissions.filter((n) => n === 'INV-2026-000003')).toHaveLength(1);
    expect(fake.documents.filter((d) => d.number === 'INV-2026-000003')).toHaveLength(1);
  });

  it('clears a credit note that references its invoice', async () => {
    const submitted = await send('POST', '/api/einvoices/credit_note/1/submit');
    expect(submitted.body.data.status).toBe('valid');
    const xml = fake.documents.find((d) => d.number === 'CN-2026-000001')?.xml ?? '';
    expect(fake.documents.find((d) => d.number === 'CN-2026-000001')?.type).toBe('CREDIT_NOTE');
    expect(xml).toContain('<cbc:ID>INV-2026-000001</cbc:ID>');
  });
});

describe('received e-invoices', () => {
  it('become draft purchases, lines matched by barcode or SKU', async () => {
    const shop = await sellableProduct(app, ctx.db, headers, 500);
    const product = await ctx.db
      .selectFrom('products')
      .select(['sku'])
      .where('id', '=', shop.product)
      .executeTakeFirstOrThrow();
    const supplierDoc: EInvoiceDocument = {
      ...document('invoice', 'SUP-77', [
        line({ description: 'Soap', sku: product.sku, barcode: null, quantity: 24, unit_price: 100 }),
        line({ description: 'Unknown thing', sku: 'NOPE-1', barcode: '0000000000000', quantity: 2 }),
      ]),
      seller: { name: 'Supplier Co', address: 'Kandal', tin: 'K003-300300300', endpoint_id: 'KHUID00009999' },
      buyer: { ...FAKE_BUSINESS, name: FAKE_BUSINESS.company_name_kh, address: 'PP' },
    };
    const sent = fake.receive(writeUbl(supplierDoc), {
      name: 'Supplier Co',
      tin: 'K003-300300300',
      endpoint: 'KHUID00009999',
    });
    // the webhook tells; the document is read from CamInvoice (and polling would find it too)
    await fake.webhook(`${base}/api/caminvoice/webhook/webhook-secret-for-tests-0123456789`, {
      type: 'DOCUMENT.RECEIVED',
      document_id: sent.id,
    });
    await app.einvoicing.pollOnce();
    const list = await send('GET', '/api/einvoices/received');
    expect(list.body.data).toHaveLength(1);
    const received = list.body.data[0];
    expect(received).toMatchObject({
      number: 'SUP-77',
      supplier_name: 'Supplier Co',
      supplier_tin: 'K003-300300300',
      purchase_id: null,
    });
    expect(received.lines.map((l: { product_id: number | null }) => l.product_id)).toEqual([shop.product, null]);

    const at = new Date().toISOString();
    const supplier = await ctx.db
      .insertInto('suppliers')
      .values({ name: 'Supplier Co', type: 'company', status: 'active', created_at: at, updated_at: at } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    const wrongCount = await send('POST', `/api/einvoices/received/${received.id}/purchase`, {
      store_id: shop.storeId,
      supplier_id: supplier.id,
      products: [shop.product],
    });
    expect(wrongCount.status).toBe(422);
    const made = await send('POST', `/api/einvoices/received/${received.id}/purchase`, {
      store_id: shop.storeId,
      supplier_id: supplier.id,
      products: [shop.product, null],
    });
    expect(made.status).toBe(201);
    expect(made.body.data).toMatchObject({ status: 'draft', supplier_id: supplier.id });
    // $1.00 at 4,100 → 4,100៛ a unit → $1.00 again
    expect(made.body.data.items).toEqual([
      expect.objectContaining({ product_id: shop.product, quantity: 24, unit_price_cents: 100 }),
    ]);
    const twice = await send('POST', `/api/einvoices/received/${received.id}/purchase`, {
      store_id: shop.storeId,
      supplier_id: supplier.id,
      products: [shop.product, null],
    });
    expect(twice.status).toBe(409);
  });
});

describe('a webhook that cannot be applied', () => {
  it('is answered, not failed, and changes nothing (the next poll tries again)', async () => {
    const broken = fake.receive('<Invoice><broken', { name: 'X', tin: 'K0', endpoint: 'KHUID0' });
    const told = await fake.webhook(`${base}/api/caminvoice/webhook/webhook-secret-for-tests-0123456789`, {
      type: 'DOCUMENT.RECEIVED',
      document_id: broken.id,
    });
    expect(told).toEqual({ status: 200, body: { result: 'ignored' } });
    expect((await send('GET', '/api/einvoices/received')).body.data).toHaveLength(1);
    fake.documents.splice(fake.documents.indexOf(broken), 1);
  });
});

describe('tokens', () => {
  it('refreshes the access token before it expires', async () => {
    const before = fake.state.refreshes;
    await ctx.db
      .updateTable('einvoice_connections')
      .set({ access_expires_at: new Date(Date.now() + 30_000).toISOString() })
      .execute();
    expect((await send('GET', '/api/caminvoice/businesses?tin=K002-100200300')).status).toBe(200);
    expect(fake.state.refreshes).toBe(before + 1);
    expect((await send('GET', '/api/caminvoice/businesses?tin=K002-100200300')).status).toBe(200);
    expect(fake.state.refreshes).toBe(before + 1);
  });

  it('shows the connection revoked when CamInvoice refuses the grant, and disconnects', async () => {
    fake.state.revoked = true;
    await ctx.db
      .updateTable('einvoice_connections')
      .set({ access_expires_at: new Date(0).toISOString() })
      .execute();
    await fake.webhook(`${base}/api/caminvoice/webhook/webhook-secret-for-tests-0123456789`, {
      type: 'ENTITY.REVOKED',
      endpoint_id: FAKE_BUSINESS.endpoint_id,
    });
    const status = await send('GET', '/api/caminvoice/connection');
    expect(status.body.data).toMatchObject({ status: 'revoked' });
    expect(status.body.data.revoked_at).toEqual(expect.any(String));
    const gone = await send('DELETE', '/api/caminvoice/connection');
    expect(gone.body).toMatchObject({ message: 'Disconnected from CamInvoice.', data: { status: 'disconnected' } });
  });
});
