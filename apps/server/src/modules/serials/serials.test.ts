import { luhnValid } from '@depot/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { factories, firstStore, walkIn } from '../../test/factories.ts';
import { ADMIN_PASSWORD, bearer, createStore, login, useTestApp } from '../../test/harness.ts';

/** An IMEI from its first 14 digits: the check digit that makes it pass Luhn. */
function imei(body: string): string {
  for (let d = 0; d < 10; d++) if (luhnValid(`${body}${d}`)) return `${body}${d}`;
  throw new Error('no check digit');
}
const PHONES = ['35693803564380', '35693803564381', '35693803564382', '35693803564383'].map(imei);

/**
 * Serial and IMEI numbers (issue 28), as a shop with phones lives them: received with a purchase,
 * one IMEI per phone; sold at the till by its IMEI (one till wins a phone two sell at once); found
 * by its IMEI with the buyer and the warranty; returned only on the sale that sold it; moved to
 * another store by a transfer.
 */
describe('serial numbers', () => {
  const ctx = useTestApp();
  let headers: Record<string, string> = {};
  const ids: Record<string, number> = {};
  const make = factories(ctx, () => headers);

  async function send(method: 'GET' | 'POST', url: string, payload?: object, extra: Record<string, string> = {}) {
    const res = await ctx.app.inject({ method, url, headers: { ...headers, ...extra }, payload });
    return { status: res.statusCode, body: res.json() };
  }
  const serialRow = (serial: string) =>
    ctx.db.selectFrom('product_serials').selectAll().where('serial', '=', serial).executeTakeFirstOrThrow();
  const sellPhone = (serials: string[], over: object = {}) =>
    send('POST', '/api/orders', {
      customer_id: ids.customer,
      items: [{ product_id: ids.phone, quantity: serials.length, serials }],
      payments: [{ method: 'cash_usd', amount: 20_000 * serials.length }],
      ...over,
    });
  async function onHand(storeId: number): Promise<number> {
    const res = await send('GET', `/api/stocks/levels?filter[store_id]=${storeId}&per_page=100`);
    return res.body.data.find((l: { product_id: number }) => l.product_id === ids.phone)?.quantity ?? 0;
  }

  beforeAll(async () => {
    headers = { ...bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token), 'x-localization': 'en' };
    ids.store = await firstStore(ctx.db);
    ids.walkIn = await walkIn(ctx.db);
    const { drinks, can } = await make.catalogue();
    ids.phone = await make.product({
      name_en: 'Smart phone A5',
      name_kh: 'ទូរស័ព្ទ A5',
      sku: 'PHONE-A5',
      category_id: drinks,
      unit_id: can,
      price_usd_cents: 20_000,
      taxable: false,
      serial_tracked: true,
      warranty_months: 12,
    });
    ids.customer = await make.create('/api/customers', { name: 'Sok Dara', phone: '012345678' });
    ids.supplier = await make.create('/api/suppliers', { name: 'Phone Import Co' });
  });

  it('a purchase receives one IMEI per phone; a wrong count, a bad check digit or a known IMEI is refused', async () => {
    const made = await send('POST', '/api/purchases', {
      supplier_id: ids.supplier,
      store_id: ids.store,
      purchase_date: '2026-11-01',
      items: [{ product_id: ids.phone, unit_id: (await serialless()).unit_id, quantity: 4, unit_price_cents: 15_000 }],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const purchase = made.body.data;
    const receive = (serials: string[], quantity = serials.length, locale = 'en') =>
      send(
        'POST',
        `/api/purchases/${purchase.id}/receive`,
        { items: [{ item_id: purchase.items[0].id, quantity, serials }] },
        { 'x-localization': locale },
      );
    const short = await receive(PHONES.slice(0, 2), 3);
    expect(short.status).toBe(422);
    expect(short.body.errors['items.0.serials']).toEqual(['Name one serial number per unit (3).']);
    const badCheck = await receive([`${PHONES[0].slice(0, 14)}${(Number(PHONES[0][14]) + 1) % 10}`], 1, 'kh');
    expect(badCheck.status).toBe(422);
    expect(badCheck.body.errors['items.0.serials.0']).toEqual([
      'លេខត្រួតពិនិត្យនៃ IMEI នេះមិនត្រឹមត្រូវ៖ សូមពិនិត្យលេខទាំង 15 ម្ដងទៀត។',
    ]);
    expect(await onHand(ids.store)).toBe(0);

    expect((await receive(PHONES.slice(0, 3))).status).toBe(200);
    expect(await onHand(ids.store)).toBe(3);
    const again = await receive([PHONES[0]]);
    expect(again.status).toBe(422);
    expect(again.body.errors['items.0.serials']).toEqual([`Serial ${PHONES[0]} is already recorded for this product.`]);
    expect(await serialRow(PHONES[1])).toMatchObject({ status: 'in_stock', store_id: ids.store, warranty_months: 12 });
  });

  it('a sale names one IMEI per phone, in stock at the store; two tills selling the same phone: one wins', async () => {
    const none = await send('POST', '/api/orders', {
      customer_id: ids.customer,
      items: [{ product_id: ids.phone, quantity: 1 }],
      payments: [{ method: 'cash_usd', amount: 20_000 }],
    });
    expect(none.status).toBe(422);
    expect(none.body.errors['items.0.serials']).toEqual(['Name one serial number per unit (1).']);
    const unknown = await sellPhone([PHONES[3]]);
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors['items.0.serials']).toEqual([`Serial ${PHONES[3]} is not in stock at this store.`]);

    const [a, b] = await Promise.all([sellPhone([PHONES[0]]), sellPhone([PHONES[0]])]);
    expect([a.status, b.status].sort()).toEqual([201, 422]);
    const sold = a.status === 201 ? a.body.data : b.body.data;
    expect(sold.items[0].serials).toEqual([PHONES[0]]);
    expect(await onHand(ids.store)).toBe(2);
    expect(await serialRow(PHONES[0])).toMatchObject({ status: 'sold', order_item_id: sold.items[0].id });
    ids.sale = sold.id;
    ids.saleLine = sold.items[0].id;
    // the receipt reads it back
    const shown = await send('GET', `/api/orders/${sold.id}`);
    expect(shown.body.data.items[0].serials).toEqual([PHONES[0]]);
  });

  it('an IMEI is found with who bought it, when, and the warranty’s end', async () => {
    const found = await send('GET', `/api/serials?search=${PHONES[0]}`);
    expect(found.status).toBe(200);
    expect(found.body.data).toHaveLength(1);
    const unit = found.body.data[0];
    expect(unit).toMatchObject({
      serial: PHONES[0],
      product_name_en: 'Smart phone A5',
      status: 'sold',
      customer_name: 'Sok Dara',
      customer_phone: '012345678',
      order_id: ids.sale,
      warranty_months: 12,
    });
    expect(unit.invoice_number).toMatch(/^INV-/);
    const soldDay = new Date(unit.sold_at);
    expect(unit.warranty_until.slice(0, 4)).toBe(String(soldDay.getUTCFullYear() + 1));
    // the first digits find the phones of that lot
    expect((await send('GET', '/api/serials?search=3569380356438')).body.data).toHaveLength(3);
    expect((await send('GET', '/api/serials?search=')).status).toBe(422);
  });

  it('a return takes back only a phone that sale sold; that one is back in stock and sells again', async () => {
    const wrong = await send('POST', `/api/orders/${ids.sale}/returns`, {
      items: [{ order_item_id: ids.saleLine, quantity: 1, serials: [PHONES[1]] }],
      refund_method: 'cash_usd',
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors['items.0.serials']).toEqual([`Serial ${PHONES[1]} was not sold on this line.`]);
    expect(await onHand(ids.store)).toBe(2);
    expect((await serialRow(PHONES[1])).status).toBe('in_stock');

    const back = await send('POST', `/api/orders/${ids.sale}/returns`, {
      items: [{ order_item_id: ids.saleLine, quantity: 1, serials: [PHONES[0]] }],
      refund_method: 'cash_usd',
    });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(await onHand(ids.store)).toBe(3);
    expect(await serialRow(PHONES[0])).toMatchObject({ status: 'returned', store_id: ids.store });
    const twice = await send('POST', `/api/orders/${ids.sale}/returns`, {
      items: [{ order_item_id: ids.saleLine, quantity: 1, serials: [PHONES[0]] }],
      refund_method: 'cash_usd',
    });
    expect(twice.status).toBe(422);
    expect((await sellPhone([PHONES[0]])).status).toBe(201);
  });

  it('a transfer moves the phones it names; the store they left cannot sell them', async () => {
    ids.second = await createStore(ctx.db, 'S2');
    const draft = await send('POST', '/api/stock-transfers', {
      from_store_id: ids.store,
      to_store_id: ids.second,
      items: [{ product_id: ids.phone, unit_id: (await serialless()).unit_id, quantity: 1, serials: [PHONES[2]] }],
    });
    expect(draft.status, JSON.stringify(draft.body)).toBe(201);
    expect(draft.body.data.items[0].serials).toEqual([PHONES[2]]);
    expect((await send('POST', `/api/stock-transfers/${draft.body.data.id}/send`)).status).toBe(200);
    expect(await serialRow(PHONES[2])).toMatchObject({ status: 'moved' });
    const gone = await sellPhone([PHONES[2]]);
    expect(gone.status).toBe(422);
    expect((await send('POST', `/api/stock-transfers/${draft.body.data.id}/receive`)).status).toBe(200);
    expect(await serialRow(PHONES[2])).toMatchObject({ status: 'in_stock', store_id: ids.second });
    expect(await onHand(ids.second)).toBe(1);
    // a transfer naming a phone the store no longer has is refused when sent
    const stale = await send('POST', '/api/stock-transfers', {
      from_store_id: ids.store,
      to_store_id: ids.second,
      items: [{ product_id: ids.phone, unit_id: (await serialless()).unit_id, quantity: 1, serials: [PHONES[2]] }],
    });
    const refused = await send('POST', `/api/stock-transfers/${stale.body.data.id}/send`);
    expect(refused.status).toBe(422);
    expect(refused.body.errors['items.0.serials']).toEqual([`Serial ${PHONES[2]} is not in stock at this store.`]);
  });

  it('a sale made offline records its phone even where the server did not have it on hand', async () => {
    // the till could not check: the sale stands (the ledger oversells), the phone is recorded as sold
    const offline = await sellPhone([PHONES[3]], {
      offline: { sold_at: new Date().toISOString(), device_receipt_no: 'OFF-T1-7' },
    });
    expect(offline.status, JSON.stringify(offline.body)).toBe(201);
    expect(await serialRow(PHONES[3])).toMatchObject({
      status: 'sold',
      store_id: ids.store,
      order_item_id: offline.body.data.items[0].id,
      warranty_months: 12,
    });
  });

  it('an offline sale never takes a phone the server knows elsewhere: another store, another buyer', async () => {
    // PHONES[2] is in stock in S2 (the transfer above); PHONES[0] was sold again after its return
    const inS2 = await serialRow(PHONES[2]);
    const sold = await serialRow(PHONES[0]);
    expect(inS2).toMatchObject({ status: 'in_stock', store_id: ids.second });
    expect(sold).toMatchObject({ status: 'sold' });
    const offline = await sellPhone([PHONES[2], PHONES[0]], {
      offline: { sold_at: new Date().toISOString(), device_receipt_no: 'OFF-T1-8' },
    });
    // the sale made at the till stands (it is never lost) ...
    expect(offline.status, JSON.stringify(offline.body)).toBe(201);
    // ... but each phone keeps its own record: S2 still has its phone, the first buyer still theirs
    expect(await serialRow(PHONES[2])).toEqual(inS2);
    expect(await serialRow(PHONES[0])).toEqual(sold);
    expect(await onHand(ids.second)).toBe(1);
    // and the managers have it to review: the sale is marked, the audit names the phones
    const order = await send('GET', `/api/orders/${offline.body.data.id}`);
    expect(order.body.data.oversold).toBe(true);
    const audit = await ctx.db
      .selectFrom('audit_log')
      .select('after')
      .where('action', '=', 'order.sold_offline_beyond_stock')
      .where('subject_id', '=', offline.body.data.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(String(audit.after))).toMatchObject({ serials_elsewhere: [PHONES[2], PHONES[0]] });
  });

  /** The phone's unit (its own). */
  async function serialless() {
    return ctx.db.selectFrom('products').select('unit_id').where('id', '=', ids.phone).executeTakeFirstOrThrow();
  }
});
