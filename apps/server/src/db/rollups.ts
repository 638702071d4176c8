import { type CompiledQuery, type Kysely, type RawBuilder, type Selectable, sql } from 'kysely';
import type { Db } from './database.ts';
import { runTogether, writeLast } from './later.ts';
import type { OrdersTable } from './schema.ts';

/**
 * The reports' daily rollups: what a sale, a payment, a return, a void and a ledger movement add
 * to the figures of their day, kept in five tables (schema.ts: daily_sales, daily_orders,
 * daily_payments, daily_stock, daily_customers) IN THE TRANSACTION OF THE WRITE, never by a job
 * that could lag.
 *
 * The writers call `tally*` (the ledger's one writer for daily_stock, the order steps for the
 * rest). Inside `transaction()` (db/transaction.ts) the changes are gathered and written with
 * the transaction's last writes (db/later.ts: on PostgreSQL one statement with a sale's ledger
 * writes and numbers, then the commit), sorted by table and key: every transaction takes the rollup
 * rows' locks last (after the ledger's product locks and the counters) and in the same order, so
 * two sales never deadlock on them, and holds them for that statement and the commit only. Each
 * row is an upsert adding to what is there (`x = x + excluded.x`, the same SQL on SQLite and
 * PostgreSQL). Outside `transaction()` (a test's own transaction) they are written at once.
 *
 * db/rollups.rebuild.ts recomputes all five from the documents and the ledger, for a depot whose
 * documents were written or dated some other way.
 */

type Table = 'daily_sales' | 'daily_orders' | 'daily_payments' | 'daily_stock' | 'daily_customers';

const keys: Record<Table, string[]> = {
  daily_sales: ['day', 'store_id', 'kind', 'item_id'],
  daily_orders: ['day', 'hour', 'store_id', 'cashier_id'],
  daily_payments: ['day', 'store_id', 'cashier_id', 'method', 'kind'],
  daily_stock: ['day', 'store_id', 'product_id', 'type', 'of_order'],
  daily_customers: ['day', 'store_id', 'customer_id'],
};

/** The five rollup tables. */
export const ROLLUP_TABLES = Object.keys(keys) as readonly Table[];

const sums: Record<Table, string[]> = {
  daily_sales: ['quantity', 'returned_quantity', 'gross_cents', 'discount_cents', 'net_cents', 'tax_cents'],
  daily_orders: ['orders', 'gross_cents', 'discount_cents', 'tax_cents', 'total_cents', 'change_cents', 'change_khr'],
  daily_payments: ['payments', 'amount', 'amount_cents'],
  daily_stock: ['quantity', 'value_cents'],
  daily_customers: ['orders', 'net_cents', 'due_cents'],
};

type Row = Record<string, string | number | null>;
interface Change {
  table: Table;
  row: Row;
  /** A sale voided: the row's last purchase is read again from the orders once it is written. */
  recompute?: boolean;
}

const HOUR = 3_600_000;

/**
 * A range of local days as the rollups read it: the whole months in it (YYYY-MM rows) and the days
 * before and after them (YYYY-MM-DD rows), each part within one month.
 */
export function monthsAndDays(from: string, to: string): { days: [string, string][]; months: string[] } {
  const days: [string, string][] = [];
  const months: string[] = [];
  let day = from;
  while (day <= to) {
    const month = day.slice(0, 7);
    const last = lastDayOf(month);
    if (day.endsWith('-01') && last <= to) {
      months.push(month);
      day = nextDay(last);
      continue;
    }
    const end = last < to ? last : to;
    days.push([day, end]);
    day = nextDay(end);
  }
  return { days, months };
}

function lastDayOf(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/** The depot's local day (Cambodia, UTC+7 all year) of an instant, as the reports' SQL computes it. */
export function localDayOf(at: string | Date): string {
  return new Date(new Date(at).getTime() + 7 * HOUR).toISOString().slice(0, 10);
}

/** The depot's local hour (0–23) of an instant. */
export function localHourOf(at: string | Date): number {
  return new Date(new Date(at).getTime() + 7 * HOUR).getUTCHours();
}

const isoOf = (at: string | Date) => (at instanceof Date ? at.toISOString() : at);

// the changes of each running transaction of `transaction()`, by its transaction object
const pending = new WeakMap<Db, Map<string, Change>>();

/** Gathers the rollups' changes of `trx` until `flushRollups` (db/transaction.ts calls both). */
export function gatherRollups(trx: Db): void {
  pending.set(trx, new Map());
}

/**
 * The gathered changes of `trx`, sorted by table and key, handed to the transaction's last writes
 * (db/later.ts: on PostgreSQL one statement with the rest of them, the rows locked only from there
 * to the commit); a void's, which reads the orders again once written, at once.
 */
export async function flushRollups(trx: Db): Promise<void> {
  const changes = pending.get(trx);
  pending.delete(trx);
  if (!changes?.size) return;
  const sorted = [...changes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, c]) => c);
  if (sorted.some((c) => c.recompute)) await write(trx, sorted);
  else await writeLast(trx, ...upserts(trx, sorted).map((query) => ({ query })));
}

function merge(into: Row, row: Row, table: Table) {
  for (const k of sums[table]) into[k] = Number(into[k]) + Number(row[k]);
  if (
    'last_at' in row &&
    row.last_at !== null &&
    (into.last_at === null || String(row.last_at) > String(into.last_at))
  ) {
    into.last_at = row.last_at;
  }
}

/**
 * The rows a change adds to: its day's; for lines and the ledger also its month's (`day` is then
 * YYYY-MM: a year's report reads 12 months per product, not 365 days); for the ledger also the
 * day's total of every product (`product_id` 0: the series by day read a row per day and type).
 */
function grains(table: Table, row: Row): Row[] {
  if (table === 'daily_sales' || table === 'daily_customers')
    return [row, { ...row, day: String(row.day).slice(0, 7) }];
  if (table === 'daily_stock') {
    return [row, { ...row, day: String(row.day).slice(0, 7) }, { ...row, product_id: 0 }];
  }
  return [row];
}

async function add(trx: Db, table: Table, given: Row[], recompute = false): Promise<void> {
  const rows = given.flatMap((row) => grains(table, row));
  const changes = pending.get(trx);
  if (!changes) {
    const merged = new Map<string, Change>();
    for (const row of rows) gather(merged, table, row, recompute);
    await write(trx, [...merged.values()]);
    return;
  }
  for (const row of rows) gather(changes, table, row, recompute);
}

function gather(into: Map<string, Change>, table: Table, row: Row, recompute: boolean) {
  const key = `${table}|${keys[table].map((k) => String(row[k]).padStart(12, '0')).join('|')}`;
  const there = into.get(key);
  if (there) {
    merge(there.row, row, table);
    there.recompute ||= recompute;
  } else into.set(key, { table, row: { ...row }, recompute });
}

/** The instants of a local day (YYYY-MM-DD) or month (YYYY-MM): [start, end) in UTC ISO text. */
function span(day: string): [string, string] {
  const first = day.length === 7 ? `${day}-01` : day;
  const last = day.length === 7 ? lastDayOf(day) : day;
  return [new Date(`${first}T00:00:00+07:00`).toISOString(), new Date(`${nextDay(last)}T00:00:00+07:00`).toISOString()];
}

function upserts(trx: Db, changes: Change[]): CompiledQuery[] {
  const upserts: CompiledQuery[] = [];
  for (const table of Object.keys(keys) as Table[]) {
    const rows = changes
      .filter((c) => c.table === table)
      .map((c) => c.row)
      .filter((r) => sums[table].some((k) => Number(r[k]) !== 0) || table === 'daily_stock');
    for (let i = 0; i < rows.length; i += 50) {
      const set: Record<string, RawBuilder<unknown>> = Object.fromEntries(
        sums[table].map((k) => [k, sql`${sql.ref(`${table}.${k}`)} + excluded.${sql.ref(k)}`]),
      );
      if (table === 'daily_stock' || table === 'daily_customers') {
        const was = sql.ref(`${table}.last_at`);
        set.last_at = sql`case when excluded.last_at is null then ${was}
          when ${was} is null or excluded.last_at > ${was} then excluded.last_at else ${was} end`;
      }
      upserts.push(
        (trx as unknown as Kysely<Record<string, Row>>)
          .insertInto(table)
          .values(rows.slice(i, i + 50))
          .onConflict((oc) => oc.columns(keys[table]).doUpdateSet(set as never))
          .compile(),
      );
    }
  }
  return upserts;
}

async function write(trx: Db, changes: Change[]): Promise<void> {
  // PostgreSQL: the upserts of all tables in one statement, in this order; SQLite: one after the other
  await runTogether(
    trx,
    upserts(trx, changes).map((query) => ({ query })),
  );
  // a voided sale may have been the customer's last of the day (or month) in that store
  for (const r of changes.filter((c) => c.table === 'daily_customers' && c.recompute).map((c) => c.row)) {
    const [start, end] = span(String(r.day));
    await sql`update daily_customers set last_at = (
        select max(o.order_date) from orders o
        where o.customer_id = ${r.customer_id} and o.store_id = ${r.store_id} and o.status = 'confirmed'
          and o.deleted_at is null and o.order_date >= ${start} and o.order_date < ${end})
      where day = ${r.day} and store_id = ${r.store_id} and customer_id = ${r.customer_id}`.execute(trx);
  }
}

/** A ledger movement (modules/stock/ledger.ts, its one writer). */
export function tallyMovement(
  trx: Db,
  m: {
    at: string;
    storeId: number;
    productId: number;
    type: string;
    ofOrder: boolean;
    quantity: number;
    valueCents: number;
  },
): Promise<void> {
  return add(trx, 'daily_stock', [
    {
      day: localDayOf(m.at),
      store_id: m.storeId,
      product_id: m.productId,
      type: m.type,
      of_order: m.ofOrder ? 1 : 0,
      quantity: m.quantity,
      value_cents: m.valueCents,
      last_at: isoOf(m.at),
    },
  ]);
}

/** The order's and lines' columns a sale's rollups add up. */
export interface Tallied {
  order: {
    order_date: string | Date;
    store_id: number;
    cashier_id: number | null;
    subtotal_cents: number | string;
    discount_cents: number | string;
    tax_cents: number | string;
    total_cents: number | string;
    change_given_cents: number | string;
    change_given_khr: number | string;
    customer_id: number;
    paid_cents: number | string;
  };
  lines: {
    kind: string;
    product_id: number | null;
    combo_id: number | null;
    quantity: number;
    returned_quantity: number;
    unit_price_cents: number | string;
    line_discount_cents: number | string;
    order_discount_cents: number | string;
    net_cents: number | string;
    tax_cents: number | string;
  }[];
}

/**
 * A confirmed order and its lines, counted in (`sign` 1: sold) or out (-1: voided): as `known` (a
 * sale: the rows it has just written, not read back), or as read.
 */
export async function tallyOrder(trx: Db, orderId: number, sign: 1 | -1, known?: Tallied): Promise<void> {
  const { order: o, lines } = known ?? (await readTallied(trx, orderId));
  const day = localDayOf(o.order_date);
  await tallyOf(trx, sign, o, lines, day);
}

async function readTallied(trx: Db, orderId: number): Promise<Tallied> {
  const order = await trx
    .selectFrom('orders')
    .select([
      'order_date',
      'store_id',
      'cashier_id',
      'subtotal_cents',
      'discount_cents',
      'tax_cents',
      'total_cents',
      'change_given_cents',
      'change_given_khr',
      'customer_id',
      'paid_cents',
    ])
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();
  const lines = await trx
    .selectFrom('order_items')
    .select([
      'kind',
      'product_id',
      'combo_id',
      'quantity',
      'returned_quantity',
      'unit_price_cents',
      'line_discount_cents',
      'order_discount_cents',
      'net_cents',
      'tax_cents',
    ])
    .where('order_id', '=', orderId)
    .execute();
  return { order, lines };
}

async function tallyOf(trx: Db, sign: 1 | -1, o: Tallied['order'], lines: Tallied['lines'], day: string) {
  await add(trx, 'daily_orders', [
    {
      day,
      hour: localHourOf(o.order_date),
      store_id: o.store_id,
      cashier_id: o.cashier_id ?? 0,
      orders: sign,
      gross_cents: sign * Number(o.subtotal_cents),
      discount_cents: sign * Number(o.discount_cents),
      tax_cents: sign * Number(o.tax_cents),
      total_cents: sign * Number(o.total_cents),
      // the change as it was handed back: what left each drawer (pricing.ts changeGiven)
      change_cents: sign * Number(o.change_given_cents),
      change_khr: sign * Number(o.change_given_khr),
    },
  ]);
  await add(
    trx,
    'daily_customers',
    [
      {
        day,
        store_id: o.store_id,
        customer_id: o.customer_id,
        orders: sign,
        net_cents: sign * (Number(o.subtotal_cents) - Number(o.discount_cents)),
        due_cents: sign * (Number(o.total_cents) - Number(o.paid_cents)),
        last_at: sign > 0 ? isoOf(o.order_date) : null,
      },
    ],
    sign < 0,
  );
  await add(
    trx,
    'daily_sales',
    lines.map((l) => ({
      ...lineKey(day, o.store_id, l),
      quantity: sign * l.quantity,
      returned_quantity: sign * l.returned_quantity,
      // gross as priced (contracts `lineGross`): what is left after the discounts, plus them
      gross_cents: sign * (Number(l.net_cents) + Number(l.line_discount_cents) + Number(l.order_discount_cents)),
      discount_cents: sign * (Number(l.line_discount_cents) + Number(l.order_discount_cents)),
      net_cents: sign * Number(l.net_cents),
      tax_cents: sign * Number(l.tax_cents),
    })),
  );
}

/** A line's daily_sales row as the rollups key it: its day, store, kind, and product or combo. */
function lineKey(
  day: string,
  storeId: number,
  l: { kind: string; product_id: number | null; combo_id: number | null },
) {
  return { day, store_id: storeId, kind: l.kind, item_id: Number(l.product_id ?? l.combo_id) };
}

/** An order's row as the rollups key it: its day, store, cashier, customer and status. */
export type SaleKeys = Pick<
  Selectable<OrdersTable>,
  'order_date' | 'store_id' | 'cashier_id' | 'customer_id' | 'status'
>;

/** The order's row as the rollups key it (read, unless the caller has it already). */
async function saleOf(trx: Db, orderId: number, known?: SaleKeys): Promise<SaleKeys> {
  if (known) return known;
  const o = await trx
    .selectFrom('orders')
    .select(['order_date', 'store_id', 'cashier_id', 'customer_id', 'status'])
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();
  return o;
}

/** A confirmed order's payment settled: its change given back and what it has paid moved from `before` to `after`. */
export async function tallyPaid(
  trx: Db,
  orderId: number,
  before: { change_cents: number; change_khr: number; paid_cents: number },
  after: { change_cents: number; change_khr: number; paid_cents: number },
  known?: SaleKeys,
): Promise<void> {
  const o = await saleOf(trx, orderId, known);
  if (o.status !== 'confirmed') return;
  await add(trx, 'daily_orders', [
    {
      day: localDayOf(o.order_date),
      hour: localHourOf(o.order_date),
      store_id: o.store_id,
      cashier_id: o.cashier_id ?? 0,
      orders: 0,
      gross_cents: 0,
      discount_cents: 0,
      tax_cents: 0,
      total_cents: 0,
      change_cents: Number(after.change_cents) - Number(before.change_cents),
      change_khr: Number(after.change_khr) - Number(before.change_khr),
    },
  ]);
  await add(trx, 'daily_customers', [
    {
      day: localDayOf(o.order_date),
      store_id: o.store_id,
      customer_id: o.customer_id,
      orders: 0,
      net_cents: 0,
      due_cents: Number(before.paid_cents) - Number(after.paid_cents),
      last_at: null,
    },
  ]);
}

/** Units of a confirmed order's lines given back (a return): counted on the order's day, as the lines are. */
export async function tallyReturned(
  trx: Db,
  orderId: number,
  lines: { kind: string; product_id: number | null; combo_id: number | null; units: number }[],
): Promise<void> {
  const o = await saleOf(trx, orderId);
  if (o.status !== 'confirmed') return;
  const day = localDayOf(o.order_date);
  await add(
    trx,
    'daily_sales',
    lines.map((l) => ({
      ...lineKey(day, o.store_id, l),
      quantity: 0,
      returned_quantity: l.units,
      gross_cents: 0,
      discount_cents: 0,
      net_cents: 0,
      tax_cents: 0,
    })),
  );
}

/** Payments or refunds of an order, on their own day. */
export async function tallyPayments(
  trx: Db,
  orderId: number,
  payments: { kind: string; method: string; amount: number; amount_cents: number; created_at: string }[],
  known?: SaleKeys,
): Promise<void> {
  if (!payments.length) return;
  const o = await saleOf(trx, orderId, known);
  await add(
    trx,
    'daily_payments',
    payments.map((p) => ({
      day: localDayOf(p.created_at),
      store_id: o.store_id,
      cashier_id: o.cashier_id ?? 0,
      method: p.method,
      kind: p.kind,
      payments: 1,
      amount: Number(p.amount),
      amount_cents: Number(p.amount_cents),
    })),
  );
}
