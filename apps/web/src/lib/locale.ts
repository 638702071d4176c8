import { FALLBACK_LOCALE, LOCALE_COOKIE, LOCALE_COOKIE_DAYS, type Locale, toLocale } from '@depot/contracts';

/** English pages live under /en; Khmer pages have no prefix. The path decides the language. */
export function localeFromPath(pathname: string): Locale {
  return pathname === '/en' || pathname.startsWith('/en/') ? 'en' : 'kh';
}

/** `/dashboards` with `en` → `/en/dashboards`; `/` with `en` → `/en`. */
export function localePath(path: string, locale: Locale): string {
  if (locale === 'kh') return path;
  return path === '/' ? '/en' : `/en${path}`;
}

/** The same page in the other language: `/en/x?y` ↔ `/x?y`. */
export function switchLocalePath(pathname: string, locale: Locale, rest = ''): string {
  const bare = pathname === '/en' ? '/' : pathname.startsWith('/en/') ? pathname.slice(3) : pathname;
  return localePath(bare, locale) + rest;
}

export function readLocaleCookie(cookie: string): Locale | null {
  for (const part of cookie.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === LOCALE_COOKIE) return toLocale(decodeURIComponent(value.join('=')));
  }
  return null;
}

/** Spec section 4: the cookie, then the browser's languages, then the English fallback. */
export function detectLocale(cookie: string, languages: readonly string[]): Locale {
  const saved = readLocaleCookie(cookie);
  if (saved) return saved;
  for (const tag of languages) {
    const locale = toLocale(tag);
    if (locale) return locale;
  }
  return FALLBACK_LOCALE;
}

/** 365 days, path /, SameSite=Lax; not Secure, since nothing configures it (spec section 4). */
export function localeCookie(locale: Locale): string {
  const maxAge = LOCALE_COOKIE_DAYS * 24 * 60 * 60;
  return `${LOCALE_COOKIE}=${locale}; Max-Age=${maxAge}; Path=/; SameSite=Lax`;
}

export function saveLocaleCookie(locale: Locale): void {
  // biome-ignore lint/suspicious/noDocumentCookie: one cookie, written once per switch
  document.cookie = localeCookie(locale);
}

/** `<html lang>` uses the ISO code (km), the product uses kh. */
export function htmlLang(locale: Locale): string {
  return locale === 'kh' ? 'km' : 'en';
}

/**
 * Spec section 4, once at start-up: the cookie (else the browser, else English) picks the language,
 * the cookie is saved, and the address moves under the matching prefix. After this, the path decides.
 */
export function settleStartupLocale(): Locale {
  const detected = detectLocale(document.cookie, navigator.languages ?? [navigator.language]);
  saveLocaleCookie(detected);
  const { pathname, search, hash } = window.location;
  if (localeFromPath(pathname) !== detected) {
    window.history.replaceState(window.history.state, '', switchLocalePath(pathname, detected, search + hash));
  }
  return detected;
}
