import {
  formatCount,
  formatDate,
  formatKhr,
  formatPercent,
  formatUsd,
  type Locale,
  type MessageKey,
  messages,
  type Numerals,
  type Report,
  translate,
} from '@depot/contracts';
import type ExcelJS from 'exceljs';
import { loadExcel } from '../../kit/excel.ts';
import { escapeHtml } from '../../kit/html.ts';
import { fontFaces, printPdf } from '../../kit/pdf.ts';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const label = (key: string, locale: Locale): string => (key in messages ? translate(key as MessageKey, locale) : key);

/*
 * Figures and dates are written by contracts format.ts, the web's own formatters, in Latin digits:
 * a PDF converts its text to the request's numerals when printed (kit/pdf.ts `numerals`).
 */
const LATIN = { numerals: 'latin' } as const;

/** 12 មីនា 2026 / 12 Mar 2026: never the raw date where people read it; an instant on the depots' clock. */
const dayOf = (day: string, locale: Locale): string => formatDate(day, locale, LATIN);

/** A cell as people read it (the web's reports/common.tsx `formatValue`, in Latin digits): money as $1,234.56, riel as 5,200៛, rates, percents, message keys translated. */
export function shown(
  value: unknown,
  kind: string,
  locale: Locale,
  row?: Record<string, unknown>,
  key?: string,
): string {
  if (value === null || value === undefined) return '';
  if (kind === 'money') return formatUsd(Number(value), 'latin');
  if (kind === 'riel' || kind === 'rate') return formatKhr(Number(value), 'latin');
  if (kind === 'percent') return formatPercent(Number(value), { fixed: true, ...LATIN });
  if (kind === 'count') return formatCount(Number(value), 'latin');
  if (kind === 'date') return dayOf(String(value), locale);
  const s = String(value);
  if (s.startsWith('report.') && s in messages) return translate(s as MessageKey, locale);
  // a record's own name in Khmer when there is one
  if (locale === 'kh' && row && key === 'name' && typeof row.name_kh === 'string' && row.name_kh) return row.name_kh;
  if (locale === 'kh' && row && key === 'combo' && typeof row.combo_kh === 'string' && row.combo_kh)
    return row.combo_kh;
  return s;
}

function title(report: Report, locale: Locale): string {
  return label(`report.${report.report}`, locale);
}

/** The report as a workbook: a summary sheet, the series, then one sheet per table. Money as numbers in dollars. */
export async function reportWorkbook(report: Report, locale: Locale, storeName: string | null): Promise<Buffer> {
  const book = new (await loadExcel()).Workbook();
  book.creator = 'Depot';
  const head = (sheet: ExcelJS.Worksheet) => {
    sheet.addRow([title(report, locale)]).font = { bold: true, size: 14 };
    sheet.addRow([label('report.period', locale), `${report.from} – ${report.to}`]);
    if (report.previous_from)
      sheet.addRow([label('report.previous_period', locale), `${report.previous_from} – ${report.previous_to}`]);
    sheet.addRow([label('report.store', locale), storeName ?? label('report.all_stores', locale)]);
    sheet.addRow([]);
  };
  const cell = (value: unknown, kind: string, row: Record<string, unknown>, key: string) => {
    if (value === null || value === undefined) return null;
    if (kind === 'money') return Number(value) / 100;
    if (kind === 'count' || kind === 'riel' || kind === 'rate') return Number(value);
    if (kind === 'percent') return Number(value) / 10_000;
    return shown(value, kind, locale, row, key);
  };
  const format = (kind: string) =>
    kind === 'money'
      ? '$#,##0.00'
      : kind === 'riel' || kind === 'rate'
        ? '#,##0"៛"'
        : kind === 'percent'
          ? '0.00%'
          : undefined;

  const summary = book.addWorksheet(label('report.summary', locale).slice(0, 31));
  head(summary);
  summary.addRow(['', label('report.period', locale), label('report.previous_period', locale)]).font = { bold: true };
  for (const f of report.summary) {
    const row = summary.addRow([
      label(`report.field.${f.key}`, locale),
      cell(f.value, f.kind, {}, ''),
      cell(f.previous, f.kind, {}, ''),
    ]);
    const fmt = format(f.kind);
    if (fmt) {
      row.getCell(2).numFmt = fmt;
      row.getCell(3).numFmt = fmt;
    }
  }
  summary.getColumn(1).width = 36;
  summary.getColumn(2).width = 18;
  summary.getColumn(3).width = 18;

  const series = book.addWorksheet(label('report.series', locale).slice(0, 31));
  series.addRow([
    label('report.field.bucket', locale),
    ...report.series.keys.map((k) => label(`report.field.${k}`, locale)),
  ]).font = { bold: true };
  for (const p of report.series.points) {
    const row = series.addRow([
      p.bucket,
      ...report.series.keys.map((k) => (k.endsWith('_cents') ? p.values[k] / 100 : p.values[k])),
    ]);
    report.series.keys.forEach((k, i) => {
      if (k.endsWith('_cents')) row.getCell(i + 2).numFmt = '$#,##0.00';
    });
  }
  series.columns.forEach((c) => {
    c.width = 18;
  });

  for (const section of report.sections) {
    const sheet = book.addWorksheet(
      label(`report.section.${section.key}`, locale)
        .replace(/[\\/?*[\]:]/g, ' ')
        .slice(0, 31),
    );
    sheet.addRow(section.columns.map((c) => label(`report.field.${c.key}`, locale))).font = { bold: true };
    for (const r of section.rows) {
      const row = sheet.addRow(section.columns.map((c) => cell(r[c.key], c.kind, r, c.key)));
      section.columns.forEach((c, i) => {
        const fmt = format(c.kind);
        if (fmt) row.getCell(i + 1).numFmt = fmt;
      });
    }
    section.columns.forEach((c, i) => {
      sheet.getColumn(i + 1).width = c.kind === 'text' ? 32 : 16;
    });
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** The report as printable HTML (A4): what the PDF is printed from. */
export async function reportHtml(report: Report, locale: Locale, storeName: string | null): Promise<string> {
  const rows = report.summary
    .map(
      (f) =>
        `<tr><td>${escapeHtml(label(`report.field.${f.key}`, locale))}</td><td class="n">${escapeHtml(shown(f.value, f.kind, locale))}</td><td class="n">${escapeHtml(shown(f.previous, f.kind, locale))}</td></tr>`,
    )
    .join('');
  const sections = report.sections
    .filter((s) => s.rows.length)
    .map(
      (s) =>
        `<h2>${escapeHtml(label(`report.section.${s.key}`, locale))}</h2><table><thead><tr>${s.columns
          .map((c) => `<th>${escapeHtml(label(`report.field.${c.key}`, locale))}</th>`)
          .join('')}</tr></thead><tbody>${s.rows
          .slice(0, 200)
          .map(
            (r) =>
              `<tr>${s.columns.map((c) => `<td class="${c.kind === 'text' ? '' : 'n'}">${escapeHtml(shown(r[c.key], c.kind, locale, r, c.key))}</td>`).join('')}</tr>`,
          )
          .join('')}</tbody></table>`,
    )
    .join('');
  return `<!doctype html><html lang="${locale === 'kh' ? 'km' : 'en'}"><head><meta charset="utf-8"><style>
${await fontFaces('Kantumruy Pro')}
body{font-family:'Kantumruy Pro',sans-serif;font-size:10pt;color:#111;margin:0}
h1{font-size:16pt;margin:0 0 4pt}h2{font-size:12pt;margin:14pt 0 4pt}
.meta{color:#444;margin-bottom:8pt}
table{border-collapse:collapse;width:100%;page-break-inside:auto}tr{page-break-inside:avoid}
th,td{border:0.5pt solid #999;padding:2pt 4pt;text-align:left}th{background:#eee}
td.n{text-align:right;white-space:nowrap}
</style></head><body>
<h1>${escapeHtml(title(report, locale))}</h1>
<div class="meta">${escapeHtml(label('report.period', locale))}: ${dayOf(report.from, locale)} – ${dayOf(report.to, locale)}${
    report.previous_from && report.previous_to
      ? ` · ${escapeHtml(label('report.previous_period', locale))}: ${dayOf(report.previous_from, locale)} – ${dayOf(report.previous_to, locale)}`
      : ''
  } · ${escapeHtml(label('report.store', locale))}: ${escapeHtml(storeName ?? label('report.all_stores', locale))} · ${escapeHtml(label('report.generated_at', locale))}: ${report.generated_at.slice(0, 16).replace('T', ' ')} UTC</div>
<table><thead><tr><th>${escapeHtml(label('report.summary', locale))}</th><th>${escapeHtml(label('report.period', locale))}</th><th>${escapeHtml(label('report.previous_period', locale))}</th></tr></thead><tbody>${rows}</tbody></table>
${sections}
</body></html>`;
}

/** The report as a PDF (kit/pdf.ts): landscape but for the financial report. */
export async function reportPdf(
  report: Report,
  locale: Locale,
  storeName: string | null,
  numerals: Numerals = 'latin',
): Promise<Buffer> {
  return printPdf(await reportHtml(report, locale, storeName), {
    numerals,
    unavailable: 'report.pdf_unavailable',
    landscape: report.report !== 'financial',
    margin: { top: '12mm', bottom: '12mm', left: '10mm', right: '10mm' },
  });
}
