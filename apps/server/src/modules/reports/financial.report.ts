import type { Report, ReportQuery } from '@depot/contracts';
import type { Actor } from '../../policies/policy.ts';
import {
  cashOf,
  compared,
  count,
  dollars,
  fig,
  frame,
  methodRows,
  money,
  type ReportContext,
  type Rows,
  riel,
  salesOfPeriods,
  text,
} from './reports.frame.ts';

/**
 * The financial report: net sales, tax and what customers owe; with costs.view the cost of goods,
 * profit, margin, purchases and what is owed to suppliers. Cash per currency, payments, rates used.
 */
export async function financialReport(c: ReportContext, actor: Actor, q: ReportQuery): Promise<Report> {
  const { repo } = c;
  const fr = await frame(c, actor, 'financial', q);
  const { f, costs, compare, prev, range, base, rielRates, series } = fr;
  const [[now_, before], payments, change, rates, purchases, prevPurchases, supplierPaid, suppliersDue, customersDue] =
    await Promise.all([
      salesOfPeriods(c, actor, fr),
      repo.byPayment(actor, range, f),
      repo.change(actor, range, f),
      repo.rates(actor, range, f),
      costs ? repo.purchases(actor, range, f) : Promise.resolve(null),
      costs && compare ? repo.purchases(actor, prev, f) : Promise.resolve(null),
      costs ? repo.supplierPaid(actor, range, f) : Promise.resolve(null),
      costs ? repo.suppliersDue(actor, f) : Promise.resolve([]),
      repo.customersDue(actor, f),
    ]);
  const { figure, netKhr } = compared(now_, before, rielRates);
  const customerDue = customersDue.reduce((a, r) => a + Number(r.due_cents), 0);
  const supplierDue = suppliersDue.reduce((a, r) => a + Number(r.due_cents), 0);
  const cash = cashOf(payments);
  /** A currency's cash received, given as change and refunded, as figures and as text. */
  const cashRow = (code: 'usd' | 'khr', unit: 'cents' | 'khr', change: number, show: (n: number) => string) => {
    const [received, refunded] = [cash(`cash_${code}`, 'payment'), cash(`cash_${code}`, 'refund')];
    return {
      currency: `report.value.${code}`,
      code,
      [`received_${unit}`]: received,
      [`change_${unit}`]: change,
      [`refunded_${unit}`]: refunded,
      received_amount: show(received),
      change_amount: show(change),
      refunded_amount: show(refunded),
    };
  };
  const summary = [
    figure('net_cents', 'money'),
    netKhr,
    ...(costs ? [figure('cogs_cents', 'money'), figure('profit_cents', 'money'), figure('margin', 'percent')] : []),
    figure('tax_cents', 'money'),
    ...(costs && purchases
      ? [
          fig('purchases_cents', 'money', purchases.purchases_cents, prevPurchases?.purchases_cents ?? null),
          fig('landed_cents', 'money', purchases.landed_cents, prevPurchases?.landed_cents ?? null),
          fig('purchase_tax_cents', 'money', purchases.purchase_tax_cents, prevPurchases?.purchase_tax_cents ?? null),
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
    series: series(keys, now_.days, before?.days ?? null),
    sections: [
      {
        key: 'cash',
        columns: [
          text('currency'),
          { key: 'received_amount', kind: 'text' },
          { key: 'change_amount', kind: 'text' },
          { key: 'refunded_amount', kind: 'text' },
        ],
        rows: [cashRow('usd', 'cents', change.change_cents, dollars), cashRow('khr', 'khr', change.change_khr, riel)],
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
              rows: suppliersDue as Rows,
            },
          ]
        : []),
      {
        key: 'customers_due',
        columns: [text('name'), text('phone'), count('orders'), money('due_cents')],
        rows: customersDue as Rows,
      },
    ],
  };
}
