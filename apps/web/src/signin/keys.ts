/**
 * The words the sign-in page shows, by their key in the catalogues (locales/kh.json, en.json). The
 * page takes only these from the catalogues (vite.config.ts `signInTexts`), not the whole of both.
 */
export const SIGN_IN_KEYS = [
  'app.loading',
  'colorMode.label',
  'colorMode.light',
  'colorMode.dark',
  'colorMode.system',
  'common.close',
  'common.language',
  'errors.settings',
  'login.subtitle',
  'login.name',
  'login.namePlaceholder',
  'login.password',
  'login.passwordPlaceholder',
  'login.showPassword',
  'login.hidePassword',
  'login.submit',
  'newVersion.title',
  'newVersion.description',
  'newVersion.reload',
] as const;

export type SignInKey = (typeof SIGN_IN_KEYS)[number];
