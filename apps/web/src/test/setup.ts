import 'fake-indexeddb/auto';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { i18n, initI18n } from '../i18n.ts';
import { noteReached } from '../lib/reachability.ts';
import { session } from '../lib/session.ts';
import { outboxDb } from '../pages/sales/outbox.ts';

/**
 * jsdom has no matchMedia; antd needs it. The screen is a wide desktop (every min-width query
 * matches); `setSystemDark` flips the device's colour scheme live.
 */
const mediaListeners = new Set<(event: MediaQueryListEvent) => void>();
let systemDark = false;
let reducedMotion = false;

export function setSystemDark(dark: boolean): void {
  systemDark = dark;
  for (const listener of mediaListeners) listener({ matches: dark } as MediaQueryListEvent);
}

/** The device's "reduce motion" setting, flipped live. */
export function setReducedMotion(reduce: boolean): void {
  reducedMotion = reduce;
  for (const listener of mediaListeners) listener({ matches: reduce } as MediaQueryListEvent);
}

Object.defineProperty(window, 'matchMedia', {
  configurable: true,
  value: (query: string): MediaQueryList =>
    ({
      get matches() {
        if (query.includes('prefers-color-scheme: dark')) return systemDark;
        if (query.includes('prefers-reduced-motion: reduce')) return reducedMotion;
        return query.includes('min-width');
      },
      media: query,
      onchange: null,
      addEventListener: (_type: string, listener: (event: MediaQueryListEvent) => void) => mediaListeners.add(listener),
      removeEventListener: (_type: string, listener: (event: MediaQueryListEvent) => void) =>
        mediaListeners.delete(listener),
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    }) as unknown as MediaQueryList,
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
  reducedMotion = false;
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
