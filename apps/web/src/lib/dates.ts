import { isLocale, type Locale, shownDigits } from '@depot/contracts';
import dayjs from 'dayjs';
import 'dayjs/locale/km';
import localizedFormat from 'dayjs/plugin/localizedFormat';
import { i18n } from '../i18n.ts';

dayjs.extend(localizedFormat);

const KHMER_MONTHS = ['មករា', 'កុម្ភៈ', 'មីនា', 'មេសា', 'ឧសភា', 'មិថុនា', 'កក្កដា', 'សីហា', 'កញ្ញា', 'តុលា', 'វិច្ឆិកា', 'ធ្នូ'];
const ENGLISH_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** How a date is typed in every date field: 25/11/2026 (KHMER.md; the API still takes YYYY-MM-DD). */
export const DATE_INPUT_FORMAT = 'DD/MM/YYYY';

/** A month's name as people read it: មីនា / Mar. */
export function monthName(month: number, locale: Locale): string {
  return (locale === 'kh' ? KHMER_MONTHS : ENGLISH_MONTHS)[month - 1] ?? String(month);
}

/**
 * The one way a date is shown: 12 មីនា 2026 / 12 Mar 2026 from 2026-03-12, never the raw date on
 * screen. An instant (a last sale) is read on the depots' clock, UTC+7. Its digits are the page's
 * numerals (contracts numerals.ts: Khmer digits on Khmer pages when the setting is on).
 */
export function formatDate(day: string, locale: Locale): string {
  const local = day.length > 10 ? new Date(Date.parse(day) + 7 * 3_600_000).toISOString() : day;
  const [y, m, d] = local.slice(0, 10).split('-').map(Number);
  if (!y || !m || !d) return day;
  return shownDigits(`${d} ${monthName(m, locale)} ${y}`);
}

export function dayjsLocale(locale: Locale): string {
  return locale === 'kh' ? 'km' : 'en';
}

/** A date and time as people write it in the page's language. */
export function formatDateTime(value: string, locale: Locale): string {
  return shownDigits(dayjs(value).locale(dayjsLocale(locale)).format('LLL'));
}

/**
 * dayjs's global locale (antd's date pickers read it) follows the page's language from the moment a
 * screen that shows dates loads this module; the sign-in page never loads dayjs at all.
 */
function followLanguage(language: string): void {
  if (isLocale(language)) dayjs.locale(dayjsLocale(language));
}
followLanguage(i18n.language);
i18n.on('languageChanged', followLanguage);
