import { act } from '@testing-library/react';
import { vi } from 'vitest';

/** The browser says it has no connection, as it does (a test file's `afterEach(online)` restores it). */
export function offline() {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
  act(() => {
    window.dispatchEvent(new Event('offline'));
  });
}

/**
 * Back online for the next test, for a test file's `afterEach`: every mock restored (the connection's
 * among them) and the browser says so, as TanStack Query pauses its queries while it is offline.
 */
export function online() {
  vi.restoreAllMocks();
  window.dispatchEvent(new Event('online'));
}
