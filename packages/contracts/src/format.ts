/**
 * The one way figures and dates are written where people read them: on screens, receipts, PDFs,
 * exports and notifications. Money (dollars, riel), counts, percentages and dates, each in the
 * numerals shown (numerals.ts: the page's, unless told) and, for an instant, on the depots' clock
 * (dates.ts `DEPOT_TIME_ZONE`), never the browser's or the server's.
 */
import { DEPOT_TIME_ZONE } from './dates.ts';
import type { Locale } from './locales.ts';
import { formatUsdCents } from './money.ts';
import { type Numerals, shownDigits } from './numerals.ts';

const grouped = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** "$12,500.00" from 1250000 cents: thousands grouped, as riel is. */
export function formatUsd(cents: number, numerals?: Numerals): string {
  const text = formatUsdCents(cents);
  const [whole, fraction] = (text.startsWith('-') ? text.slice(1) : text).split('.');
  const shown = `$${grouped(whole ?? '')}.${fraction}`;
  return shownDigits(text.startsWith('-') ? `-${shown}` : shown, numerals);
}

/** "5,200៛" from 5200 riel: thousands grouped as on Cambodian price tags. */
export function formatKhr(riel: number, numerals?: Numerals): string {
  if (!Number.isSafeInteger(riel)) throw new RangeError(`riel must be a whole number, got ${riel}`);
  const sign = riel < 0 ? '-' : '';
  return shownDigits(`${sign}${grouped(String(Math.abs(riel)))}៛`, numerals);
}

/** "12,500" from 12500 (a count or a quantity), thousands grouped. */
export function formatCount(value: number, numerals?: Numerals): string {
  const sign = value < 0 ? '-' : '';
  const [whole, fraction] = String(Math.abs(value)).split('.');
  return shownDigits(`${sign}${grouped(whole ?? '')}${fraction ? `.${fraction}` : ''}`, numerals);
}

/**
 * A quantity kept in its unit's steps as a plain decimal, for machines (an e-invoice's xsd:decimal):
 * "1250.000" from 1250000 grams of a kg (`decimals` 3), "12" from 12 pieces; Latin digits, no grouping.
 */
export function quantityDecimal(steps: number, decimals: number): string {
  if (!Number.isSafeInteger(steps)) throw new RangeError(`a quantity must be whole steps, got ${steps}`);
  if (!decimals) return String(steps);
  const digits = String(Math.abs(steps)).padStart(decimals + 1, '0');
  return `${steps < 0 ? '-' : ''}${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

/**
 * A quantity kept in its unit's steps, as people read it: "1.250" from 1250 grams of a kg
 * (`decimals` 3), "12" from 12 pieces (0), thousands grouped.
 */
export function formatQuantity(steps: number, decimals: number, numerals?: Numerals): string {
  const [whole = '', fraction] = quantityDecimal(steps, decimals).split('.');
  return shownDigits(`${grouped(whole)}${fraction === undefined ? '' : `.${fraction}`}`, numerals);
}

/**
 * A percentage from basis points: "10%", "12.5%", "0.05%" (trailing zeros dropped, as a rate is
 * written), or with `fixed` always two decimals, "12.50%" (a report's column).
 */
export function formatPercent(bp: number, options: { fixed?: boolean; numerals?: Numerals } = {}): string {
  if (options.fixed) return shownDigits(`${(bp / 100).toFixed(2)}%`, options.numerals);
  const whole = Math.floor(bp / 100);
  const rest = bp % 100;
  const text = rest === 0 ? `${whole}%` : `${whole}.${String(rest).padStart(2, '0').replace(/0$/, '')}%`;
  return shownDigits(text, options.numerals);
}

const SHORT_MONTHS = {
  kh: ['មករា', 'កុម្ភៈ', 'មីនា', 'មេសា', 'ឧសភា', 'មិថុនា', 'កក្កដា', 'សីហា', 'កញ្ញា', 'តុលា', 'វិច្ឆិកា', 'ធ្នូ'],
  en: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
} as const;
const LONG_MONTHS_EN = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** A month's name as people read it: មីនា / Mar (`long`: March; Khmer has one name). */
export function monthName(month: number, locale: Locale, long = false): string {
  const names = locale === 'en' && long ? LONG_MONTHS_EN : SHORT_MONTHS[locale];
  return names[month - 1] ?? String(month);
}

// Made once: building an Intl formatter costs far more than using it.
const clock = new Intl.DateTimeFormat('en-CA', {
  timeZone: DEPOT_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

interface Moment {
  y: number;
  m: number;
  d: number;
  hour: number;
  minute: number;
}

/** An instant's date and time on the depots' clock; a plain `YYYY-MM-DD` is that day; null if unreadable. */
function momentOf(value: string): Moment | null {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const [y, m, d] = value.split('-').map(Number) as [number, number, number];
    return y && m && d ? { y, m, d, hour: 0, minute: 0 } : null;
  }
  const at = Date.parse(value);
  if (Number.isNaN(at)) return null;
  const part: Record<string, number> = {};
  for (const p of clock.formatToParts(at)) if (p.type !== 'literal') part[p.type] = Number(p.value);
  return { y: part.year ?? 0, m: part.month ?? 0, d: part.day ?? 0, hour: part.hour ?? 0, minute: part.minute ?? 0 };
}

export interface DateOptions {
  /** The numerals (the page's unless told). */
  numerals?: Numerals;
  /** English months written out, month first: "March 12, 2026" (Khmer reads the same either way). */
  long?: boolean;
}

function dayText({ y, m, d }: Moment, locale: Locale, long: boolean): string {
  return locale === 'en' && long ? `${monthName(m, locale, true)} ${d}, ${y}` : `${d} ${monthName(m, locale)} ${y}`;
}

/**
 * A date as people read it, never the raw date: 12 មីនា 2026 / 12 Mar 2026 from 2026-03-12; an
 * instant (a last sale) is the day it was on the depots' clock. Unreadable text is returned as is.
 */
export function formatDate(value: string, locale: Locale, options: DateOptions = {}): string {
  const moment = momentOf(value);
  return moment ? shownDigits(dayText(moment, locale, Boolean(options.long)), options.numerals) : value;
}

/** "14:05": an instant's time on the depots' clock. */
export function formatTime(value: string, numerals?: Numerals): string {
  const moment = momentOf(value);
  if (!moment) return value;
  return shownDigits(`${String(moment.hour).padStart(2, '0')}:${String(moment.minute).padStart(2, '0')}`, numerals);
}

/** "4:09" from 249 000 ms: the minutes and seconds left (a QR's time to be paid), never below 0:00. */
export function formatCountdown(ms: number, numerals?: Numerals): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return shownDigits(`${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`, numerals);
}

/**
 * An instant as people read it, on the depots' clock: 12 មីនា 2026 14:05 / 12 Mar 2026 14:05, or
 * with `long` in English "March 12, 2026 2:05 PM".
 */
export function formatDateTime(value: string, locale: Locale, options: DateOptions = {}): string {
  const moment = momentOf(value);
  if (!moment) return value;
  const minute = String(moment.minute).padStart(2, '0');
  const time =
    locale === 'en' && options.long
      ? `${moment.hour % 12 || 12}:${minute} ${moment.hour < 12 ? 'AM' : 'PM'}`
      : `${String(moment.hour).padStart(2, '0')}:${minute}`;
  return shownDigits(`${dayText(moment, locale, Boolean(options.long))} ${time}`, options.numerals);
}
