import {
  type CashCurrency,
  formatDateTime,
  formatKhr,
  formatUsd,
  type Locale,
  type MessageKey,
  messages,
  type PublicSettings,
  type ShiftDetail,
  titleOf,
  translate,
} from '@depot/contracts';
import { escapeHtml } from '../../kit/html.ts';
import { fontFaces, printPdf } from '../../kit/pdf.ts';
import { colon } from '../credit/credit.pdf.ts';

const t = (key: MessageKey, locale: Locale) => escapeHtml(translate(key, locale));
// Figures and times in Latin digits (contracts format.ts): the PDF is converted to the request's
// numerals when printed (kit/pdf.ts `numerals`).
const money = (currency: CashCurrency, value: number) =>
  currency === 'usd' ? formatUsd(value, 'latin') : formatKhr(value, 'latin');
/** 12 មីនា 2026 14:05: an instant on the depots' clock. */
const whenOf = (at: string, locale: Locale) => formatDateTime(at, locale, { numerals: 'latin' });
const minus = (currency: CashCurrency, value: number) =>
  value > 0 ? `−${money(currency, value)}` : money(currency, value);
const signed = (currency: CashCurrency, value: number) =>
  value < 0 ? `−${money(currency, -value)}` : value > 0 ? `+${money(currency, value)}` : money(currency, value);
const method = (m: string, locale: Locale) => {
  const key = `report.method.${m}`;
  return key in messages ? t(key as MessageKey, locale) : escapeHtml(m);
};

/**
 * The X report (a shift still open) or the Z report (closed: the count, the difference, the
 * signature) as a printable A4 page in the reader's language. The detail is the one the reader
 * may see: a blind close's figures arrive as null and are left out, as on the roll.
 */
export async function shiftReportHtml(
  shift: ShiftDetail,
  settings: Pick<PublicSettings, 'system_title' | 'system_title_kh'>,
  locale: Locale,
  printedAt: string,
): Promise<string> {
  const z = shift.status === 'closed';
  const row = (key: MessageKey, value: string, strong = false) =>
    `<tr${strong ? ' class="sum"' : ''}><td>${t(key, locale)}</td><td class="n">${value}</td></tr>`;
  // a figure a blind close hides (null) is left out
  const opt = (key: MessageKey, value: number | null, show: (n: number) => string) =>
    value === null ? '' : row(key, show(value));
  const drawer = (currency: CashCurrency) => {
    const d = shift[currency];
    return `<table class="drawer"><thead><tr><th colspan="2">${t(`shift.pdf.${currency}`, locale)}</th></tr></thead><tbody>
${opt('shift.pdf.float', d.float, (n) => money(currency, n))}
${opt('shift.pdf.cash_in', d.cash_in, (n) => money(currency, n))}
${opt('shift.pdf.change_out', d.change_out, (n) => minus(currency, n))}
${d.refunds !== null && d.refunds > 0 ? row('shift.pdf.refunds', minus(currency, d.refunds)) : ''}
${opt('shift.pdf.pay_ins', d.pay_ins, (n) => money(currency, n))}
${opt('shift.pdf.pay_outs', d.pay_outs, (n) => minus(currency, n))}
${d.expected !== null ? row('shift.pdf.expected', money(currency, d.expected), true) : ''}
${d.counted !== null ? row('shift.pdf.counted', money(currency, d.counted)) : ''}
${d.difference !== null && d.counted !== null ? row('shift.pdf.difference', signed(currency, d.difference), true) : ''}
</tbody></table>`;
  };
  const meta: [MessageKey, string][] = [
    ['shift.pdf.number', shift.number],
    ['shift.pdf.store', shift.store_name],
    ['shift.pdf.till', shift.till],
    ['shift.pdf.cashier', shift.user_name ?? '—'],
    ['shift.pdf.opened', whenOf(shift.opened_at, locale)],
    ...(shift.closed_at ? [['shift.pdf.closed', whenOf(shift.closed_at, locale)] as [MessageKey, string]] : []),
    ['shift.pdf.printed', whenOf(printedAt, locale)],
    ...(shift.approved_by_name ? [['shift.pdf.approved_by', shift.approved_by_name] as [MessageKey, string]] : []),
  ];
  const payments = shift.payments
    .map(
      (p) =>
        `<tr><td>${method(p.method, locale)}</td><td class="n">${money(p.method === 'cash_khr' ? 'khr' : 'usd', p.amount)}</td></tr>`,
    )
    .join('');
  const movements = shift.movements
    .map(
      (m) =>
        `<tr><td>${escapeHtml(whenOf(m.created_at, locale))}</td><td>${t(m.kind === 'pay_in' ? 'shift.pdf.pay_in' : 'shift.pdf.pay_out', locale)}</td><td>${escapeHtml(m.reason)}</td><td>${escapeHtml(m.created_by_name ?? '—')}</td><td class="n">${m.amount === null ? '—' : `${m.kind === 'pay_out' ? '−' : ''}${money(m.currency, m.amount)}`}</td></tr>`,
    )
    .join('');
  return `<!doctype html><html lang="${locale === 'kh' ? 'km' : 'en'}"><head><meta charset="utf-8"><style>
${await fontFaces('Kantumruy Pro')}
body{font-family:'Kantumruy Pro',sans-serif;font-size:10pt;color:#111;margin:0}
.shop{font-size:12pt;font-weight:700}h1{font-size:16pt;margin:2pt 0 8pt}h2{font-size:11pt;margin:10pt 0 4pt}
table{border-collapse:collapse;width:100%}tr{page-break-inside:avoid}
th,td{border:0.5pt solid #999;padding:2pt 4pt;text-align:left}th{background:#eee}
td.n{text-align:right;white-space:nowrap}.sum td{font-weight:700}
.meta{width:60%}.cols{display:flex;gap:12pt}.cols>*{flex:1}
.sign{margin-top:36pt;display:flex;gap:48pt}.sign div{flex:1;border-top:0.5pt solid #111;padding-top:2pt}
</style></head><body>
<div class="shop">${escapeHtml(titleOf(settings, locale))}</div>
<h1>${t(z ? 'shift.pdf.z' : 'shift.pdf.x', locale)}</h1>
<table class="meta"><tbody>${meta.map(([k, v]) => `<tr><td>${t(k, locale)}</td><td>${escapeHtml(v)}</td></tr>`).join('')}</tbody></table>
<h2>${t('shift.pdf.sales', locale)}${colon(locale)} ${shift.orders_count}${shift.sales_cents === null ? '' : ` · ${t('shift.pdf.sales_total', locale)}${colon(locale)} ${formatUsd(shift.sales_cents, 'latin')}`}</h2>
${payments ? `<table class="meta"><thead><tr><th colspan="2">${t('shift.pdf.payments', locale)}</th></tr></thead><tbody>${payments}</tbody></table>` : ''}
<div class="cols" style="margin-top:10pt">${drawer('usd')}${drawer('khr')}</div>
${
  movements
    ? `<h2>${t('shift.pdf.movements', locale)}</h2><table><thead><tr><th>${t('shift.pdf.when', locale)}</th><th></th><th>${t('shift.pdf.reason', locale)}</th><th>${t('shift.pdf.by', locale)}</th><th>${t('shift.pdf.amount', locale)}</th></tr></thead><tbody>${movements}</tbody></table>`
    : ''
}
${z ? `<div class="sign"><div>${t('shift.pdf.cashier', locale)} · ${t('shift.pdf.signature', locale)}</div><div>${t('shift.pdf.approved_by', locale)} · ${t('shift.pdf.signature', locale)}</div></div>` : ''}
</body></html>`;
}

/** The X / Z report as an A4 PDF (kit/pdf.ts: Chromium shapes the Khmer). */
export async function shiftReportPdf(
  shift: ShiftDetail,
  settings: Pick<PublicSettings, 'system_title' | 'system_title_kh'>,
  locale: Locale,
  printedAt: string,
): Promise<Buffer> {
  return printPdf(await shiftReportHtml(shift, settings, locale, printedAt), {
    unavailable: 'shift.pdf_unavailable',
    margin: { top: '12mm', bottom: '12mm', left: '12mm', right: '12mm' },
  });
}
