import {
  formatKhr,
  formatUsd,
  type ReportFigure,
  type ReportGroup,
  type ReportName,
  type ReportQuery,
  type ReportSection,
  rielOf,
} from '@depot/contracts';
import type { Db } from '../../db/database.ts';
import { now } from '../../db/database.ts';
import { type Actor, assertStoreInput, can } from '../../policies/policy.ts';
import { currentRates } from '../rates/rates.service.ts';
import { type Filter, type Range, type ReportsRepository, reportsRepository } from './reports.repository.ts';
import { basisPoints, previousRange, rollUp } from './reports.sql.ts';

/**
 * What every report is put together from (one file per report: sales.report.ts, financial,
 * inventory, customer, dashboard): the repository's queries, the frame of its answer (contracts'
 * `Report`), the period's sales figures, the columns and figures, the payments' rows.
 */
export interface ReportContext {
  db: Db;
  repo: ReportsRepository;
}

export const reportContext = (db: Db): ReportContext => ({ db, repo: reportsRepository(db) });

type Day = { day: string; values: Record<string, number> };
type Col = ReportSection['columns'][number];
/** A report table's rows as the contracts have them. */
export type Rows = Record<string, string | number | null>[];

export const money = (key: string): Col => ({ key, kind: 'money' });
export const count = (key: string): Col => ({ key, kind: 'count' });
export const text = (key: string): Col => ({ key, kind: 'text' });

export function fig(
  key: string,
  kind: ReportFigure['kind'],
  value: number | null,
  previous: number | null,
): ReportFigure {
  return { key, kind, value, previous };
}

// figures written into a report's text cells, in Latin digits as every report cell (reports.export.ts)
export const dollars = (cents: number): string => formatUsd(cents, 'latin');
export const riel = (amount: number): string => formatKhr(amount, 'latin');

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

const SALES_SUMS = [
  'orders',
  'gross_cents',
  'discount_cents',
  'tax_cents',
  'total_cents',
  'returns_cents',
  'cogs_cents',
];

/**
 * The period's sales figures by day and their sums (and the cost of goods with costs.view: what a
 * user without it may not see is never computed into their answer).
 */
export async function salesFigures(repo: ReportsRepository, actor: Actor, range: Range, f: Filter, costs: boolean) {
  const [sales, returns, cogs] = await Promise.all([
    repo.salesDays(actor, range, f),
    repo.returnsDays(actor, range, f),
    costs ? repo.cogsDays(actor, range, f) : Promise.resolve([]),
  ]);
  const zero = Object.fromEntries(SALES_SUMS.map((k) => [k, 0]));
  const days = merge(sales, returns, cogs).map((d) => ({ day: d.day, values: derive({ ...zero, ...d.values }) }));
  return { days, sums: derive(total(days, SALES_SUMS)) };
}

export type SalesFigures = Awaited<ReturnType<typeof salesFigures>>;

/**
 * The sums of several periods' sales figures (the dashboard's day, yesterday, week and last week),
 * as `salesFigures(...).sums` of each: the same day rows, read once over the span of them all
 * (three queries, not three a period).
 */
export async function salesSumsOf(repo: ReportsRepository, actor: Actor, ranges: Range[], f: Filter, costs: boolean) {
  const span = {
    from: ranges.reduce((a, r) => (r.from < a ? r.from : a), ranges[0].from),
    to: ranges.reduce((a, r) => (r.to > a ? r.to : a), ranges[0].to),
  };
  const { days } = await salesFigures(repo, actor, span, f, costs);
  return ranges.map((range) =>
    derive(
      total(
        days.filter((d) => d.day >= range.from && d.day <= range.to),
        SALES_SUMS,
      ),
    ),
  );
}

/** The period's sales figures, and the previous period's when compared (else null). */
export function salesOfPeriods(
  c: ReportContext,
  actor: Actor,
  { range, prev, f, costs, compare }: { range: Range; prev: Range; f: Filter; costs: boolean; compare: boolean },
) {
  return Promise.all([
    salesFigures(c.repo, actor, range, f, costs),
    compare ? salesFigures(c.repo, actor, prev, f, costs) : Promise.resolve(null),
  ]);
}

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

/** A report's series: day rows of the period (and of the previous one) rolled up into its buckets. */
function seriesOf(q: { from: string; to: string; group: ReportGroup }, prev: Range) {
  return (keys: string[], days: Day[], previous: Day[] | null) => ({
    keys,
    points: rollUp(days, q.from, q.to, q.group, keys),
    previous: previous ? rollUp(previous, prev.from, prev.to, q.group, keys) : null,
  });
}

/**
 * A report's start: its filter (a store outside the actor's refused), whether costs are shown,
 * the previous period when compared, the current rates, the answer's common part (`base`) and its
 * series (`series(keys, days, previousDays)`).
 */
export async function frame(c: ReportContext, actor: Actor, name: ReportName, q: ReportQuery) {
  const f = filterOf(actor, q);
  const costs = can(actor, 'costs.view');
  const compare = q.compare === 'true';
  const prev = previousRange(q.from, q.to);
  const rates = await currentRates(c.db);
  return {
    f,
    costs,
    compare,
    prev,
    range: { from: q.from, to: q.to },
    rielRates: rates,
    series: seriesOf(q, prev),
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

/**
 * The figures of the period's sales against the previous period's (null when not compared), and
 * its net sales in riel at the current rate.
 */
export function compared(now: SalesFigures, before: SalesFigures | null, rates: Parameters<typeof rielOf>[1]) {
  return {
    figure: (key: string, kind: ReportFigure['kind']) => fig(key, kind, now.sums[key], before?.sums[key] ?? null),
    netKhr: fig(
      'net_khr',
      'riel',
      rielOf(now.sums.net_cents, rates),
      before ? rielOf(before.sums.net_cents, rates) : null,
    ),
  };
}

type Payments = Awaited<ReturnType<ReportsRepository['byPayment']>>;

/** The payments and refunds per method as a table's rows (a refund's amount negative). */
export const methodRows = (rows: Payments): Rows =>
  rows.map((r) => ({
    method: `report.method.${r.kind === 'refund' ? 'refund' : r.method}`,
    currency: r.method === 'cash_khr' ? 'report.value.khr' : 'report.value.usd',
    orders: r.orders,
    amount: r.amount,
    amount_cents: r.kind === 'refund' ? -r.amount_cents : r.amount_cents,
    kind: r.kind,
    code: r.method,
  }));

/** The amount of cash of a method (cash_usd in cents, cash_khr in riel) paid or refunded. */
export const cashOf =
  (payments: Payments) =>
  (method: string, kind: string): number =>
    payments.filter((r) => r.method === method && r.kind === kind).reduce((a, r) => a + r.amount, 0);
