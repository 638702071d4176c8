import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { syncOutbox } from '../../lib/offline/outbox.ts';
import { PROBE_MS } from '../../lib/reachability.ts';
import { useOutboxSync } from './OfflineBar.tsx';

vi.mock('../../lib/offline/outbox.ts', async (original) => ({
  ...(await original<typeof import('../../lib/offline/outbox.ts')>()),
  syncOutbox: vi.fn(),
}));

const sync = vi.mocked(syncOutbox);
const wrapper = ({ children }: { children: ReactNode }) => (
  <QueryClientProvider client={new QueryClient()}>{children}</QueryClientProvider>
);
const result = (stopped: boolean, sent = 0) => ({ sent, failed: 0, stopped, skipped: false });

/**
 * When the queue is sent again: a page reloaded offline may say it is online all along, so
 * no `online` event tells it the connection is back; a run the server did not answer is tried again
 * within seconds, not at the half-minute, and re-rendering the till does not send again at once.
 */
describe('useOutboxSync', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    sync.mockReset();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('after a run with no answer, sends again within 5 s (the server back, no online event)', async () => {
    sync.mockResolvedValueOnce(result(true)).mockResolvedValue(result(false, 1));
    renderHook(() => useOutboxSync(true, 1, false), { wrapper });
    await act(async () => {});
    expect(sync).toHaveBeenCalledTimes(1);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(PROBE_MS);
    });
    expect(sync).toHaveBeenCalledTimes(2);
  });

  it('after a run the server answered, waits the half-minute; a re-render sends nothing', async () => {
    sync.mockResolvedValue(result(false));
    const { rerender } = renderHook(() => useOutboxSync(true, 1, true), { wrapper });
    await act(async () => {});
    rerender();
    rerender();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(PROBE_MS * 2);
    });
    expect(sync).toHaveBeenCalledTimes(1);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(30_000);
    });
    expect(sync).toHaveBeenCalledTimes(2);
  });

  it('sends nothing offline or with nothing waiting', async () => {
    renderHook(() => useOutboxSync(false, 1), { wrapper });
    renderHook(() => useOutboxSync(true, 0), { wrapper });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(60_000);
    });
    expect(sync).not.toHaveBeenCalled();
  });
});
