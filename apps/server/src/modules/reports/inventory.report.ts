import { addDays, type Report, type ReportQuery, todayInCambodia } from '@depot/contracts';
import type { Actor } from '../../policies/policy.ts';
import { reorderQuantity } from '../stock/low.ts';
import { count, fig, frame, money, type ReportContext, type Rows, text } from './reports.frame.ts';

/**
 * The inventory report: stock on hand (and its value with costs.view) by store, category and
 * product, the period's movements, dead and slow stock, lots expiring, what to reorder.
 */
export async function inventoryReport(c: ReportContext, actor: Actor, q: ReportQuery): Promise<Report> {
  const { repo } = c;
  const { f, costs, compare, prev, range, base, series } = await frame(c, actor, 'inventory', q);
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
    series: series(['received', 'sold'], dayRows(moves), prevMoves ? dayRows(prevMoves) : null),
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
          .map(hide) as Rows,
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
        rows: dead as Rows,
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
        rows: reorder as Rows,
      },
    ],
  };
}
