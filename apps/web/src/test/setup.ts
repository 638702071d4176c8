import 'fake-indexeddb/auto';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { i18n, initI18n } from '../i18n.ts';
import { outboxDb } from '../lib/offline/outbox.ts';
import { noteReached } from '../lib/reachability.ts';
import { session } from '../lib/session.ts';

/**
 * jsdom has no matchMedia; antd needs it. The screen is a wide desktop (every min-width query
 * matches), on a device that does not ask for reduced motion; `setSystemDark` flips the device's
 * colour scheme live, telling the colour-scheme query's listeners only.
 */
const darkListeners = new Set<(event: MediaQueryListEvent) => void>();
let systemDark = false;

export function setSystemDark(dark: boolean): void {
  systemDark = dark;
  for (const listener of darkListeners) listener({ matches: dark } as MediaQueryListEvent);
}

Object.defineProperty(window, 'matchMedia', {
  configurable: true,
  value: (query: string): MediaQueryList => {
    const dark = query.includes('prefers-color-scheme: dark');
    return {
      get matches() {
        return dark ? systemDark : query.includes('min-width');
      },
      media: query,
      onchange: null,
      addEventListener: (_type: string, listener: (event: MediaQueryListEvent) => void) => {
        if (dark) darkListeners.add(listener);
      },
      removeEventListener: (_type: string, listener: (event: MediaQueryListEvent) => void) => {
        darkListeners.delete(listener);
      },
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    } as unknown as MediaQueryList;
  },
});

// jsdom implements no pseudo-element styles and says so loudly; antd asks for them to measure scrollbars.
const getComputedStyle = window.getComputedStyle.bind(window);
window.getComputedStyle = (element: Element) => getComputedStyle(element);

// Nor ResizeObserver, which antd's layout components use to measure themselves.
if (!('ResizeObserver' in window)) {
  Object.defineProperty(window, 'ResizeObserver', {
    configurable: true,
    value: class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  });
}

// The first render of a file compiles the lazy screens; give it time on a slow machine.
configure({ asyncUtilTimeout: 10_000 });

await initI18n('kh');

beforeEach(async () => {
  await i18n.changeLanguage('kh');
  localStorage.clear();
  sessionStorage.clear();
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim();
    // biome-ignore lint/suspicious/noDocumentCookie: resetting jsdom's cookie jar between tests
    if (name) document.cookie = `${name}=; Max-Age=0; Path=/`;
  }
  session.reload();
  systemDark = false;
  document.documentElement.className = '';
});

afterEach(async () => {
  cleanup();
  // the offline queue lives in (fake) IndexedDB: no test sends another's kept sales
  await outboxDb().sales.clear();
  noteReached(true);
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
});
