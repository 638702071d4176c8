import type { Report, ReportQuery } from '@depot/contracts';
import type { Actor } from '../../policies/policy.ts';
import {
  compared,
  count,
  frame,
  methodRows,
  money,
  type ReportContext,
  type Rows,
  riel,
  salesOfPeriods,
  text,
} from './reports.frame.ts';

/** The sales report: net sales, orders and basket against the previous period; by product, category, brand, cashier, store, payment, hour; combos' items. */
export async function salesReport(c: ReportContext, actor: Actor, q: ReportQuery): Promise<Report> {
  const { repo } = c;
  const fr = await frame(c, actor, 'sales', q);
  const { f, costs, range, base, rielRates, series } = fr;
  const [[now_, before], byProduct, byCategory, byBrand, byCashier, byStore, byPayment, byHour, combos] =
    await Promise.all([
      salesOfPeriods(c, actor, fr),
      repo.byProduct(actor, range, f),
      repo.byGroup(actor, range, f, 'category'),
      repo.byGroup(actor, range, f, 'brand'),
      repo.byOrderColumn(actor, range, f, 'cashier'),
      repo.byOrderColumn(actor, range, f, 'store'),
      repo.byPayment(actor, range, f),
      repo.byHour(actor, range, f),
      repo.comboItems(actor, range, f),
    ]);
  const { figure, netKhr } = compared(now_, before, rielRates);
  const summary = [
    figure('net_cents', 'money'),
    netKhr,
    figure('orders', 'count'),
    figure('average_cents', 'money'),
    figure('gross_cents', 'money'),
    figure('discount_cents', 'money'),
    figure('returns_cents', 'money'),
    figure('tax_cents', 'money'),
    figure('total_cents', 'money'),
    ...(costs ? [figure('profit_cents', 'money'), figure('margin', 'percent')] : []),
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
  const orderCols = [
    text('name'),
    count('orders'),
    money('gross_cents'),
    money('discount_cents'),
    money('net_cents'),
    money('tax_cents'),
  ];
  const named = (rows: Record<string, unknown>[]) =>
    rows.map((r) => ({ ...r, name: r.name_en ?? null, name_kh: r.name_kh ?? null })) as Rows;
  return {
    ...base,
    summary,
    series: series(keys, now_.days, before?.days ?? null),
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
        columns: orderCols,
        rows: byCashier as Rows,
      },
      {
        key: 'by_store',
        columns: orderCols,
        rows: byStore as Rows,
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
}
