import {
  addDays,
  type Dashboard,
  formatKhr,
  formatUsd,
  type Report,
  type ReportFigure,
  type ReportName,
  type ReportQuery,
  type ReportSection,
  rielOf,
  todayInCambodia,
} from '@depot/contracts';
import type { Db } from '../../db/database.ts';
import { now } from '../../db/database.ts';
import { type Actor, assertStoreInput, can } from '../../policies/policy.ts';
import { hidesDrawer } from '../../policies/shifts.ts';
import { currentRates } from '../rates/rates.service.ts';
import { readShiftSettings } from '../shifts/shifts.settings.ts';
import { reorderQuantity } from '../stock/low.ts';
import { type Filter, type Range, reportsRepository } from './reports.repository.ts';
import { basisPoints, previousRange, rollUp } from './reports.sql.ts';

type Day = { day: string; values: Record<string, number> };
type Col = ReportSection['columns'][number];

const money = (key: string): Col => ({ key, kind: 'money' });
const count = (key: string): Col => ({ key, kind: 'count' });
const text = (key: string): Col => ({ key, kind: 'text' });

/** Sums of some keys over day rows. */
function total(rows: Day[], keys: string[]): Record<string, number> {
  const out = Object.fromEntries(keys.map((k) => [k, 0])) as Record<string, number>;
  for (const r of rows) for (const k of keys) out[k] += r.values[k] ?? 0;
  return out;
}

/** Day rows of several queries merged by day. */
function merge(...lists: Day[][]): Day[] {
  const byDay = new Map<string, Record<string, number>>();
  for (const list of lists) for (const r of list) byDay.set(r.day, { ...(byDay.get(r.day) ?? {}), ...r.values });
  return [...byDay].map(([day, values]) => ({ day, values }));
}

/** Net sales, average basket, profit and margin from a period's sums. */
function derive(s: Record<string, number>): Record<string, number> {
  const net = s.gross_cents - s.discount_cents - s.returns_cents;
  return {
    ...s,
    net_cents: net,
    average_cents: s.orders ? Math.round((s.gross_cents - s.discount_cents) / s.orders) : 0,
    profit_cents: net - (s.cogs_cents ?? 0),
    margin: basisPoints(net - (s.cogs_cents ?? 0), net),
  };
}

/**
 * The reports and the dashboards: the repository's queries put together into the one shape every
 * report has (contracts' `Report`). What a user without `costs.view` may not see (cost of goods,
 * profit, margin, stock values, purchases) is never computed into their answer.
 */
export function reportsService(db: Db) {
  const repo = reportsRepository(db);

  function filterOf(actor: Actor, q: ReportQuery): Filter {
    if (q.store_id) assertStoreInput(actor, 'store_id', q.store_id);
    return {
      storeId: q.store_id,
      cashierId: q.cashier_id,
      customerId: q.customer_id,
      categoryId: q.category_id,
      brandId: q.brand_id,
    };
  }

  /** The period's sales figures by day (and the cost of goods with costs.view). */
  async function salesFigures(actor: Actor, range: Range, f: Filter, costs: boolean) {
    const [sales, returns, cogs] = await Promise.all([
      repo.salesDays(actor, range, f),
      repo.returnsDays(actor, range, f),
      costs ? repo.cogsDays(actor, range, f) : Promise.resolve([]),
    ]);
    const days = merge(sales, returns, cogs).map((d) => ({
      day: d.day,
      values: derive({
        orders: 0,
        gross_cents: 0,
        discount_cents: 0,
        tax_cents: 0,
        total_cents: 0,
        returns_cents: 0,
        cogs_cents: 0,
        ...d.values,
      }),
    }));
    const sums = derive(
      total(days, [
        'orders',
        'gross_cents',
        'discount_cents',
        'tax_cents',
        'total_cents',
        'returns_cents',
        'cogs_cents',
      ]),
    );
    return { days, sums };
  }

  async function frame(actor: Actor, name: ReportName, q: ReportQuery) {
    const f = filterOf(actor, q);
    const costs = can(actor, 'costs.view');
    const compare = q.compare === 'true';
    const prev = previousRange(q.from, q.to);
    const rates = await currentRates(db);
    return {
      f,
      costs,
      compare,
      prev,
      rate: { rate_khr: rates.rate_khr, khr_step: rates.khr_step },
      rielRates: rates,
      base: {
        report: name,
        from: q.from,
        to: q.to,
        previous_from: compare ? prev.from : null,
        previous_to: compare ? prev.to : null,
        group: q.group,
        store_id: q.store_id ?? null,
        costs,
        rate: { rate_khr: rates.rate_khr, khr_step: rates.khr_step },
        generated_at: now(),
      },
    };
  }

  function fig(key: string, kind: ReportFigure['kind'], value: number | null, previous: number | null): ReportFigure {
    return { key, kind, value, previous };
  }

  const methodRows = (rows: Awaited<ReturnType<typeof repo.byPayment>>): Record<string, string | number | null>[] =>
    rows.map((r) => ({
      method: `report.method.${r.kind === 'refund' ? 'refund' : r.method}`,
      currency: r.method === 'cash_khr' ? 'report.value.khr' : 'report.value.usd',
      orders: r.orders,
      amount: r.amount,
      amount_cents: r.kind === 'refund' ? -r.amount_cents : r.amount_cents,
      kind: r.kind,
      code: r.method,
    }));

  return {
    async sales(actor: Actor, q: ReportQuery): Promise<Report> {
      const { f, costs, compare, prev, base, rielRates } = await frame(actor, 'sales', q);
      const range = { from: q.from, to: q.to };
      const [now_, before, byProduct, byCategory, byBrand, byCashier, byStore, byPayment, byHour, combos] =
        await Promise.all([
          salesFigures(actor, range, f, costs),
          compare ? salesFigures(actor, prev, f, costs) : Promise.resolve(null),
          repo.byProduct(actor, range, f),
          repo.byGroup(actor, range, f, 'category'),
          repo.byGroup(actor, range, f, 'brand'),
          repo.byOrderColumn(actor, range, f, 'cashier'),
          repo.byOrderColumn(actor, range, f, 'store'),
          repo.byPayment(actor, range, f),
          repo.byHour(actor, range, f),
          repo.comboItems(actor, range, f),
        ]);
      const s = now_.sums;
      const p = before?.sums;
      const summary = [
        fig('net_cents', 'money', s.net_cents, p?.net_cents ?? null),
        fig('net_khr', 'riel', rielOf(s.net_cents, rielRates), p ? rielOf(p.net_cents, rielRates) : null),
        fig('orders', 'count', s.orders, p?.orders ?? null),
        fig('average_cents', 'money', s.average_cents, p?.average_cents ?? null),
        fig('gross_cents', 'money', s.gross_cents, p?.gross_cents ?? null),
        fig('discount_cents', 'money', s.discount_cents, p?.discount_cents ?? null),
        fig('returns_cents', 'money', s.returns_cents, p?.returns_cents ?? null),
        fig('tax_cents', 'money', s.tax_cents, p?.tax_cents ?? null),
        fig('total_cents', 'money', s.total_cents, p?.total_cents ?? null),
        ...(costs
          ? [
              fig('profit_cents', 'money', s.profit_cents, p?.profit_cents ?? null),
              fig('margin', 'percent', s.margin, p?.margin ?? null),
            ]
          : []),
      ];
      const keys = ['net_cents', 'orders'];
      const lineCols = [
        count('quantity'),
        count('returned_quantity'),
        money('gross_cents'),
        money('discount_cents'),
        money('net_cents'),
        money('tax_cents'),
      ];
      const named = (rows: Record<string, unknown>[]) =>
        rows.map((r) => ({ ...r, name: r.name_en ?? null, name_kh: r.name_kh ?? null })) as Record<
          string,
          string | number | null
        >[];
      return {
        ...base,
        summary,
        series: {
          keys,
          points: rollUp(now_.days, q.from, q.to, q.group, keys),
          previous: before ? rollUp(before.days, prev.from, prev.to, q.group, keys) : null,
        },
        sections: [
          {
            key: 'by_product',
            columns: [text('name'), text('sku'), text('kind'), ...lineCols],
            rows: named(byProduct).map((r) => ({ ...r, kind: `report.value.${r.kind}` })),
          },
          { key: 'by_category', columns: [text('name'), ...lineCols], rows: named(byCategory) },
          { key: 'by_brand', columns: [text('name'), ...lineCols], rows: named(byBrand) },
          {
            key: 'by_cashier',
            columns: [
              text('name'),
              count('orders'),
              money('gross_cents'),
              money('discount_cents'),
              money('net_cents'),
              money('tax_cents'),
            ],
            rows: byCashier as Record<string, string | number | null>[],
          },
          {
            key: 'by_store',
            columns: [
              text('name'),
              count('orders'),
              money('gross_cents'),
              money('discount_cents'),
              money('net_cents'),
              money('tax_cents'),
            ],
            rows: byStore as Record<string, string | number | null>[],
          },
          {
            key: 'by_payment',
            columns: [
              text('method'),
              text('currency'),
              count('orders'),
              { key: 'amount', kind: 'text' },
              money('amount_cents'),
            ],
            rows: methodRows(byPayment).map((r) => ({
              ...r,
              amount: r.code === 'cash_khr' ? riel(Number(r.amount)) : null,
            })),
          },
          {
            key: 'by_hour',
            columns: [count('hour'), count('orders'), money('net_cents')],
            rows: byHour.map((h) => ({ ...h, net_cents: h.net_cents })),
          },
          {
            key: 'combo_items',
            columns: [text('combo'), text('name'), text('sku'), count('quantity'), count('returned_quantity')],
            rows: combos.map((c) => ({
              combo: c.combo_en as string,
              combo_kh: c.combo_kh as string,
              name: c.name_en as string,
              name_kh: c.name_kh as string,
              sku: c.sku as string,
              quantity: c.quantity as number,
              returned_quantity: c.returned_quantity as number,
            })),
          },
        ],
      };
    },

    async financial(actor: Actor, q: ReportQuery): Promise<Report> {
      const { f, costs, compare, prev, base, rielRates } = await frame(actor, 'financial', q);
      const range = { from: q.from, to: q.to };
      const [
        now_,
        before,
        payments,
        change,
        rates,
        purchases,
        prevPurchases,
        supplierPaid,
        suppliersDue,
        customersDue,
      ] = await Promise.all([
        salesFigures(actor, range, f, costs),
        compare ? salesFigures(actor, prev, f, costs) : Promise.resolve(null),
        repo.byPayment(actor, range, f),
        repo.change(actor, range, f),
        repo.rates(actor, range, f),
        costs ? repo.purchases(actor, range, f) : Promise.resolve(null),
        costs && compare ? repo.purchases(actor, prev, f) : Promise.resolve(null),
        costs ? repo.supplierPaid(actor, range, f) : Promise.resolve(null),
        costs ? repo.suppliersDue(actor, f) : Promise.resolve([]),
        repo.customersDue(actor, f),
      ]);
      const s = now_.sums;
      const p = before?.sums;
      const customerDue = customersDue.reduce((a, r) => a + Number(r.due_cents), 0);
      const supplierDue = suppliersDue.reduce((a, r) => a + Number(r.due_cents), 0);
      const cash = (method: string, kind: string) =>
        payments.filter((r) => r.method === method && r.kind === kind).reduce((a, r) => a + r.amount, 0);
      const summary = [
        fig('net_cents', 'money', s.net_cents, p?.net_cents ?? null),
        fig('net_khr', 'riel', rielOf(s.net_cents, rielRates), p ? rielOf(p.net_cents, rielRates) : null),
        ...(costs
          ? [
              fig('cogs_cents', 'money', s.cogs_cents, p?.cogs_cents ?? null),
              fig('profit_cents', 'money', s.profit_cents, p?.profit_cents ?? null),
              fig('margin', 'percent', s.margin, p?.margin ?? null),
            ]
          : []),
        fig('tax_cents', 'money', s.tax_cents, p?.tax_cents ?? null),
        ...(costs && purchases
          ? [
              fig('purchases_cents', 'money', purchases.purchases_cents, prevPurchases?.purchases_cents ?? null),
              fig('landed_cents', 'money', purchases.landed_cents, prevPurchases?.landed_cents ?? null),
              fig(
                'purchase_tax_cents',
                'money',
                purchases.purchase_tax_cents,
                prevPurchases?.purchase_tax_cents ?? null,
              ),
              fig('supplier_paid_cents', 'money', supplierPaid, null),
              fig('supplier_due_cents', 'money', supplierDue, null),
            ]
          : []),
        fig('customer_due_cents', 'money', customerDue, null),
      ];
      const keys = costs ? ['net_cents', 'cogs_cents', 'profit_cents'] : ['net_cents', 'tax_cents'];
      return {
        ...base,
        summary,
        series: {
          keys,
          points: rollUp(now_.days, q.from, q.to, q.group, keys),
          previous: before ? rollUp(before.days, prev.from, prev.to, q.group, keys) : null,
        },
        sections: [
          {
            key: 'cash',
            columns: [
              text('currency'),
              { key: 'received_amount', kind: 'text' },
              { key: 'change_amount', kind: 'text' },
              { key: 'refunded_amount', kind: 'text' },
            ],
            rows: [
              {
                currency: 'report.value.usd',
                code: 'usd',
                received_cents: cash('cash_usd', 'payment'),
                change_cents: change.change_cents,
                refunded_cents: cash('cash_usd', 'refund'),
                received_amount: dollars(cash('cash_usd', 'payment')),
                change_amount: dollars(change.change_cents),
                refunded_amount: dollars(cash('cash_usd', 'refund')),
              },
              {
                currency: 'report.value.khr',
                code: 'khr',
                received_khr: cash('cash_khr', 'payment'),
                change_khr: change.change_khr,
                refunded_khr: cash('cash_khr', 'refund'),
                received_amount: riel(cash('cash_khr', 'payment')),
                change_amount: riel(change.change_khr),
                refunded_amount: riel(cash('cash_khr', 'refund')),
              },
            ],
          },
          {
            key: 'by_payment',
            columns: [text('method'), text('currency'), count('orders'), money('amount_cents')],
            rows: methodRows(payments),
          },
          {
            key: 'rates',
            columns: [
              { key: 'rate_khr', kind: 'rate' },
              { key: 'rate_in_khr', kind: 'rate' },
              { key: 'rate_out_khr', kind: 'rate' },
              count('orders'),
            ],
            rows: rates,
          },
          ...(costs
            ? [
                {
                  key: 'suppliers_due',
                  columns: [text('name'), count('orders'), money('due_cents')],
                  rows: suppliersDue as Record<string, string | number | null>[],
                },
              ]
            : []),
          {
            key: 'customers_due',
            columns: [text('name'), text('phone'), count('orders'), money('due_cents')],
            rows: customersDue as Record<string, string | number | null>[],
          },
        ],
      };
    },

    async inventory(actor: Actor, q: ReportQuery): Promise<Report> {
      const { f, costs, compare, prev, base } = await frame(actor, 'inventory', q);
      const range = { from: q.from, to: q.to };
      const [levels, low, moves, prevMoves, sold, expiring, categories, stores] = await Promise.all([
        repo.onHand(actor, f),
        repo.lowProducts(actor, f),
        repo.movements(actor, range, f),
        compare ? repo.movements(actor, prev, f) : Promise.resolve(null),
        repo.soldUnits(actor, range, f),
        repo.expiring(actor, addDays(todayInCambodia(), 30), f),
        repo.categoryNames(),
        repo.storeNames(),
      ]);
      // a product's average cost is its valuation ÷ its quantity, every store together (the ledger's)
      const stockValue = (l: (typeof levels)[number]) =>
        // a store below zero (an offline sale's shortage) holds nothing of value
        l.valued_quantity > 0 && l.on_hand > 0 ? Math.round((l.on_hand * l.valued_cents) / l.valued_quantity) : 0;
      const group = <K extends string | number>(key: (l: (typeof levels)[number]) => K) => {
        const m = new Map<K, { on_hand: number; value_cents: number; products: number }>();
        for (const l of levels) {
          const g = m.get(key(l)) ?? { on_hand: 0, value_cents: 0, products: 0 };
          g.on_hand += l.on_hand;
          g.value_cents += stockValue(l);
          if (l.on_hand > 0) g.products += 1;
          m.set(key(l), g);
        }
        return m;
      };
      const byStore = [...group((l) => l.store_id)].map(([id, g]) => ({ name: stores.get(id) ?? String(id), ...g }));
      const byCategory = [...group((l) => l.category_id)].map(([id, g]) => ({
        name: categories.get(id)?.name_en ?? null,
        name_kh: categories.get(id)?.name_kh ?? null,
        ...g,
      }));
      const byProductMap = new Map<
        number,
        { name: string; name_kh: string; sku: string; on_hand: number; value_cents: number; reorder_level: number }
      >();
      for (const l of levels) {
        const g = byProductMap.get(l.product_id) ?? {
          name: l.name_en,
          name_kh: l.name_kh,
          sku: l.sku,
          on_hand: 0,
          value_cents: 0,
          reorder_level: l.reorder_level,
        };
        g.on_hand += l.on_hand;
        g.value_cents += stockValue(l);
        byProductMap.set(l.product_id, g);
      }
      const days = Math.max(1, Math.round((Date.parse(q.to) - Date.parse(q.from)) / 86_400_000) + 1);
      const byProduct = [...byProductMap].map(([id, g]) => ({
        id,
        ...g,
        sold: sold.get(id)?.sold ?? 0,
        last_sold: sold.get(id)?.last_sold ?? null,
      }));
      const kinds: Record<string, string> = {
        purchase_receipt: 'received',
        sale: 'sold',
        bundle_consumption: 'sold',
        return: 'returned',
        transfer_in: 'transferred',
        transfer_out: 'transferred',
        adjustment: 'adjusted',
        expiry_write_off: 'written_off',
        write_off: 'written_off',
      };
      const movementSums = (rows: typeof moves) => {
        const m: Record<string, { quantity: number; value_cents: number }> = {};
        for (const r of rows) {
          const k = kinds[r.type] ?? 'adjusted';
          m[k] ??= { quantity: 0, value_cents: 0 };
          m[k].quantity += r.quantity;
          m[k].value_cents += r.value_cents;
        }
        return m;
      };
      // what goes out (sold, written off) reads as a positive count of units
      const outward = (k: string, q: number) => (k === 'sold' || k === 'written_off' ? -q : q);
      const mNow = movementSums(moves);
      const mPrev = prevMoves ? movementSums(prevMoves) : null;
      const onHand = byProduct.reduce((a, r) => a + r.on_hand, 0);
      const value = byProduct.reduce((a, r) => a + r.value_cents, 0);
      const summary = [
        fig('on_hand', 'count', onHand, null),
        ...(costs ? [fig('value_cents', 'money', value, null)] : []),
        ...['received', 'sold', 'returned', 'transferred', 'adjusted', 'written_off'].map((k) =>
          fig(k, 'count', outward(k, mNow[k]?.quantity ?? 0), mPrev ? outward(k, mPrev[k]?.quantity ?? 0) : null),
        ),
      ];
      const seriesKeys = ['received', 'sold'];
      const dayRows = (rows: typeof moves) => {
        const m = new Map<string, Record<string, number>>();
        for (const r of rows) {
          const k = kinds[r.type];
          if (k !== 'received' && k !== 'sold') continue;
          const v = m.get(r.day) ?? { received: 0, sold: 0 };
          v[k] += k === 'sold' ? -r.quantity : r.quantity;
          m.set(r.day, v);
        }
        return [...m].map(([day, values]) => ({ day, values }));
      };
      const valueCol = costs ? [money('value_cents')] : [];
      const hide = <T extends Record<string, unknown>>(r: T) => {
        if (costs) return r;
        const { value_cents: _v, ...rest } = r;
        return rest;
      };
      const dead = byProduct
        .filter((r) => r.on_hand > 0 && r.sold * 10 < r.on_hand)
        .sort((a, b) => a.sold - b.sold || b.value_cents - a.value_cents)
        .slice(0, 100)
        .map((r) => hide({ ...r, state: r.sold === 0 ? 'report.value.dead' : 'report.value.slow' }));
      const reorder = byProduct
        .filter((r) => low.has(r.id))
        .map((r) => {
          const perDay = r.sold / days;
          const suggested = reorderQuantity({ quantity: r.on_hand, reorder_level: r.reorder_level }, perDay);
          return { ...r, daily_sales: Math.round(perDay * 100) / 100, suggested };
        })
        .sort((a, b) => b.suggested - a.suggested)
        .slice(0, 100)
        .map(hide);
      const today = todayInCambodia();
      return {
        ...base,
        summary,
        series: {
          keys: seriesKeys,
          points: rollUp(dayRows(moves), q.from, q.to, q.group, seriesKeys),
          previous: prevMoves ? rollUp(dayRows(prevMoves), prev.from, prev.to, q.group, seriesKeys) : null,
        },
        sections: [
          {
            key: 'stock_by_store',
            columns: [text('name'), count('products'), count('on_hand'), ...valueCol],
            rows: byStore.map(hide),
          },
          {
            key: 'stock_by_category',
            columns: [text('name'), count('products'), count('on_hand'), ...valueCol],
            rows: byCategory.map(hide),
          },
          {
            key: 'stock_by_product',
            columns: [text('name'), text('sku'), count('on_hand'), ...valueCol, count('sold')],
            rows: byProduct
              .sort((a, b) => b.value_cents - a.value_cents || b.on_hand - a.on_hand)
              .slice(0, 200)
              .map(hide) as Record<string, string | number | null>[],
          },
          {
            key: 'movements',
            columns: [text('movement'), count('quantity'), ...valueCol],
            rows: ['received', 'sold', 'returned', 'transferred', 'adjusted', 'written_off'].map((k) =>
              hide({
                movement: `report.field.${k}`,
                quantity: outward(k, mNow[k]?.quantity ?? 0),
                value_cents: outward(k, mNow[k]?.value_cents ?? 0),
              }),
            ),
          },
          {
            key: 'dead_stock',
            columns: [
              text('name'),
              text('sku'),
              count('on_hand'),
              ...valueCol,
              count('sold'),
              { key: 'last_sold', kind: 'date' },
              text('state'),
            ],
            rows: dead as Record<string, string | number | null>[],
          },
          {
            key: 'expiring',
            columns: [
              text('name'),
              text('sku'),
              text('store'),
              text('lot'),
              { key: 'expiry_date', kind: 'date' },
              count('quantity'),
              text('state'),
            ],
            rows: expiring.map((e) => ({
              name: e.name_en,
              name_kh: e.name_kh,
              sku: e.sku,
              store: e.store,
              lot: e.lot,
              expiry_date: e.expiry_date,
              quantity: e.quantity,
              state: e.expiry_date !== null && e.expiry_date < today ? 'report.value.expired' : 'report.value.expiring',
            })),
          },
          {
            key: 'reorder',
            columns: [
              text('name'),
              text('sku'),
              count('on_hand'),
              count('reorder_level'),
              count('sold'),
              count('daily_sales'),
              count('suggested'),
            ],
            rows: reorder as Record<string, string | number | null>[],
          },
        ],
      };
    },

    async customer(actor: Actor, q: ReportQuery): Promise<Report> {
      const { f, compare, prev, base } = await frame(actor, 'customer', q);
      const range = { from: q.from, to: q.to };
      const [top, prevTop, days, prevDays, due, lapsed] = await Promise.all([
        repo.customers(actor, range, f, 100_000),
        compare ? repo.customers(actor, prev, f, 100_000) : Promise.resolve(null),
        repo.customerDays(actor, range, f),
        compare ? repo.customerDays(actor, prev, f) : Promise.resolve(null),
        repo.customersDue(actor, f),
        repo.lapsed(actor, range, f),
      ]);
      const spend = (rows: typeof top) =>
        rows.reduce((a, r) => a + Number((r as Record<string, unknown>).net_cents), 0);
      const orders = (rows: typeof top) => rows.reduce((a, r) => a + Number((r as Record<string, unknown>).orders), 0);
      const end = Date.parse(`${addDays(q.to, 1)}T00:00:00+07:00`);
      const summary = [
        fig('customers', 'count', top.length, prevTop?.length ?? null),
        fig('orders', 'count', orders(top), prevTop ? orders(prevTop) : null),
        fig('net_cents', 'money', spend(top), prevTop ? spend(prevTop) : null),
        fig(
          'average_cents',
          'money',
          top.length ? Math.round(spend(top) / top.length) : 0,
          prevTop?.length ? Math.round(spend(prevTop) / prevTop.length) : prevTop ? 0 : null,
        ),
        fig(
          'due_cents',
          'money',
          due.reduce((a, r) => a + Number(r.due_cents), 0),
          null,
        ),
        fig('lapsed', 'count', lapsed.length, null),
      ];
      const since = (iso: string | null) =>
        iso ? Math.max(0, Math.floor((end - Date.parse(iso)) / 86_400_000)) : null;
      return {
        ...base,
        summary,
        series: {
          keys: ['customers'],
          points: rollUp(days, q.from, q.to, q.group, ['customers']),
          previous: prevDays ? rollUp(prevDays, prev.from, prev.to, q.group, ['customers']) : null,
        },
        sections: [
          {
            key: 'top_customers',
            columns: [
              text('name'),
              text('phone'),
              count('orders'),
              money('net_cents'),
              money('due_cents'),
              { key: 'last_order', kind: 'date' },
              count('days_since'),
            ],
            rows: top.slice(0, 100).map((r) => ({ ...r, days_since: since(r.last_order as string) })) as Record<
              string,
              string | number | null
            >[],
          },
          {
            key: 'customers_due',
            columns: [text('name'), text('phone'), count('orders'), money('due_cents')],
            rows: due as Record<string, string | number | null>[],
          },
          {
            key: 'lapsed',
            columns: [
              text('name'),
              text('phone'),
              count('orders'),
              money('net_cents'),
              { key: 'last_order', kind: 'date' },
              count('days_since'),
            ],
            rows: lapsed.map((r) => ({ ...r, days_since: since(r.last_order as string) })) as Record<
              string,
              string | number | null
            >[],
          },
        ],
      };
    },

    /**
     * A manager's dashboard (reports.view): today against yesterday, this week against the last;
     * anyone else's: their own sales of today (no shifts yet: "today" stands for their shift).
     */
    storeName: (id: number) => repo.storeName(id),

    async dashboard(actor: Actor): Promise<Omit<Dashboard, 'user' | 'store' | 'roles'>> {
      const manager = can(actor, 'reports.view');
      const costs = manager && can(actor, 'costs.view');
      const today = todayInCambodia();
      // a cashier's "today" is their open shift when there is one: its sales since it opened
      const shift = manager ? null : await repo.openShift(actor.userId);
      const f: Filter = manager ? {} : { cashierId: actor.userId, shiftId: shift?.id };
      const rates = await currentRates(db);
      const day = { from: shift ? todayInCambodia(new Date(shift.opened_at)) : today, to: today };
      const yesterday = { from: addDays(today, -1), to: addDays(today, -1) };
      const weekStart = addDays(today, -((new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7));
      const week = { from: weekStart, to: today };
      const lastWeek = { from: addDays(weekStart, -7), to: addDays(today, -7) };
      const [t, y, w, lw, hours, payments, change, top, cats, waiting] = await Promise.all([
        salesFigures(actor, day, f, costs),
        salesFigures(actor, yesterday, f, costs),
        manager ? salesFigures(actor, week, f, costs) : Promise.resolve(null),
        manager ? salesFigures(actor, lastWeek, f, costs) : Promise.resolve(null),
        repo.byHour(actor, day, f),
        repo.byPayment(actor, day, f),
        repo.change(actor, day, f),
        manager ? repo.byProduct(actor, week, f, 5) : Promise.resolve([]),
        manager ? repo.byGroup(actor, week, f, 'category') : Promise.resolve([]),
        manager ? repo.waiting(actor, today, addDays(today, 30)) : Promise.resolve(null),
      ]);
      const link = (from: string, to: string) => `/reports/sales?from=${from}&to=${to}`;
      const figures = (a: typeof t, b: typeof t, range: Range): ReportFigure[] => [
        { ...fig('net_cents', 'money', a.sums.net_cents, b.sums.net_cents), link: link(range.from, range.to) },
        {
          ...fig('orders', 'count', a.sums.orders, b.sums.orders),
          link: manager ? link(range.from, range.to) : '/orders',
        },
        {
          ...fig('average_cents', 'money', a.sums.average_cents, b.sums.average_cents),
          link: link(range.from, range.to),
        },
        ...(costs
          ? [
              {
                ...fig('profit_cents', 'money', a.sums.profit_cents, b.sums.profit_cents),
                link: `/reports/financial?from=${range.from}&to=${range.to}`,
              },
            ]
          : []),
      ];
      const cash = (method: string, kind: string) =>
        payments.filter((r) => r.method === method && r.kind === kind).reduce((a, r) => a + r.amount, 0);
      // a blind close: a cashier's open shift tells no cash received or change given until counted
      const blind = Boolean(shift) && hidesDrawer(actor, (await readShiftSettings(db)).blind_close);
      const sections: ReportSection[] = [
        {
          key: 'by_payment',
          columns: [text('method'), count('orders'), money('amount_cents')],
          rows: methodRows(payments),
        },
        {
          key: 'cash',
          columns: [text('currency'), { key: 'received_amount', kind: 'text' }, { key: 'change_amount', kind: 'text' }],
          rows: [
            {
              currency: 'report.value.usd',
              received_amount: dollars(cash('cash_usd', 'payment')),
              change_amount: dollars(change.change_cents),
            },
            {
              currency: 'report.value.khr',
              received_amount: riel(cash('cash_khr', 'payment')),
              change_amount: riel(change.change_khr),
            },
          ],
        },
      ];
      if (blind) sections.splice(0, sections.length);
      if (manager) {
        sections.push(
          {
            key: 'top_products',
            columns: [text('name'), count('quantity'), money('net_cents')],
            rows: top.map((r) => ({
              name: r.name_en as string,
              name_kh: r.name_kh as string,
              quantity: r.quantity as number,
              net_cents: r.net_cents as number,
            })),
          },
          {
            key: 'top_categories',
            columns: [text('name'), count('quantity'), money('net_cents')],
            rows: cats.slice(0, 5).map((r) => ({
              name: (r.name_en as string) ?? null,
              name_kh: (r.name_kh as string) ?? null,
              quantity: r.quantity as number,
              net_cents: r.net_cents as number,
            })),
          },
        );
      }
      const alerts: ReportFigure[] = waiting
        ? [
            { ...fig('low_stock', 'count', waiting.low_stock, null), link: '/stocks/low' },
            { ...fig('expiring', 'count', waiting.expiring, null), link: '/products/expired' },
            ...(costs
              ? [
                  {
                    ...fig('purchases_due', 'money', waiting.purchases_due_cents, null),
                    link: '/purchases?filter[payment_status]=unpaid',
                  },
                ]
              : []),
            {
              ...fig('unpaid_orders', 'money', waiting.unpaid_cents, null),
              link: '/orders?filter[payment_status]=unpaid',
            },
            {
              ...fig('deliveries', 'count', waiting.deliveries, null),
              link: '/orders?filter[delivery_status]=preparing',
            },
            ...(waiting.open_overnight > 0
              ? [
                  {
                    ...fig('open_overnight', 'count', waiting.open_overnight, null),
                    link: '/shifts?filter[status]=open',
                  },
                ]
              : []),
          ]
        : [];
      return {
        kind: manager ? 'manager' : 'cashier',
        today,
        costs,
        rate: { rate_khr: rates.rate_khr, khr_step: rates.khr_step },
        today_figures: figures(t, y, day),
        week_figures: w && lw ? figures(w, lw, week) : null,
        by_hour: hours,
        sections,
        alerts,
        shift: shift
          ? {
              id: shift.id,
              number: shift.number,
              till: shift.till,
              opened_at: shift.opened_at,
              overnight: todayInCambodia(new Date(shift.opened_at)) < today,
            }
          : null,
      };
    },
  };
}

// figures written into a report's text cells, in Latin digits as every report cell (reports.export.ts)
const dollars = (cents: number): string => formatUsd(cents, 'latin');
const riel = (amount: number): string => formatKhr(amount, 'latin');

export type ReportsService = ReturnType<typeof reportsService>;
