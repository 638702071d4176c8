import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, NetworkError } from './http.ts';
import { noteReached, PROBE_MS, serverReached } from './reachability.ts';

/**
 * The till's "Online" comes back by itself once the server answers again (CI, offline.spec in
 * Khmer): a read that failed while the connection returned marked the server unreached, and in a tab
 * that made no write after it (the other tab sent the queue) nothing ever marked it reached again,
 * so the till said "Offline" while it sold online.
 */
describe('reachability', () => {
  const fetch = vi.fn<typeof globalThis.fetch>();
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal('fetch', fetch);
    fetch.mockReset();
    noteReached(true);
  });
  afterEach(() => {
    noteReached(true);
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('a read that got no answer marks the server unreached; it is asked again until it answers', async () => {
    fetch.mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(api('products')).rejects.toBeInstanceOf(NetworkError);
    expect(serverReached()).toBe(false);
    // still down at the first probe
    await vi.advanceTimersByTimeAsync(PROBE_MS);
    expect(serverReached()).toBe(false);
    // back: the next probe reaches it, past the service worker's kept answers
    fetch.mockResolvedValue(new Response('{"status":"ok"}'));
    await vi.advanceTimersByTimeAsync(PROBE_MS);
    expect(serverReached()).toBe(true);
    const [url, init] = fetch.mock.calls.at(-1) ?? [];
    expect(String(url)).toBe('/api/health');
    expect(init?.cache).toBe('no-store');
  });

  it('once reached, nothing more is asked', async () => {
    fetch.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(api('products')).rejects.toBeInstanceOf(NetworkError);
    fetch.mockResolvedValue(new Response('{"status":"ok"}'));
    await vi.advanceTimersByTimeAsync(PROBE_MS);
    expect(serverReached()).toBe(true);
    const asked = fetch.mock.calls.length;
    await vi.advanceTimersByTimeAsync(PROBE_MS * 5);
    expect(fetch.mock.calls.length).toBe(asked);
  });
});
