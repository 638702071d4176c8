import { isLocale, type Locale } from '@depot/contracts';
import dayjs from 'dayjs';
import 'dayjs/locale/km';
import localizedFormat from 'dayjs/plugin/localizedFormat';
import { i18n } from '../i18n.ts';

dayjs.extend(localizedFormat);

export function dayjsLocale(locale: Locale): string {
  return locale === 'kh' ? 'km' : 'en';
}

/** A date and time as people write it in the page's language. */
export function formatDateTime(value: string, locale: Locale): string {
  return dayjs(value).locale(dayjsLocale(locale)).format('LLL');
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
