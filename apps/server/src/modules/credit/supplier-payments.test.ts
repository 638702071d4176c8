import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, bearer, createStore, createUser, login, useTestApp } from '../../test/harness.ts';
import { sellableProduct } from '../../test/selling.ts';

const ctx = useTestApp();
let admin: Record<string, string>;
let product: number;
let unit: number;
let store: number;

async function send(method: 'GET' | 'POST', url: string, payload?: object, as: Record<string, string> = admin) {
  const res = await ctx.app.inject({ method, url, headers: as, payload });
  return { status: res.statusCode, body: res.json() };
}

async function newSupplier() {
  const res = await send('POST', '/api/suppliers', { name: `Supplier ${randomUUID().slice(0, 6)}` });
  expect(res.status).toBe(201);
  return res.body.data.id as number;
}

/** An ordered purchase of `cents` (10 units), on `date`. */
async function purchase(supplier: number, date: string, cents: number, storeId = store) {
  const res = await send('POST', '/api/purchases', {
    supplier_id: supplier,
    store_id: storeId,
    purchase_date: date,
    ordered: true,
    items: [{ product_id: product, unit_id: unit, quantity: 10, unit_price_cents: cents / 10 }],
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: number; number: string };
}

const pay = (supplier: number, body: object, as = admin) =>
  send('POST', `/api/suppliers/${supplier}/payments`, { method: 'bank_transfer', paid_at: '2026-02-01', ...body }, as);

async function paid(id: number) {
  const row = (await send('GET', `/api/purchases/${id}`)).body.data;
  return [row.paid_cents, row.payment_status];
}

const paymentsCount = async () =>
  Number(
    (
      await ctx.db
        .selectFrom('purchase_payments')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

beforeAll(async () => {
  admin = { ...bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token), 'x-localization': 'en' };
  product = (await sellableProduct(ctx.app, ctx.db, admin, 1000)).product;
  unit = (await ctx.db.selectFrom('products').select('unit_id').where('id', '=', product).executeTakeFirstOrThrow())
    .unit_id;
  store = (await ctx.db.selectFrom('stores').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
});

describe('one payment to a supplier over several purchases', () => {
  it('pays the oldest purchases first, the last partly; the account, payables, statement and audit show it', async () => {
    const supplier = await newSupplier();
    // made out of date order: the allocation goes by the purchase's date
    const c = await purchase(supplier, '2026-01-05', 4000);
    const a = await purchase(supplier, '2026-01-02', 5000);
    const b = await purchase(supplier, '2026-01-03', 3000);

    const res = await pay(supplier, { amount_cents: 9000, reference: 'TRX-1' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.message).toBe('Payment of $90.00 recorded on 3 purchases.');
    expect(res.body.data.allocations).toEqual([
      { purchase_id: a.id, number: a.number, amount_cents: 5000 },
      { purchase_id: b.id, number: b.number, amount_cents: 3000 },
      { purchase_id: c.id, number: c.number, amount_cents: 1000 },
    ]);
    expect(await paid(a.id)).toEqual([5000, 'paid']);
    expect(await paid(b.id)).toEqual([3000, 'paid']);
    expect(await paid(c.id)).toEqual([1000, 'partially_paid']);

    const account = (await send('GET', `/api/suppliers/${supplier}/credit`)).body.data;
    expect(account.balance_cents).toBe(3000);
    expect(account.open.map((d: { number: string }) => d.number)).toEqual([c.number]);
    const payables = (await send('GET', '/api/credit/payables')).body.data;
    expect(payables.rows.find((r: { id: number }) => r.id === supplier).balance_cents).toBe(3000);
    const st = (await send('GET', `/api/suppliers/${supplier}/statement?from=2026-01-01&to=2026-02-28`)).body.data;
    expect(st.totals.payments_cents).toBe(9000);
    expect(st.lines.filter((l: { kind: string }) => l.kind === 'payment')).toHaveLength(3);
    expect(st.closing_cents).toBe(3000);

    const audit = await ctx.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'supplier.payment')
      .where('subject_id', '=', supplier)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(String(audit.after)).allocations).toHaveLength(3);
  });

  it('writes each share as the purchase’s own payment writes one: the same payment, status and abilities', async () => {
    const supplier = await newSupplier();
    const own = await purchase(supplier, '2026-01-02', 2000);
    const shared = await purchase(supplier, '2026-01-03', 2000);
    const payment = { method: 'bank_transfer', paid_at: '2026-02-01', reference: 'TRX-9', note: 'Part' };
    const direct = await send('POST', `/api/purchases/${own.id}/payments`, { ...payment, amount_cents: 500 });
    expect(direct.status, JSON.stringify(direct.body)).toBe(201);
    const before = (await send('GET', `/api/purchases/${shared.id}`)).body.data;
    const onAccount = await pay(supplier, { ...payment, amount_cents: 500, purchase_ids: [shared.id] });
    expect(onAccount.status, JSON.stringify(onAccount.body)).toBe(201);

    const seen = async (id: number) => {
      const { payments, paid_cents, payment_status, abilities, updated_at } = (
        await send('GET', `/api/purchases/${id}`)
      ).body.data;
      const kept = payments.map((p: Record<string, unknown>) => ({ ...p, id: 0, created_at: '' }));
      return { payments: kept, paid_cents, payment_status, abilities, updated_at };
    };
    const a = await seen(own.id);
    const b = await seen(shared.id);
    expect(b.payments).toEqual(a.payments);
    expect(b.payments).toEqual([
      expect.objectContaining({ amount_cents: 500, method: 'bank_transfer', reference: 'TRX-9', note: 'Part' }),
    ]);
    expect([b.paid_cents, b.payment_status, b.abilities]).toEqual([a.paid_cents, a.payment_status, a.abilities]);
    // the purchase was written (locked and changed) as its own payment changes it
    expect(b.updated_at > before.updated_at).toBe(true);
  });

  it('pays only the purchases chosen', async () => {
    const supplier = await newSupplier();
    const older = await purchase(supplier, '2026-01-02', 2000);
    const newer = await purchase(supplier, '2026-01-09', 3000);
    const res = await pay(supplier, { amount_cents: 1500, method: 'cash_usd', purchase_ids: [newer.id] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.allocations).toEqual([{ purchase_id: newer.id, number: newer.number, amount_cents: 1500 }]);
    expect(await paid(older.id)).toEqual([0, 'unpaid']);
    expect(await paid(newer.id)).toEqual([1500, 'partially_paid']);
  });

  it('refuses more than is owed in the user’s language, and changes nothing', async () => {
    const supplier = await newSupplier();
    const a = await purchase(supplier, '2026-01-02', 2000);
    const b = await purchase(supplier, '2026-01-03', 1000);
    const before = await paymentsCount();
    const over = await pay(supplier, { amount_cents: 3001 });
    expect(over.status).toBe(422);
    expect(over.body.errors.amount_cents[0]).toBe('More than the purchases owe ($30.00).');
    const kh = await pay(supplier, { amount_cents: 3001 }, { ...admin, 'x-localization': 'kh' });
    expect(kh.status).toBe(422);
    expect(kh.body.errors.amount_cents[0]).toContain('ការទិញ');
    // more than the chosen one owes, though not more than the whole debt
    expect((await pay(supplier, { amount_cents: 1500, purchase_ids: [b.id] })).status).toBe(422);
    expect(await paymentsCount()).toBe(before);
    expect(await paid(a.id)).toEqual([0, 'unpaid']);
    expect(await paid(b.id)).toEqual([0, 'unpaid']);
    expect((await send('GET', `/api/suppliers/${supplier}/credit`)).body.data.balance_cents).toBe(3000);
  });

  it('refuses a purchase of another supplier, or of a store the payer does not cover', async () => {
    const supplier = await newSupplier();
    const own = await purchase(supplier, '2026-01-02', 2000);
    const theirs = await purchase(await newSupplier(), '2026-01-02', 2000);
    const res = await pay(supplier, { amount_cents: 1000, purchase_ids: [own.id, theirs.id] });
    expect(res.status).toBe(422);
    expect(res.body.errors['purchase_ids.1'][0]).toBe('Not an unpaid purchase of this supplier.');

    const elsewhere = await purchase(supplier, '2026-01-03', 2000, await createStore(ctx.db, `SP${Date.now() % 1000}`));
    const local = await createUser(ctx.db, {
      permissions: ['purchases.view', 'purchases.approve', 'costs.view', 'credit.view'],
    });
    const as = { ...bearer((await login(ctx.app, local.name, local.password)).token), 'x-localization': 'en' };
    const away = await pay(supplier, { amount_cents: 1000, purchase_ids: [elsewhere.id] }, as);
    expect(away.status).toBe(422);
    expect(away.body.errors['purchase_ids.0']).toBeTruthy();
    // oldest first, it reaches only the store the payer covers: at most that store's $20
    expect((await pay(supplier, { amount_cents: 2001 }, as)).status).toBe(422);
    expect(await paid(own.id)).toEqual([0, 'unpaid']);
    expect(await paid(elsewhere.id)).toEqual([0, 'unpaid']);
  });

  it('is refused without the permission to pay a supplier', async () => {
    const supplier = await newSupplier();
    const a = await purchase(supplier, '2026-01-02', 2000);
    const keeper = await createUser(ctx.db, {
      permissions: ['purchases.view', 'purchases.update', 'costs.view', 'credit.view', 'credit.create'],
    });
    const as = { ...bearer((await login(ctx.app, keeper.name, keeper.password)).token), 'x-localization': 'en' };
    expect((await pay(supplier, { amount_cents: 1000 }, as)).status).toBe(403);
    expect(await paid(a.id)).toEqual([0, 'unpaid']);
  });
});
