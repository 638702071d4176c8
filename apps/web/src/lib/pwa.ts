/** The API reads the service worker keeps for the till offline (vite.config.ts `depot-api`). */
const API_CACHE = 'depot-api';

/**
 * Registers the service worker of a built app (vite-plugin-pwa writes /sw.js), so the till opens
 * with no connection. Not in development or tests: there is no /sw.js there. Storage is asked to
 * be persistent, so the browser does not clear unsynced sales when space runs short.
 */
export function registerServiceWorker(): void {
  if (import.meta.env.DEV || !('serviceWorker' in navigator)) return;
  // imported here: the sign-in page (signin/main.tsx) reaches this module, and registers no worker
  void import('workbox-window')
    .then(({ Workbox }) => new Workbox('/sw.js', { scope: '/' }).register())
    .catch(() => undefined);
  void navigator.storage?.persist?.().catch(() => false);
}

/** Forgets the kept API answers (on sign-out: the next user must not read the last one's). */
export async function clearOfflineReads(): Promise<void> {
  if (typeof caches === 'undefined') return;
  await caches.delete(API_CACHE).catch(() => false);
}
