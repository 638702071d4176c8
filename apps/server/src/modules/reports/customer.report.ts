import { addDays, type Report, type ReportQuery } from '@depot/contracts';
import type { Actor } from '../../policies/policy.ts';
import { count, fig, frame, money, type ReportContext, type Rows, text } from './reports.frame.ts';

/** The customer report: who bought, their spend and what they owe, the top customers, the lapsed ones. */
export async function customerReport(c: ReportContext, actor: Actor, q: ReportQuery): Promise<Report> {
  const { repo } = c;
  const { f, compare, prev, range, base, series } = await frame(c, actor, 'customer', q);
  const [top, prevTop, days, prevDays, due, lapsed] = await Promise.all([
    repo.customers(actor, range, f, 100_000),
    compare ? repo.customers(actor, prev, f, 100_000) : Promise.resolve(null),
    repo.customerDays(actor, range, f),
    compare ? repo.customerDays(actor, prev, f) : Promise.resolve(null),
    repo.customersDue(actor, f),
    repo.lapsed(actor, range, f),
  ]);
  const spend = (rows: typeof top) => rows.reduce((a, r) => a + Number((r as Record<string, unknown>).net_cents), 0);
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
  const since = (iso: string | null) => (iso ? Math.max(0, Math.floor((end - Date.parse(iso)) / 86_400_000)) : null);
  return {
    ...base,
    summary,
    series: series(['customers'], days, prevDays),
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
        rows: top.slice(0, 100).map((r) => ({ ...r, days_since: since(r.last_order as string) })) as Rows,
      },
      {
        key: 'customers_due',
        columns: [text('name'), text('phone'), count('orders'), money('due_cents')],
        rows: due as Rows,
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
        rows: lapsed.map((r) => ({ ...r, days_since: since(r.last_order as string) })) as Rows,
      },
    ],
  };
}
