import { z } from 'zod';
import { roleSummary, storeSummary } from './auth.ts';

/**
 * Reports and dashboards: read from the orders, their payments and returns, the stock
 * ledger and the purchases as they are: no summary table that could go stale. Every report has the
 * same shape, so one page, one chart, one workbook and one PDF serve them all: headline figures
 * (with the previous period's), a series by day / week / month for the chart, and tables
 * (sections). Money is integer US cents (`money`) or whole riel (`riel`); a label is the message
 * `report.field.<key>` (Khmer and English, the server's exports and the web read the same).
 */
export const REPORTS = ['sales', 'inventory', 'financial', 'customer'] as const;
export type ReportName = (typeof REPORTS)[number];

export const REPORT_GROUPS = ['day', 'week', 'month'] as const;
export type ReportGroup = (typeof REPORT_GROUPS)[number];

/** The longest range a report covers: two years of days. */
export const REPORT_MAX_DAYS = 732;

const optionalId = z.coerce.number().int().min(1).optional();

const reportFields = z.object({
  from: z.iso.date(),
  to: z.iso.date(),
  store_id: optionalId,
  group: z.enum(REPORT_GROUPS).default('day'),
  /** With the previous period of the same length (default). */
  compare: z.enum(['true', 'false']).default('true'),
  category_id: optionalId,
  brand_id: optionalId,
  cashier_id: optionalId,
  customer_id: optionalId,
});

function rangeRule(q: { from: string; to: string }, ctx: z.RefinementCtx) {
  if (q.to < q.from) ctx.addIssue({ code: 'custom', path: ['to'], params: { message: 'report.range_order' } });
  else if (daysBetween(q.from, q.to) + 1 > REPORT_MAX_DAYS)
    ctx.addIssue({ code: 'custom', path: ['to'], params: { message: 'report.range_long' } });
}

export const reportQuery = reportFields.superRefine(rangeRule);
export type ReportQuery = z.output<typeof reportQuery>;

export const reportExportQuery = reportFields
  .extend({ format: z.enum(['xlsx', 'pdf']).default('xlsx') })
  .superRefine(rangeRule);

export const FIGURE_KINDS = ['money', 'riel', 'count', 'percent', 'text', 'date', 'rate'] as const;
export type FigureKind = (typeof FIGURE_KINDS)[number];

const figure = z.object({
  key: z.string(),
  kind: z.enum(FIGURE_KINDS),
  value: z.number().nullable(),
  previous: z.number().nullable(),
  /** The report or list behind it (a screen path with its query). */
  link: z.string().optional(),
});
export type ReportFigure = z.infer<typeof figure>;

// a blank cell is a null string: OpenAPI 3.0 has no null type, and its `nullable` needs a `type` beside it
const cell = z.union([z.string().nullable(), z.number()]);
const section = z.object({
  key: z.string(),
  columns: z.array(z.object({ key: z.string(), kind: z.enum(FIGURE_KINDS) })),
  rows: z.array(z.record(z.string(), cell)),
});
export type ReportSection = z.infer<typeof section>;

const series = z.object({
  /** What each point carries (money unless `kinds` says otherwise). */
  keys: z.array(z.string()),
  points: z.array(z.object({ bucket: z.string(), values: z.record(z.string(), z.number()) })),
  previous: z.array(z.object({ bucket: z.string(), values: z.record(z.string(), z.number()) })).nullable(),
});

export const report = z.object({
  report: z.string(),
  from: z.string(),
  to: z.string(),
  previous_from: z.string().nullable(),
  previous_to: z.string().nullable(),
  group: z.enum(REPORT_GROUPS),
  store_id: z.number().int().nullable(),
  /** Cost, margin and stock values are in it (the user holds costs.view). */
  costs: z.boolean(),
  rate: z.object({ rate_khr: z.number().int(), khr_step: z.number().int() }),
  summary: z.array(figure),
  series,
  sections: z.array(section),
  generated_at: z.string(),
});
export type Report = z.infer<typeof report>;
export const reportResponse = z.object({ data: report });

/** An administrator's part of the dashboard (audit.list): users, sign-ins, connections, the latest audit entries. */
export const adminDashboard = z.object({
  figures: z.array(figure),
  recent: z.array(
    z.object({ id: z.number().int(), action: z.string(), user_name: z.string().nullable(), created_at: z.string() }),
  ),
  database: z.object({ kind: z.enum(['sqlite', 'postgres']), migration: z.string().nullable() }),
});
export type AdminDashboard = z.infer<typeof adminDashboard>;

/**
 * GET /api/dashboard: a manager's (today and this week against the periods before, from the same
 * queries as the reports) or, for a user without reports.view, their own sales of today only.
 */
export const dashboardResponse = z.object({
  data: z.object({
    /** Who is signed in, their store and roles (the greeting). */
    user: z.object({ id: z.number().int(), name: z.string(), full_name: z.string().nullable() }),
    store: storeSummary.nullable(),
    roles: z.array(roleSummary),
    kind: z.enum(['manager', 'cashier']),
    today: z.string(),
    costs: z.boolean(),
    rate: z.object({ rate_khr: z.number().int(), khr_step: z.number().int() }),
    /** Today against yesterday. */
    today_figures: z.array(figure),
    /** This week (Monday on) against the week before; absent for a cashier. */
    week_figures: z.array(figure).nullable(),
    by_hour: z.array(z.object({ hour: z.number().int(), net_cents: z.number(), orders: z.number().int() })),
    sections: z.array(section),
    /** Things waiting (low stock, expiring batches, purchases due, unpaid orders, deliveries, shifts open overnight). */
    alerts: z.array(figure),
    /** A cashier's open shift: their "today" is the shift (its sales since it opened). */
    shift: z
      .object({
        id: z.number().int(),
        number: z.string(),
        till: z.string(),
        opened_at: z.string(),
        overnight: z.boolean(),
      })
      .nullable()
      .optional(),
    /** For an administrator (audit.list), whatever else they see. */
    admin: adminDashboard.nullable().optional(),
  }),
});
export type Dashboard = z.infer<typeof dashboardResponse>['data'];

/** Whole days from `a` to `b` (dates `YYYY-MM-DD`). */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

/** The date `n` days after `day` (before, for a negative `n`). */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/** The bucket a day falls in: itself, the Monday of its week, or the first of its month. */
export function bucketOf(day: string, group: ReportGroup): string {
  if (group === 'month') return `${day.slice(0, 7)}-01`;
  if (group === 'week') {
    const weekday = (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday 0
    return addDays(day, -weekday);
  }
  return day;
}

/** The presets of a report's range, for a given today (Cambodia's). */
export function reportPresets(
  today: string,
): Record<'today' | 'yesterday' | 'week' | 'month' | 'last_month', [string, string]> {
  const monthStart = `${today.slice(0, 7)}-01`;
  const lastMonthEnd = addDays(monthStart, -1);
  return {
    today: [today, today],
    yesterday: [addDays(today, -1), addDays(today, -1)],
    week: [bucketOf(today, 'week'), today],
    month: [monthStart, today],
    last_month: [`${lastMonthEnd.slice(0, 7)}-01`, lastMonthEnd],
  };
}
