import {
  formatDate,
  formatUsd,
  type Locale,
  type MessageKey,
  type Numerals,
  type Statement,
  translate,
} from '@depot/contracts';
import { escapeHtml } from '../../kit/html.ts';
import { fontFaces, printPdf } from '../../kit/pdf.ts';

const t = (key: MessageKey, locale: Locale) => escapeHtml(translate(key, locale));
// in Latin digits: the PDF is converted to the request's numerals when printed (kit/pdf.ts)
const money = (cents: number) => escapeHtml(formatUsd(cents, 'latin'));
const dayOf = (day: string, locale: Locale) => formatDate(day, locale, { numerals: 'latin' });
/** Khmer writes its own colon (៖), English the Latin one. */
export const colon = (locale: Locale) => (locale === 'kh' ? '៖' : ':');

/** A statement as a printable page: the party, the period, opening balance, each document, closing balance. */
export async function statementHtml(s: Statement, locale: Locale): Promise<string> {
  const title = t(s.party.kind === 'customer' ? 'statement.customer' : 'statement.supplier', locale);
  const lines = s.lines
    .map(
      (l) =>
        `<tr><td>${escapeHtml(dayOf(l.at, locale))}</td><td>${t(`statement.kind.${l.kind}` as MessageKey, locale)}</td><td>${escapeHtml(l.number)}</td><td class="n">${l.debit_cents ? money(l.debit_cents) : ''}</td><td class="n">${l.credit_cents ? money(l.credit_cents) : ''}</td><td class="n">${money(l.balance_cents)}</td></tr>`,
    )
    .join('');
  const totals =
    s.party.kind === 'customer'
      ? [
          ['statement.sales', s.totals.sales_cents],
          ['statement.payments', s.totals.payments_cents],
          ['statement.returns', s.totals.returns_cents],
          ['statement.refunds', s.totals.refunds_cents],
        ]
      : [
          ['statement.purchases', s.totals.sales_cents],
          ['statement.payments', s.totals.payments_cents],
        ];
  return `<!doctype html><html lang="${locale === 'kh' ? 'km' : 'en'}"><head><meta charset="utf-8"><style>
${await fontFaces('Kantumruy Pro')}
body{font-family:'Kantumruy Pro',sans-serif;font-size:10pt;color:#111;margin:0}
h1{font-size:16pt;margin:0 0 4pt}.meta{color:#444;margin-bottom:8pt}
table{border-collapse:collapse;width:100%}tr{page-break-inside:avoid}
th,td{border:0.5pt solid #999;padding:2pt 4pt;text-align:left}th{background:#eee}
td.n{text-align:right;white-space:nowrap}.sum td{font-weight:700}
.totals{margin-top:8pt;width:50%}
</style></head><body>
<h1>${title}</h1>
<div class="meta">${escapeHtml(s.party.name)}${s.party.phone ? ` · ${escapeHtml(s.party.phone)}` : ''}${s.party.address ? ` · ${escapeHtml(s.party.address)}` : ''}<br>
${t('statement.period', locale)}${colon(locale)} ${escapeHtml(dayOf(s.from, locale))} – ${escapeHtml(dayOf(s.to, locale))}</div>
<table><thead><tr><th>${t('statement.date', locale)}</th><th></th><th>${t('statement.document', locale)}</th><th>${t('statement.debit', locale)}</th><th>${t('statement.credit', locale)}</th><th>${t('statement.balance', locale)}</th></tr></thead><tbody>
<tr class="sum"><td colspan="5">${t('statement.opening', locale)}</td><td class="n">${money(s.opening_cents)}</td></tr>
${lines || `<tr><td colspan="6">${t('statement.none', locale)}</td></tr>`}
<tr class="sum"><td colspan="5">${t('statement.closing', locale)}</td><td class="n">${money(s.closing_cents)}</td></tr>
</tbody></table>
<table class="totals"><tbody>${totals.map(([k, v]) => `<tr><td>${t(k as MessageKey, locale)}</td><td class="n">${money(v as number)}</td></tr>`).join('')}</tbody></table>
</body></html>`;
}

/** The statement as an A4 PDF (kit/pdf.ts: Chromium shapes the Khmer). */
export async function statementPdf(s: Statement, locale: Locale, numerals: Numerals = 'latin'): Promise<Buffer> {
  return printPdf(await statementHtml(s, locale), {
    numerals,
    unavailable: 'credit.pdf_unavailable',
    margin: { top: '12mm', bottom: '12mm', left: '10mm', right: '10mm' },
  });
}
