import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import {
  type CountLine,
  countTotal,
  DEFAULT_SHIFT_SETTINGS,
  type DrawerMoves,
  expectedCash,
  todayInCambodia,
} from '@depot/contracts';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_PATH } from '../../kit/pdf.ts';
import { ADMIN_PASSWORD, bearer, createStore, createUser, login, useTestApp } from '../../test/harness.ts';
import { sellableProduct } from '../../test/selling.ts';

const ctx = useTestApp();
type Headers = Record<string, string>;
let admin: Headers;
let cashier: Headers;
let other: Headers;
let manager: { name: string; password: string; headers: Headers };
let shop: Awaited<ReturnType<typeof sellableProduct>>;

async function send(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, as: Headers = cashier) {
  const res = await ctx.app.inject({ method, url, headers: as, payload });
  return { status: res.statusCode, body: res.json() };
}
const headersOf = async (user: { name: string; password: string }, locale = 'en') => ({
  ...bearer((await login(ctx.app, user.name, user.password)).token),
  'x-localization': locale,
});

/** The text a PDF reader extracts (poppler's pdftotext). */
const textOf = (pdf: Buffer) => execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf }).toString('utf8');

const usd = (...pairs: [number, number][]): CountLine[] => pairs.map(([value, count]) => ({ value, count }));
const khr = usd;

beforeAll(async () => {
  admin = { ...bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token), 'x-localization': 'en' };
  shop = await sellableProduct(ctx.app, ctx.db, admin, 1250);
  cashier = await headersOf(await createUser(ctx.db, { roles: ['cashier'] }));
  other = await headersOf(await createUser(ctx.db, { roles: ['cashier'] }));
  const boss = await createUser(ctx.db, { roles: ['manager'] });
  manager = { ...boss, headers: await headersOf(boss) };
});

describe('the drawer arithmetic', () => {
  const amount = fc.integer({ min: 0, max: 100_000_000 });
  const moves = fc.record({
    float: amount,
    cash_in: amount,
    change_out: amount,
    refunds: amount,
    pay_ins: amount,
    pay_outs: amount,
  });

  it('expected = float + cash in − change − refunds + pay-ins − pay-outs, an exact integer in each currency', () => {
    fc.assert(
      fc.property(moves, moves, (a: DrawerMoves, b: DrawerMoves) => {
        const both = { usd: expectedCash(a), khr: expectedCash(b) };
        expect(Number.isSafeInteger(both.usd) && Number.isSafeInteger(both.khr)).toBe(true);
        expect(both.usd).toBe(a.float + a.cash_in + a.pay_ins - a.change_out - a.refunds - a.pay_outs);
        // one currency's moves never reach the other's drawer
        expect(expectedCash({ ...a, cash_in: a.cash_in + 1 })).toBe(both.usd + 1);
        expect(expectedCash({ ...b, pay_outs: b.pay_outs + 7 })).toBe(both.khr - 7);
      }),
    );
  });

  it('a count comes to the sum of its notes', () => {
    const lines = (notes: number[]) =>
      fc.array(fc.record({ value: fc.constantFrom(...notes), count: fc.integer({ min: 0, max: 10_000 }) }), {
        maxLength: 12,
      });
    fc.assert(
      fc.property(lines(DEFAULT_SHIFT_SETTINGS.khr_denominations), (count) => {
        const total = countTotal(count);
        expect(Number.isSafeInteger(total)).toBe(true);
        expect(total % 100).toBe(0);
        expect(total).toBe(count.reduce((sum, line) => sum + line.value * line.count, 0));
      }),
    );
  });

  it('the server’s expected drawers follow the same sum, per currency, for any pay-ins and pay-outs', async () => {
    const user = await createUser(ctx.db, { roles: ['cashier'] });
    const as = await headersOf(user);
    const move = fc.record({
      kind: fc.constantFrom('pay_in' as const, 'pay_out' as const),
      currency: fc.constantFrom('usd' as const, 'khr' as const),
      amount: fc.integer({ min: 1, max: 50_000 }),
    });
    let till = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 0, max: 20 }),
        fc.array(move, { maxLength: 5 }),
        async (dollars, notes, moves) => {
          till += 1;
          const opened = await send(
            'POST',
            '/api/shifts',
            {
              store_id: shop.storeId,
              till: `Property ${till}`,
              float: { usd: usd([100, dollars]), khr: khr([1000, notes]) },
            },
            as,
          );
          expect(opened.status).toBe(201);
          const model = { usd: dollars * 100, khr: notes * 1000 };
          for (const m of moves) {
            const res = await send(
              'POST',
              `/api/shifts/${opened.body.data.id}/movements`,
              // pay-outs reaching the threshold need a manager: one is at the till for them all
              { ...m, reason: 'test', approval: { name: manager.name, password: manager.password } },
              as,
            );
            const fits = m.kind === 'pay_in' || model[m.currency] >= m.amount;
            expect(res.status).toBe(fits ? 200 : 422);
            if (fits) model[m.currency] += m.kind === 'pay_in' ? m.amount : -m.amount;
          }
          const seen = await send('GET', `/api/shifts/${opened.body.data.id}`, undefined, manager.headers);
          expect({ usd: seen.body.data.usd.expected, khr: seen.body.data.khr.expected }).toEqual(model);
          const closed = await send(
            'POST',
            `/api/shifts/${opened.body.data.id}/close`,
            { counted: { usd: [], khr: [] }, approval: { name: manager.name, password: manager.password } },
            as,
          );
          expect(closed.status).toBe(200);
          expect(closed.body.data.usd.difference).toBe(0 - model.usd);
          expect(closed.body.data.khr.difference).toBe(0 - model.khr);
        },
      ),
      { numRuns: 6 },
    );
  });
});

describe('a shift at the till', () => {
  let shiftId: number;
  const float = { usd: usd([2000, 2], [100, 5]), khr: khr([10000, 10]) };

  it('opens with a float counted per currency; a cashier does not see what is expected (blind close)', async () => {
    const opened = await send('POST', '/api/shifts', {
      store_id: shop.storeId,
      till: 'Till 1',
      float,
      note: 'morning',
    });
    expect(opened.status).toBe(201);
    expect(opened.body.message).toBe('Shift opened.');
    const data = opened.body.data;
    shiftId = data.id;
    expect(data).toMatchObject({ status: 'open', till: 'Till 1', blind: true, overnight: false });
    expect(data.number).toMatch(/^SH-\d{4}-\d{6}$/);
    // blind: none of the drawer's figures, the float included, until the count is in
    expect(data.usd).toMatchObject({ float: null, expected: null });
    expect(data.khr).toMatchObject({ float: null, expected: null });
    expect(data.float_count).toBeNull();
    const counted = (await send('GET', `/api/shifts/${shiftId}`, undefined, manager.headers)).body.data;
    expect(counted.float_count.usd).toEqual([
      { value: 2000, count: 2 },
      { value: 100, count: 5 },
    ]);
    expect(data.abilities).toEqual({ move: true, close: true });
    // the manager of the store sees it, and what it should hold
    const seen = await send('GET', `/api/shifts/${shiftId}`, undefined, manager.headers);
    expect(seen.body.data).toMatchObject({ blind: false, usd: { expected: 4500 }, khr: { expected: 100000 } });
    expect((await send('GET', '/api/shifts/current')).body.data.id).toBe(shiftId);
  });

  it('refuses what does not add up, on its field and in the reader’s language', async () => {
    const kh = { ...cashier, 'x-localization': 'kh' };
    const wrongNote = await send(
      'POST',
      '/api/shifts',
      { store_id: shop.storeId, till: 'Till 9', float: { usd: usd([300, 1]), khr: [] } },
      kh,
    );
    expect(wrongNote.status).toBe(422);
    expect(wrongNote.body.errors['float.usd.0.value']).toEqual(['ក្រដាសប្រាក់នេះមិនមាននៅក្នុងបញ្ជីក្រដាសប្រាក់នៃការកំណត់ទេ។']);
    const again = await send('POST', '/api/shifts', { store_id: shop.storeId, till: 'Till 2', float });
    expect(again.status).toBe(422);
    expect(again.body.errors.till[0]).toMatch(/already have an open shift \(SH-/);
    const taken = await send('POST', '/api/shifts', { store_id: shop.storeId, till: 'till 1', float }, other);
    expect(taken.status).toBe(422);
    expect(taken.body.errors.till[0]).toMatch(/This till already has an open shift/);
    const blank = await send('POST', '/api/shifts', { store_id: shop.storeId, till: ' ', float }, other);
    expect(blank.status).toBe(422);
    expect(Object.keys(blank.body.errors)).toEqual(['till']);
    const elsewhere = await createStore(ctx.db, `SH${Date.now() % 100000}`);
    const notMine = await send('POST', '/api/shifts', { store_id: elsewhere, till: 'Till 1', float }, other);
    expect(notMine.status).toBe(422);
    expect(Object.keys(notMine.body.errors)).toEqual(['store_id']);
    const bad = await send('POST', '/api/shifts/abc/movements', { kind: 'steal', currency: 'eur', amount: -1 });
    expect(bad.status).toBe(422);
  });

  it('takes the sales of its cashier at its store: dollars with change in riel move both drawers', async () => {
    // $12.50 paid with a $20 note: $7.50 back as $7 and 2,100 riel (0.50 at 4,100, to the 100)
    const a = await shop.sell(1, [{ method: 'cash_usd', amount: 2000 }], cashier);
    // paid 60,000 riel: 8,750 riel over, back as $2 and 600 riel
    const b = await shop.sell(1, [{ method: 'cash_khr', amount: 60000 }], cashier);
    const rows = await ctx.db.selectFrom('orders').select(['id', 'shift_id']).where('id', 'in', [a.id, b.id]).execute();
    expect(rows.map((r) => r.shift_id)).toEqual([shiftId, shiftId]);
    // another cashier's sale is not this shift's
    const theirs = await shop.sell(1, [{ method: 'cash_usd', amount: 1250 }], other);
    const row = await ctx.db
      .selectFrom('orders')
      .select('shift_id')
      .where('id', '=', theirs.id)
      .executeTakeFirstOrThrow();
    expect(row.shift_id).toBeNull();

    const seen = (await send('GET', `/api/shifts/${shiftId}`, undefined, manager.headers)).body.data;
    expect(seen.usd).toMatchObject({ float: 4500, cash_in: 2000, change_out: 900, expected: 5600 });
    expect(seen.khr).toMatchObject({ float: 100000, cash_in: 60000, change_out: 2700, expected: 157300 });
    expect(seen).toMatchObject({ orders_count: 2, sales_cents: 2500 });
    // the cashier's dashboard: "today" is the open shift
    const board = (await send('GET', '/api/dashboard')).body.data;
    expect(board.shift).toMatchObject({ id: shiftId, till: 'Till 1', overnight: false });
    expect(board.today_figures.find((f: { key: string }) => f.key === 'orders').value).toBe(2);
    expect((await send('GET', '/api/dashboard', undefined, other)).body.data.shift).toBeNull();
    expect(seen.payments).toEqual([
      { method: 'cash_khr', amount: 60000 },
      { method: 'cash_usd', amount: 2000 },
    ]);
  });

  it('pays in and out with a reason; never more out than the drawer holds; keyed writes happen once', async () => {
    const key = randomUUID();
    const payIn = { kind: 'pay_in', currency: 'khr', amount: 20000, reason: 'Small notes from the bank' };
    const first = await ctx.app.inject({
      method: 'POST',
      url: `/api/shifts/${shiftId}/movements`,
      headers: { ...cashier, 'idempotency-key': key },
      payload: payIn,
    });
    const retry = await ctx.app.inject({
      method: 'POST',
      url: `/api/shifts/${shiftId}/movements`,
      headers: { ...cashier, 'idempotency-key': key },
      payload: payIn,
    });
    expect(first.statusCode).toBe(200);
    expect(first.json().message).toBe('Pay-in recorded.');
    expect(retry.json()).toEqual(first.json());
    const out = await send('POST', `/api/shifts/${shiftId}/movements`, {
      kind: 'pay_out',
      currency: 'usd',
      amount: 300,
      reason: 'Ice for the drinks',
    });
    expect(out.status).toBe(200);
    expect(out.body.data.movements).toHaveLength(2);
    const tooMuch = await send('POST', `/api/shifts/${shiftId}/movements`, {
      kind: 'pay_out',
      currency: 'usd',
      amount: 999_999,
      reason: 'Everything',
    });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.errors.amount).toEqual(['The drawer does not hold that much in this currency.']);
    const seen = (await send('GET', `/api/shifts/${shiftId}`, undefined, manager.headers)).body.data;
    expect(seen.usd).toMatchObject({ pay_ins: 0, pay_outs: 300, expected: 5300 });
    expect(seen.khr).toMatchObject({ pay_ins: 20000, pay_outs: 0, expected: 177300 });
  });

  it('is its cashier’s and the store’s managers’: others do not see it', async () => {
    expect((await send('GET', `/api/shifts/${shiftId}`, undefined, other)).status).toBe(404);
    const move = { kind: 'pay_in', currency: 'usd', amount: 100, reason: 'x' };
    expect((await send('POST', `/api/shifts/${shiftId}/movements`, move, other)).status).toBe(404);
    const mine = await send('GET', '/api/shifts?per_page=100', undefined, other);
    expect(mine.body.data.map((s: { id: number }) => s.id)).not.toContain(shiftId);
    const theirs = await send('GET', '/api/shifts?per_page=100', undefined, manager.headers);
    expect(theirs.body.data.map((s: { id: number }) => s.id)).toContain(shiftId);
    const nobody = await headersOf(await createUser(ctx.db, { permissions: ['shifts.list'] }));
    expect((await send('GET', '/api/shifts/current', undefined, nobody)).body.data).toBeNull();
    expect((await send('POST', '/api/shifts', {}, nobody)).status).toBe(403);
  });

  it('closes short beyond the threshold only with a manager’s approval, and keeps expected, counted and difference', async () => {
    // $50 counted of $53: 300 cents short, within $5; 150,000 riel of 177,300: 27,300 short, beyond 20,000
    const counted = {
      usd: usd([2000, 2], [1000, 1]),
      khr: khr([100000, 1], [50000, 1]),
    };
    const without = await send('POST', `/api/shifts/${shiftId}/close`, { counted });
    expect(without.status).toBe(403);
    expect(without.body.code).toBe('approval_required');
    const wrong = await send('POST', `/api/shifts/${shiftId}/close`, {
      counted,
      approval: { name: manager.name, password: 'not-it' },
    });
    expect(wrong.status).toBe(422);
    expect(Object.keys(wrong.body.errors)).toEqual(['approval']);
    const peer = await createUser(ctx.db, { roles: ['cashier'] });
    const notAManager = await send('POST', `/api/shifts/${shiftId}/close`, {
      counted,
      approval: { name: peer.name, password: peer.password },
    });
    expect(notAManager.status).toBe(422);
    expect(notAManager.body.errors.approval).toEqual(['This user may not approve this in this store.']);

    const closed = await send('POST', `/api/shifts/${shiftId}/close`, {
      counted,
      note: 'Short in riel',
      approval: { name: manager.name, password: manager.password },
    });
    expect(closed.status).toBe(200);
    expect(closed.body.message).toBe('Shift closed.');
    expect(closed.body.data).toMatchObject({
      status: 'closed',
      blind: false,
      approved_by_name: `Test ${manager.name}`,
      difference_usd_cents: -300,
      difference_khr: -27300,
      usd: { expected: 5300, counted: 5000, difference: -300 },
      khr: { expected: 177300, counted: 150000, difference: -27300 },
      abilities: { move: false, close: false },
    });
    const twice = await send('POST', `/api/shifts/${shiftId}/close`, { counted });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe(`Shift ${closed.body.data.number} is closed: it cannot be closed.`);
    // a sale after the close is no longer the shift's
    const later = await shop.sell(1, [{ method: 'cash_usd', amount: 1250 }], cashier);
    const row = await ctx.db
      .selectFrom('orders')
      .select('shift_id')
      .where('id', '=', later.id)
      .executeTakeFirstOrThrow();
    expect(row.shift_id).toBeNull();
    const frozen = (await send('GET', `/api/shifts/${shiftId}`)).body.data;
    expect(frozen.usd.expected).toBe(5300);
  });

  it('prints its X / Z report as an A4 PDF for whoever may read it, in the reader’s language', async () => {
    const pdfOf = (id: number, as: Headers) =>
      ctx.app.inject({ method: 'GET', url: `/api/shifts/${id}/report/pdf`, headers: as });
    // another cashier's shift is not theirs to read, in PDF as on screen
    expect((await pdfOf(shiftId, other)).statusCode).toBe(404);
    const nobody = await headersOf(await createUser(ctx.db, { permissions: ['shifts.list'] }));
    expect((await pdfOf(shiftId, nobody)).statusCode).toBe(403);

    const own = await pdfOf(shiftId, cashier);
    if (!fs.existsSync(CHROMIUM_PATH)) {
      expect(own.statusCode).toBe(409);
      expect(own.json().message).toContain('Chromium');
      return;
    }
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toBe('application/pdf');
    expect(own.headers['content-disposition']).toMatch(/^attachment; filename="z-report-SH-\d{4}-\d{6}\.pdf"$/);
    const z = textOf(own.rawPayload);
    expect(z).toContain('Z report (end of shift)');
    // expected, counted and the difference of each drawer, by the one money formatter
    for (const figure of ['$53.00', '$50.00', '−$3.00', '177,300៛', '150,000៛', '−27,300៛', `Test ${manager.name}`]) {
      expect(z).toContain(figure);
    }
    // the store's manager reads it in Khmer
    const kh = await pdfOf(shiftId, { ...manager.headers, 'x-localization': 'kh' });
    expect(kh.statusCode).toBe(200);
    const khText = textOf(kh.rawPayload);
    expect(khText).toContain('−27,300៛');
    expect(khText).not.toContain('Z report');

    // an open shift's X report: a blind close hides what the drawer should hold from its cashier
    const fresh = await headersOf(await createUser(ctx.db, { roles: ['cashier'] }));
    const open = await send('POST', '/api/shifts', { store_id: shop.storeId, till: 'Till 2', float }, fresh);
    const x = textOf((await pdfOf(open.body.data.id, fresh)).rawPayload);
    expect(x).toContain('X report (mid-shift)');
    expect(x).not.toContain('$45.00');
    expect(x).not.toContain('Expected');
    const managers = textOf((await pdfOf(open.body.data.id, manager.headers)).rawPayload);
    expect(managers).toContain('Expected');
    expect(managers).toContain('$45.00');
    await send('POST', `/api/shifts/${open.body.data.id}/close`, { counted: float }, fresh);
  }, 180_000);

  it('a difference within the threshold needs nobody', async () => {
    const opened = await send('POST', '/api/shifts', { store_id: shop.storeId, till: 'Till 1', float });
    // the cashier's second shift of the day: its dashboard's "today" holds none of the first one's sales
    const board = (await send('GET', '/api/dashboard')).body.data;
    expect(board.shift).toMatchObject({ id: opened.body.data.id });
    expect(board.today_figures.find((f: { key: string }) => f.key === 'orders').value).toBe(0);
    const close = await send('POST', `/api/shifts/${opened.body.data.id}/close`, {
      counted: { usd: usd([2000, 2]), khr: khr([10000, 10]) },
    });
    expect(close.status).toBe(200);
    expect(close.body.data.usd.difference).toBe(-500);
    expect(close.body.data.approved_by_name).toBeNull();
  });

  it('reports the differences per cashier and day to those who see reports, in their stores', async () => {
    const today = todayInCambodia();
    const me = (await send('GET', '/api/shifts/current')).body.data;
    expect(me).toBeNull();
    const cashierId = (
      await ctx.db.selectFrom('shifts').select('user_id').where('till', '=', 'Till 1').executeTakeFirstOrThrow()
    ).user_id;
    const report = await send('GET', `/api/reports/shifts?from=${today}&to=${today}`, undefined, manager.headers);
    expect(report.status).toBe(200);
    expect(report.body.data.find((r: { user_id: number }) => r.user_id === cashierId)).toMatchObject({
      day: today,
      shifts: 2,
      difference_usd_cents: -800,
      difference_khr: -27300,
    });
    expect((await send('GET', `/api/reports/shifts?from=${today}&to=${today}`)).status).toBe(403);
    const backwards = await send('GET', `/api/reports/shifts?from=${today}&to=2020-01-01`, undefined, manager.headers);
    expect(backwards.status).toBe(422);
    const elsewhere = await createStore(ctx.db, `RP${Date.now() % 100000}`);
    const boss = await headersOf(await createUser(ctx.db, { roles: ['manager'], store: elsewhere }));
    const theirs = await send('GET', `/api/reports/shifts?from=${today}&to=${today}`, undefined, boss);
    expect(theirs.body.data).toEqual([]);
  });

  it('flags a shift left open overnight', async () => {
    const opened = await send('POST', '/api/shifts', { store_id: shop.storeId, till: 'Till 3', float }, other);
    const yesterday = new Date(Date.now() - 30 * 3600_000).toISOString();
    await ctx.db.updateTable('shifts').set({ opened_at: yesterday }).where('id', '=', opened.body.data.id).execute();
    const list = await send('GET', '/api/shifts?filter[status]=open', undefined, manager.headers);
    const row = list.body.data.find((s: { id: number }) => s.id === opened.body.data.id);
    expect(row.overnight).toBe(true);
    const board = (await send('GET', '/api/dashboard', undefined, manager.headers)).body.data;
    expect(board.alerts.find((a: { key: string }) => a.key === 'open_overnight')).toMatchObject({
      value: 1,
      link: '/shifts?filter[status]=open',
    });
    await ctx.db
      .updateTable('shifts')
      .set({ status: 'closed', open_user: null, open_till: null })
      .where('id', '=', opened.body.data.id)
      .execute();
  });

  it('with the setting, a sale needs an open shift of its cashier (422 in the reader’s language)', async () => {
    const settings = (await send('GET', '/api/shifts/settings')).body.data;
    expect(settings.require_shift).toBe(false);
    expect((await send('PUT', '/api/shifts/settings', { ...settings, require_shift: true })).status).toBe(403);
    const saved = await send('PUT', '/api/shifts/settings', { ...settings, require_shift: true }, admin);
    expect(saved.status).toBe(200);
    const walkIn = await ctx.db
      .selectFrom('customers')
      .select('id')
      .where('is_walk_in', '=', 1)
      .executeTakeFirstOrThrow();
    try {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/orders',
        headers: { ...other, 'x-localization': 'kh' },
        payload: { customer_id: walkIn.id, items: [{ product_id: shop.product, quantity: 1 }] },
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toBe('សូមបើកវេននៅហាងនេះជាមុនសិន មុននឹងលក់។');
      const opened = await send('POST', '/api/shifts', { store_id: shop.storeId, till: 'Till 4', float }, other);
      expect(opened.status).toBe(201);
      await shop.sell(1, [{ method: 'cash_usd', amount: 1250 }], other);
    } finally {
      await send('PUT', '/api/shifts/settings', settings, admin);
    }
    const badList = await send('PUT', '/api/shifts/settings', { ...settings, usd_denominations: [100, 100] }, admin);
    expect(badList.status).toBe(422);
  });
});
