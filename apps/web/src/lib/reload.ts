import { RELOAD_GUARD_MS } from '@depot/contracts';

const RELOAD_KEY = 'depot.chunk_reload_at';

/**
 * After a deploy, the old build's chunks are gone and lazy imports fail: a reload fetches the new
 * build. At most once per RELOAD_GUARD_MS, so a chunk that is truly missing cannot loop.
 */
export function reloadOnce(now = Date.now()): boolean {
  const last = Number(sessionStorage.getItem(RELOAD_KEY)) || 0;
  if (now - last < RELOAD_GUARD_MS) return false;
  sessionStorage.setItem(RELOAD_KEY, String(now));
  window.location.reload();
  return true;
}

export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return /dynamically imported module|Importing a module script failed|Unable to preload CSS|Loading (CSS )?chunk/i.test(
    message,
  );
}

export function installChunkReload(): void {
  window.addEventListener('vite:preloadError', (event) => {
    // Reloading: keep the error from reaching the page. Guard hit: let the error page show.
    if (reloadOnce()) event.preventDefault();
  });
}
