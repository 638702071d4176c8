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

  /** A read the server does not answer (the connection is down). */
  async function aReadGetsNoAnswer(): Promise<void> {
    fetch.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(api('products')).rejects.toBeInstanceOf(NetworkError);
  }

  /** No check is asked in the next rounds, and none waits to be. */
  async function expectNothingMoreAsked(): Promise<void> {
    const asked = fetch.mock.calls.length;
    await vi.advanceTimersByTimeAsync(PROBE_MS * 5);
    expect(fetch.mock.calls.length).toBe(asked);
    expect(vi.getTimerCount()).toBe(0);
  }

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
    await aReadGetsNoAnswer();
    fetch.mockResolvedValue(new Response('{"status":"ok"}'));
    await vi.advanceTimersByTimeAsync(PROBE_MS);
    expect(serverReached()).toBe(true);
    await expectNothingMoreAsked();
  });

  it('a write answered while the checks wait stops them', async () => {
    await aReadGetsNoAnswer();
    fetch.mockResolvedValue(new Response('{}'));
    await api('orders', { method: 'POST', body: {} });
    expect(serverReached()).toBe(true);
    // at once: nothing is left waiting (a test's fake timers dropped with it would leave the
    // checks started for good, and a later failure would start none)
    expect(vi.getTimerCount()).toBe(0);
    await expectNothingMoreAsked();
  });

  it('a request that fails while the health check is asked keeps the server unreached', async () => {
    await aReadGetsNoAnswer();
    // the health check answers late; a read fails in the meantime
    let answer: (response: Response) => void = () => {};
    fetch.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    await vi.advanceTimersByTimeAsync(PROBE_MS);
    fetch.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(api('customers')).rejects.toBeInstanceOf(NetworkError);
    answer(new Response('{"status":"ok"}'));
    await vi.advanceTimersByTimeAsync(0);
    expect(serverReached()).toBe(false);
    // the next check, with nothing failing meanwhile, counts
    fetch.mockResolvedValue(new Response('{"status":"ok"}'));
    await vi.advanceTimersByTimeAsync(PROBE_MS);
    expect(serverReached()).toBe(true);
  });

  it("an answer that is not the server (a proxy's 502) does not count", async () => {
    await aReadGetsNoAnswer();
    fetch.mockResolvedValueOnce(new Response('Bad Gateway', { status: 502 }));
    await vi.advanceTimersByTimeAsync(PROBE_MS);
    expect(serverReached()).toBe(false);
    fetch.mockResolvedValue(new Response('{"status":"ok"}'));
    await vi.advanceTimersByTimeAsync(PROBE_MS);
    expect(serverReached()).toBe(true);
  });
});
