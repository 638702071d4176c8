import { FALLBACK_LOCALE, isLocale, type Locale, shownDigits } from '@depot/contracts';
import i18next, { type BackendModule, type FormatterModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';

/** Each catalogue is its own chunk: a page loads its language and the English fallback, nothing else. */
const catalogues: Record<Locale, () => Promise<{ default: ResourceKey }>> = {
  kh: () => import('./locales/kh.json'),
  en: () => import('./locales/en.json'),
};

const backend: BackendModule = {
  type: 'backend',
  callbackApi: true,
  init() {},
  read(language, _namespace, callback) {
    if (!isLocale(language)) {
      console.error('Could not find messages for locale code', language);
      callback(null, {});
      return;
    }
    catalogues[language]().then(
      (module) => callback(null, module.default),
      (error: unknown) => {
        console.error('Failed locale loading', error);
        callback(error instanceof Error ? error : new Error(String(error)), false);
      },
    );
  },
};

/**
 * Where the web's sentences are interpolated: a number given to `t` (a count, a quantity, days) is
 * written in the page's numerals (contracts numerals.ts, as every formatter writes; `count` still
 * chooses the plural as a number). Texts (names, numbers of documents, amounts a formatter wrote)
 * pass as they are.
 */
export const numeralsFormatter: FormatterModule = {
  type: 'formatter',
  init() {},
  add() {},
  addCached() {},
  // every other value comes back untouched (i18next's type says a string; a missing one stays missing)
  format: ((value: unknown) =>
    typeof value === 'number' ? shownDigits(String(value)) : value) as FormatterModule['format'],
};

export const i18n = i18next.createInstance();

let ready: Promise<unknown> | null = null;

/** Resolves once the start-up language and the fallback are loaded, so the first paint is translated. */
export function initI18n(locale: Locale): Promise<unknown> {
  ready ??= i18n
    .use(backend)
    .use(numeralsFormatter)
    .use(initReactI18next)
    .init({
      lng: locale,
      fallbackLng: FALLBACK_LOCALE,
      load: 'currentOnly',
      interpolation: { escapeValue: false, alwaysFormat: true },
      react: { useSuspense: false },
    });
  return ready;
}
