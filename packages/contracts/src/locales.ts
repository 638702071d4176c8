/** Locales (spec sections 1, 4 and 9): Khmer first, English the variant and the fallback. */
export const LOCALES = ['kh', 'en'] as const;
export type Locale = (typeof LOCALES)[number];

export const DEFAULT_LOCALE: Locale = 'kh';
export const FALLBACK_LOCALE: Locale = 'en';

export const LOCALE_COOKIE = 'i18n_locale';
export const LOCALE_COOKIE_DAYS = 365;

export const localeInfo: Record<Locale, { code: Locale; iso: string; dir: 'ltr'; name: string }> = {
  kh: { code: 'kh', iso: 'km-KH', dir: 'ltr', name: 'ខ្មែរ' },
  en: { code: 'en', iso: 'en-US', dir: 'ltr', name: 'English' },
};

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/**
 * Maps a language tag (an X-Localization header, a cookie, navigator.language) to a locale.
 * Khmer is tagged `km` by browsers and `kh` by this product; both mean Khmer.
 */
export function toLocale(tag: string | null | undefined): Locale | null {
  if (!tag) return null;
  const primary = tag.trim().toLowerCase().split(/[-_]/)[0];
  if (primary === 'kh' || primary === 'km') return 'kh';
  if (primary === 'en') return 'en';
  return null;
}
