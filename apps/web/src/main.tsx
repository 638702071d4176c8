import './fonts.css';
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createQueryClient } from './app/App.tsx';
import { createAppRouter } from './app/router.tsx';
import { initI18n } from './i18n.ts';
import { startRefreshTimer } from './lib/auth.ts';
import { settleStartupLocale } from './lib/locale.ts';
import { registerServiceWorker } from './lib/pwa.ts';
import { installChunkReload } from './lib/reload.ts';

installChunkReload();
registerServiceWorker();
// the till opened: its catalogue is read from the device while the app starts
if (/\/pos\/?$/.test(window.location.pathname)) {
  void import('./lib/offline/localCatalogue.ts').then((m) => m.loadCatalogue()).catch(() => undefined);
}
await initI18n(settleStartupLocale());
startRefreshTimer();

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <App router={createAppRouter()} queryClient={createQueryClient()} />
  </StrictMode>,
);
