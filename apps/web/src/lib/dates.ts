import type { Locale } from '@depot/contracts';
import dayjs from 'dayjs';
import 'dayjs/locale/km';
import localizedFormat from 'dayjs/plugin/localizedFormat';

dayjs.extend(localizedFormat);

export function dayjsLocale(locale: Locale): string {
  return locale === 'kh' ? 'km' : 'en';
}

/** A date and time as people write it in the page's language. */
export function formatDateTime(value: string, locale: Locale): string {
  return dayjs(value).locale(dayjsLocale(locale)).format('LLL');
}

export function setDateLocale(locale: Locale): void {
  dayjs.locale(dayjsLocale(locale));
}
