import { addDays, type Dashboard, type ReportFigure, type ReportSection, todayInCambodia } from '@depot/contracts';
import { type Actor, can } from '../../policies/policy.ts';
import { hidesDrawer } from '../../policies/shifts.ts';
import { saleRates } from '../rates/rates.service.ts';
import { readShiftSettings } from '../shifts/shifts.settings.ts';
import {
  cashOf,
  count,
  dollars,
  fig,
  methodRows,
  money,
  type ReportContext,
  riel,
  salesSumsOf,
  text,
} from './reports.frame.ts';
import type { Filter, Range } from './reports.repository.ts';

/**
 * A manager's dashboard (reports.view): today against yesterday, this week against the last;
 * anyone else's: their own sales of today (a cashier's open shift when there is one).
 */
export async function dashboard(c: ReportContext, actor: Actor): Promise<Omit<Dashboard, 'user' | 'store' | 'roles'>> {
  const { repo } = c;
  const manager = can(actor, 'reports.view');
  const costs = manager && can(actor, 'costs.view');
  const today = todayInCambodia();
  // a cashier's "today" is their open shift when there is one: its sales since it opened
  const shift = manager ? null : await repo.openShift(actor.userId);
  const f: Filter = manager ? {} : { cashierId: actor.userId, shiftId: shift?.id };
  const rates = await saleRates(c.db);
  const day = { from: shift ? todayInCambodia(new Date(shift.opened_at)) : today, to: today };
  const yesterday = { from: addDays(today, -1), to: addDays(today, -1) };
  const weekStart = addDays(today, -((new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7));
  const week = { from: weekStart, to: today };
  const lastWeek = { from: addDays(weekStart, -7), to: addDays(today, -7) };
  const [[t, y, w, lw], hours, payments, change, top, cats, waiting] = await Promise.all([
    salesSumsOf(repo, actor, manager ? [day, yesterday, week, lastWeek] : [day, yesterday], f, costs),
    repo.byHour(actor, day, f),
    repo.byPayment(actor, day, f),
    repo.change(actor, day, f),
    manager ? repo.byProduct(actor, week, f, 5) : Promise.resolve([]),
    manager ? repo.byGroup(actor, week, f, 'category') : Promise.resolve([]),
    manager ? repo.waiting(actor, today, addDays(today, 30)) : Promise.resolve(null),
  ]);
  const link = (from: string, to: string) => `/reports/sales?from=${from}&to=${to}`;
  const figures = (a: typeof t, b: typeof t, range: Range): ReportFigure[] => [
    { ...fig('net_cents', 'money', a.net_cents, b.net_cents), link: link(range.from, range.to) },
    {
      ...fig('orders', 'count', a.orders, b.orders),
      link: manager ? link(range.from, range.to) : '/orders',
    },
    {
      ...fig('average_cents', 'money', a.average_cents, b.average_cents),
      link: link(range.from, range.to),
    },
    ...(costs
      ? [
          {
            ...fig('profit_cents', 'money', a.profit_cents, b.profit_cents),
            link: `/reports/financial?from=${range.from}&to=${range.to}`,
          },
        ]
      : []),
  ];
  const cash = cashOf(payments);
  // a blind close: a cashier's open shift tells no cash received or change given until counted
  const blind = Boolean(shift) && hidesDrawer(actor, (await readShiftSettings(c.db)).blind_close);
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
}
