import { addDays, todayInCambodia } from '@depot/contracts';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { rebuildRollups } from '../../db/rollups.rebuild.ts';
import { monthsAndDays } from '../../db/rollups.ts';
import { transaction } from '../../db/transaction.ts';
import { firstStore, stockIn, walkIn } from '../../test/factories.ts';
import { ADMIN_PASSWORD, bearer, createStore, login, useTestApp } from '../../test/harness.ts';

/**
 * The reports' daily rollups (db/rollups.ts) are kept by the writes themselves: after a seeded
 * mix of sales (products, combos, line and order discounts, riel and dollar cash with change,
 * unpaid then paid), held carts checked out or dropped, returns and voids in two stores, the rows
 * the writes left are exactly those recomputed from the documents and the ledger.
 */
const ctx = useTestApp();
let headers: Record<string, string>;
const ids: Record<string, number> = {};

async function send(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  const res = await ctx.app.inject({ method, url, headers, payload });
  return { status: res.statusCode, body: res.statusCode < 300 ? res.json() : res.body };
}

async function made(url: string, body: object) {
  const res = await send('POST', url, body);
  if (res.status !== 201 && res.status !== 200) throw new Error(`${url}: ${JSON.stringify(res.body)}`);
  return res.body.data.id as number;
}

const tables = {
  daily_sales: 'day, store_id, kind, item_id',
  daily_orders: 'day, hour, store_id, cashier_id',
  daily_payments: 'day, store_id, cashier_id, method, kind',
  daily_stock: 'day, store_id, product_id, type, of_order',
  daily_customers: 'day, store_id, customer_id',
} as const;

/** Every rollup row with something in it, numbers as numbers, instants as ISO text. */
async function snapshot() {
  const out: Record<string, Record<string, unknown>[]> = {};
  for (const [table, order] of Object.entries(tables)) {
    const { rows } = await sql<
      Record<string, unknown>
    >`select * from ${sql.table(table)} order by ${sql.raw(order)}`.execute(ctx.db);
    out[table] = rows
      .map((r) =>
        Object.fromEntries(
          Object.entries(r).map(([k, v]) => [
            k,
            k === 'last_at'
              ? v && new Date(v as string).toISOString()
              : k === 'day' || k === 'kind' || k === 'method' || k === 'type'
                ? v
                : Number(v),
          ]),
        ),
      )
      // a void leaves its day's rows at zero where a recomputation has none
      .filter(
        (r) => table === 'daily_stock' || Object.entries(r).some(([k, v]) => !order.split(', ').includes(k) && v !== 0),
      );
  }
  return out;
}

beforeAll(async () => {
  headers = { ...bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token), 'x-localization': 'en' };
  ids.store = await firstStore(ctx.db);
  ids.other = await createStore(ctx.db, 'RLP');
  ids.walkIn = await walkIn(ctx.db);
  const category = await made('/api/categories', { name_en: 'Grocery', name_kh: 'គ្រឿងទេស' });
  ids.unit = await made('/api/units', { name_en: 'Piece', name_kh: 'ដុំ', short_name: 'pc' });
  for (let i = 0; i < 4; i++) {
    ids[`p${i}`] = await made('/api/products', {
      name_en: `Rolled ${i}`,
      name_kh: `ផលិតផល ${i}`,
      sku: `RLP-${i}`,
      category_id: category,
      unit_id: ids.unit,
      price_usd_cents: 125 + i * 310,
      taxable: i % 2 === 0,
    });
    for (const store of [ids.store, ids.other]) {
      await stockIn(ctx.db, { store, product: ids[`p${i}`], quantity: 500, valueCents: 500 * (70 + i * 33) });
    }
  }
  ids.combo = await made('/api/combos', {
    name_en: 'Rolled pack',
    name_kh: 'ឈុត',
    sku: 'RLP-PACK',
    selling_price_cents: 990,
    items: [
      { product_id: ids.p0, quantity: 2 },
      { product_id: ids.p1, quantity: 1 },
    ],
  });
  ids.lineOff = await made('/api/discounts', {
    name: 'Rolled off',
    type: 'value',
    amount: 15,
    scope: 'product',
    product_id: ids.p2,
  });
  ids.dara = await made('/api/customers', { name: 'Dara' });
  ids.sokha = await made('/api/customers', { name: 'Sokha' });
  ids.orderOff = await made('/api/discounts', { name: 'Rolled 5', type: 'percentage', amount: 500, scope: 'order' });
});

describe('daily rollups', () => {
  it('equal a recomputation from the lines, payments and ledger after a seeded mix of sales, returns and voids', async () => {
    let seed = 20_261_125;
    const rand = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return Math.floor((seed / 2_147_483_648) * n);
    };
    const done: Record<string, number> = {};
    const count = (what: string, status: number) => {
      if (status < 300) done[what] = (done[what] ?? 0) + 1;
    };
    const sold: { id: number; items: { id: number; quantity: number }[] }[] = [];
    for (let step = 0; step < 40; step++) {
      const items = Array.from({ length: 1 + rand(3) }, () => {
        const which = rand(5);
        if (which === 4) return { combo_id: ids.combo, quantity: 1 + rand(2) };
        const product = ids[`p${which}`];
        return {
          product_id: product,
          quantity: 1 + rand(4),
          ...(which === 2 && rand(2) ? { discount_id: ids.lineOff } : {}),
        };
      });
      const cart = {
        customer_id: [ids.walkIn, ids.dara, ids.sokha][rand(3)],
        store_id: rand(3) === 0 ? ids.other : ids.store,
        items,
        ...(rand(3) === 0 ? { discount_id: ids.orderOff } : {}),
      };
      const kind = rand(4);
      if (kind === 0) {
        // held, then checked out or dropped
        const held = await send('POST', '/api/orders', { ...cart, hold: true });
        count('held', held.status);
        if (rand(2)) {
          const out = await send('PUT', `/api/orders/${held.body.data.id}`, {
            ...cart,
            hold: false,
            payments: [{ method: 'cash_usd', amount: 100_000 }],
          });
          count('checked out', out.status);
          if (out.status < 300) sold.push(out.body.data);
        } else count('dropped', (await send('POST', `/api/orders/${held.body.data.id}/cancel`)).status);
        continue;
      }
      // paid at once in dollars or riel (with change), or unpaid and paid later
      const payments =
        kind === 1
          ? []
          : kind === 2
            ? [{ method: 'cash_khr', amount: 400_000 }]
            : [{ method: 'cash_usd', amount: 100_000 }];
      // the change handed back each of the three ways (not from `rand`: the mix stays as it was)
      const changeIn = (['split', 'usd', 'khr'] as const)[step % 3];
      const sale = await send('POST', '/api/orders', { ...cart, payments, change_in: changeIn });
      expect(sale.status, JSON.stringify(sale.body)).toBe(201);
      count('sold', sale.status);
      if (kind === 1) {
        count(
          'paid later',
          (
            await send('POST', `/api/orders/${sale.body.data.id}/payments`, {
              payments: [{ method: 'cash_usd', amount: 100_000 }],
            })
          ).status,
        );
      }
      sold.push(sale.body.data);
      // now and then a return of part of an earlier sale, or a void of one
      const earlier = sold[rand(sold.length)];
      const act = rand(5);
      if (act === 0) {
        const line = earlier.items[rand(earlier.items.length)];
        count(
          'returned',
          (
            await send('POST', `/api/orders/${earlier.id}/returns`, {
              items: [{ order_item_id: line.id, quantity: 1 }],
              refund_method: rand(2) ? 'cash_usd' : 'cash_khr',
            })
          ).status,
        );
      } else if (act === 1) {
        count('voided', (await send('POST', `/api/orders/${earlier.id}/cancel`, { reason: 'test' })).status);
      }
    }
    // a payment on account (credit) settles the oldest of a customer's unpaid orders
    const owing = await send('POST', '/api/orders', {
      customer_id: ids.dara,
      store_id: ids.store,
      items: [{ product_id: ids.p1, quantity: 1 }],
    });
    count('sold', owing.status);
    count(
      'paid on account',
      (await send('POST', `/api/customers/${ids.dara}/payments`, { method: 'cash_usd', amount: 50 })).status,
    );
    // the last sale of a customer's day in a store voided: the day's last purchase is the one before
    const cart = {
      customer_id: ids.sokha,
      store_id: ids.other,
      items: [{ product_id: ids.p1, quantity: 1 }],
      payments: [{ method: 'cash_usd', amount: 100_000 }],
    };
    count('sold', (await send('POST', '/api/orders', cart)).status);
    const last = await send('POST', '/api/orders', cart);
    count('voided', (await send('POST', `/api/orders/${last.body.data.id}/cancel`, { reason: 'last' })).status);
    // every kind of write happened
    expect(Object.keys(done).sort()).toEqual([
      'checked out',
      'dropped',
      'held',
      'paid later',
      'paid on account',
      'returned',
      'sold',
      'voided',
    ]);

    const kept = await snapshot();
    expect(kept.daily_sales.length).toBeGreaterThan(4);
    expect(kept.daily_sales.some((r) => r.kind === 'combo')).toBe(true);
    expect(kept.daily_sales.some((r) => Number(r.returned_quantity) > 0)).toBe(true);
    expect(kept.daily_payments.some((r) => r.kind === 'refund')).toBe(true);
    expect(kept.daily_orders.some((r) => Number(r.change_khr) > 0)).toBe(true);
    expect(kept.daily_customers.some((r) => r.customer_id === ids.dara && Number(r.orders) > 0)).toBe(true);
    await transaction(ctx.db, rebuildRollups);
    expect(kept).toEqual(await snapshot());
  });

  it('answer the reports exactly as the lines and the ledger do, for a day, a month to date and whole months', async () => {
    const today = todayInCambodia();
    const first = `${today.slice(0, 8)}01`;
    const ranges = [
      [today, today],
      [first, today],
      [addDays(first, -1).slice(0, 8).concat('01'), addDays(addDays(first, 40).slice(0, 8).concat('01'), -1)],
    ];
    // the administrator made every sale: narrowed to them, the reports read the lines and the ledger
    const admin = (await ctx.db.selectFrom('users').select('id').where('name', '=', 'admin').executeTakeFirstOrThrow())
      .id;
    for (const [from, to] of ranges) {
      for (const name of ['sales', 'inventory', 'customer']) {
        const url = `/api/reports/${name}?from=${from}&to=${to}&group=month`;
        const rolled = await send('GET', url);
        const read = await send('GET', `${url}&cashier_id=${admin}`);
        expect(rolled.status).toBe(200);
        const strip = (r: { generated_at: string; sections: { key: string }[] }) => ({
          ...r,
          generated_at: null,
          sections: r.sections.filter((x) => x.key !== 'by_cashier'),
        });
        expect(strip(rolled.body.data), `${name} ${from}..${to}`).toEqual(strip(read.body.data));
      }
    }
    const sales = await send('GET', `/api/reports/sales?from=${ranges[2][0]}&to=${ranges[2][1]}&group=month`);
    expect(sales.body.data.sections.find((x: { key: string }) => x.key === 'by_product').rows.length).toBeGreaterThan(
      3,
    );
  });

  it('read whole months by their month rows and the days around them by day rows', () => {
    expect(monthsAndDays('2026-01-15', '2026-04-10')).toEqual({
      days: [
        ['2026-01-15', '2026-01-31'],
        ['2026-04-01', '2026-04-10'],
      ],
      months: ['2026-02', '2026-03'],
    });
    expect(monthsAndDays('2024-02-01', '2024-02-29')).toEqual({ days: [], months: ['2024-02'] });
    expect(monthsAndDays('2026-03-02', '2026-03-02')).toEqual({ days: [['2026-03-02', '2026-03-02']], months: [] });
    expect(monthsAndDays('2025-12-01', '2026-01-30')).toEqual({
      days: [['2026-01-01', '2026-01-30']],
      months: ['2025-12'],
    });
  });
});
