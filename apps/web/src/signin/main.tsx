// first: zod's configuration, before any module makes a schema (contracts zod-config.ts)
import '@depot/contracts/zod-config';
import '../fonts.css';
import './signin.css';
import { DEFAULT_SETTINGS, numeralsFor, type PublicSettings, setNumerals, titleOf } from '@depot/contracts';
import { useEffect, useLayoutEffect, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { useNewVersion } from '../app/newVersion.ts';
import { can } from '../lib/access.tsx';
import {
  applyColorModeClass,
  resolveColorMode,
  useColorModePreference,
  useSystemPrefersDark,
} from '../lib/colorMode.ts';
import { setRequestLocale } from '../lib/http.ts';
import { htmlLang, localeFromPath, localePath, settleStartupLocale } from '../lib/locale.ts';
import { setFavicon } from '../lib/pageHead.ts';
import { readSettings, rememberedSettings } from '../lib/publicSettings.ts';
import { session } from '../lib/session.ts';
import { SignInPage, signInText } from './SignInPage.tsx';

/**
 * The page the server sends for `/login` and `/` (apps/server http/web.ts): the sign-in page alone,
 * a fraction of the app's code. The app itself (app/start.tsx) is fetched while the user types and
 * takes the page's place once they are signed in; a visitor who is signed in already gets it at once.
 */
const container = document.getElementById('root') as HTMLElement;
let app: Promise<typeof import('../app/start.tsx')> | null = null;
const loadApp = () => {
  app ??= import('../app/start.tsx');
  return app;
};
let root: Root | null = null;

/** The app at `path` (where the user starts), in this page's place. */
async function openApp(path: string): Promise<void> {
  window.history.replaceState(window.history.state, '', path);
  const { startApp, preloadScreens } = await loadApp();
  root?.unmount();
  root = null;
  await startApp(container);
  // the till, where most sign-ins are headed next, is fetched in the background
  preloadScreens(can('orders.create') ? ['/pos'] : []);
}

/** Fetched once the user begins to type: the app's code and its words (app/start.tsx `warmUp`). */
function warmUp(): void {
  if (app) return;
  void loadApp()
    .then((m) => m.warmUp())
    .catch(() => undefined);
}

function useSettings(): { settings: PublicSettings; failed: boolean } {
  const [settings, setSettings] = useState(() => rememberedSettings() ?? DEFAULT_SETTINGS);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    readSettings().then(setSettings, () => setFailed(true));
  }, []);
  return { settings, failed };
}

function Notice({ testId, children }: { testId: string; children: React.ReactNode }) {
  return (
    <div className="si-alert si-alert-notice" data-testid={testId} role="status">
      {children}
    </div>
  );
}

function SignIn() {
  const [pathname, setPathname] = useState(window.location.pathname);
  const locale = localeFromPath(pathname);
  const t = signInText(locale);
  const { settings, failed } = useSettings();
  const newVersion = useNewVersion();
  const [dismissed, setDismissed] = useState<string[]>([]);
  const mode = resolveColorMode({
    darkAllowed: settings.dark_mode,
    preference: useColorModePreference(),
    systemDark: useSystemPrefersDark(),
  });
  setRequestLocale(locale);
  setNumerals(numeralsFor(settings.khmer_numerals, locale));

  useLayoutEffect(() => applyColorModeClass(mode), [mode]);
  useEffect(() => {
    document.documentElement.lang = htmlLang(locale);
    document.title = titleOf(settings, locale);
  }, [settings, locale]);
  useEffect(() => setFavicon(settings.favicon_url ?? '/favicon.svg'), [settings.favicon_url]);
  useEffect(() => {
    const onPop = () => setPathname(window.location.pathname);
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);

  const navigate = (path: string) => {
    const target = new URL(path, window.location.href).pathname;
    if (localePath('/login', localeFromPath(target)) !== target) {
      void openApp(path);
      return;
    }
    window.history.pushState(null, '', path);
    setPathname(target);
  };
  const close = (key: string) => (
    <button
      type="button"
      className="si-close"
      aria-label={t('common.close')}
      onClick={() => setDismissed([...dismissed, key])}
    >
      ×
    </button>
  );

  const notices = (
    <div className="si-notices">
      {failed && !dismissed.includes('settings') && (
        <Notice testId="settings-failed">
          <span>{t('errors.settings')}</span>
          {close('settings')}
        </Notice>
      )}
      {newVersion && !dismissed.includes('version') && (
        <Notice testId="new-version">
          <span>
            <strong>{t('newVersion.title')}</strong> {t('newVersion.description')}
          </span>
          <button
            type="button"
            className="si-button si-primary"
            data-testid="new-version-reload"
            onClick={() => window.location.reload()}
          >
            {t('newVersion.reload')}
          </button>
          {close('version')}
        </Notice>
      )}
    </div>
  );

  return (
    <SignInPage
      locale={locale}
      settings={settings}
      dark={mode === 'dark'}
      navigate={navigate}
      notices={notices}
      onTyping={warmUp}
    />
  );
}

const locale = settleStartupLocale();
const { pathname, search, hash } = window.location;
if (session.isValid()) {
  // signed in already: the app decides where `/` and `/login` lead
  void openApp(pathname + search + hash);
} else {
  if (localePath('/login', locale) !== pathname) {
    // `/` as the app's guard has it: what is left of an ended session goes, the sign-in page comes
    session.clear();
    window.history.replaceState(null, '', localePath('/login', locale));
  }
  root = createRoot(container);
  root.render(<SignIn />);
}
