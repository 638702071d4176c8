import './fonts.css';
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { z } from 'zod';
import { App, createQueryClient } from './app/App.tsx';
import { createAppRouter } from './app/router.tsx';
import { initI18n } from './i18n.ts';
import { startRefreshTimer } from './lib/auth.ts';
import { settleStartupLocale } from './lib/locale.ts';
import { installChunkReload } from './lib/reload.ts';

// The Content-Security-Policy runs no eval: zod parses without compiling code (it would otherwise
// probe `Function('')`, which the browser reports as a violation)
z.config({ jitless: true });
installChunkReload();
await initI18n(settleStartupLocale());
startRefreshTimer();

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <App router={createAppRouter()} queryClient={createQueryClient()} />
  </StrictMode>,
);
