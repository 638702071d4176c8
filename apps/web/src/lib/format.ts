import { formatPercent, formatQuantity, type Locale } from '@depot/contracts';

/** How numbers and quantities read on screens, receipts and documents. */

// 1,250: the one count formatter (contracts format.ts), in the page's numerals as money is; "1.250":
// a quantity in its unit's steps (`formatQuantity(steps, decimals)`)
export { formatCount, formatQuantity } from '@depot/contracts';

/** "24 cans", "1.250 kg": a quantity in its unit (kept in its steps: `unit_decimals`), named in the page's language. */
export function quantityText(
  value: number,
  unit: { unit_name_kh: string; unit_name_en: string; unit_decimals?: number },
  locale: Locale,
) {
  return `${formatQuantity(value, unit.unit_decimals ?? 0)} ${locale === 'kh' ? unit.unit_name_kh || unit.unit_name_en : unit.unit_name_en || unit.unit_name_kh}`;
}

/** Whole days from one `YYYY-MM-DD` to another (calendar dates, no time zone). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** "15%", "12.5%" from basis points. */
export function percentText(bp: number): string {
  return formatPercent(bp);
}
