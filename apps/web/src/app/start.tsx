// first: zod's configuration, before any module makes a schema (contracts zod-config.ts)
import '@depot/contracts/zod-config';
import '../fonts.css';
import '../styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { initI18n } from '../i18n.ts';
import { startRefreshTimer } from '../lib/auth.ts';
import { localeFromPath, settleStartupLocale } from '../lib/locale.ts';
import { registerServiceWorker } from '../lib/pwa.ts';
import { installChunkReload } from '../lib/reload.ts';
import { App, createQueryClient } from './App.tsx';
import { createAppRouter, preloadScreens } from './router.tsx';

export { preloadScreens };

/**
 * What comes after sign-in, fetched while the user types on the sign-in page (signin/main.tsx):
 * the words of the page's language and the menu's layout. Each is fetched once, however often asked.
 */
export function warmUp(): void {
  void initI18n(localeFromPath(window.location.pathname)).catch(() => undefined);
  preloadScreens([]);
}

/**
 * Starts the app in `container`: at the page's address on a page load (main.tsx), or where the user
 * starts after signing in on the sign-in page, which then gives its place to the app.
 */
export async function startApp(container: HTMLElement): Promise<void> {
  installChunkReload();
  registerServiceWorker();
  // the till opened: its catalogue is read from the device while the app starts
  if (/\/pos\/?$/.test(window.location.pathname)) {
    void import('../lib/offline/localCatalogue.ts').then((m) => m.loadCatalogue()).catch(() => undefined);
  }
  await initI18n(settleStartupLocale());
  startRefreshTimer();

  createRoot(container).render(
    <StrictMode>
      <App router={createAppRouter()} queryClient={createQueryClient()} />
    </StrictMode>,
  );
}
