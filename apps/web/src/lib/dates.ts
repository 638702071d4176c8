import { formatDateTime as formatInstant, isLocale, type Locale } from '@depot/contracts';
import dayjs from 'dayjs';
import 'dayjs/locale/km';
import { i18n } from '../i18n.ts';

/** How a date is typed in every date field: 25/11/2026 (KHMER.md; the API still takes YYYY-MM-DD). */
export const DATE_INPUT_FORMAT = 'DD/MM/YYYY';

// The one way a date is shown (12 មីនា 2026 / 12 Mar 2026) and its month names: contracts format.ts,
// on the depots' clock, in the page's numerals.
export { formatDate, monthName } from '@depot/contracts';

export function dayjsLocale(locale: Locale): string {
  return locale === 'kh' ? 'km' : 'en';
}

/** A date and time as people write it in the page's language (March 12, 2026 2:05 PM), on the depots' clock. */
export function formatDateTime(value: string, locale: Locale): string {
  return formatInstant(value, locale, { long: true });
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
