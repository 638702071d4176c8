import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderApp, signedIn } from '../test/render.tsx';
import { Can, HasRole } from './access.tsx';
import { refresh, startRefreshTimer } from './auth.ts';
import { SESSION_KEYS, session } from './session.ts';

const renewed = { status: 'success', token: 'token-2', refresh_token: 'refresh-2', expires_in: 3600 };

// Without navigator.locks (jsdom has none) these run the refresh as before: no lock, jitter only.
describe('token refresh', () => {
  let stop: () => void = () => {};
  beforeEach(() => {
    // No jitter: the refresh is due exactly REFRESH_AHEAD_SECONDS (120 s) before expiry.
    vi.spyOn(Math, 'random').mockReturnValue(0);
    stop = startRefreshTimer();
  });
  afterEach(() => stop());

  it('renews the tokens shortly before they expire', async () => {
    const { calls } = mockFetch({ 'POST refresh': { body: renewed } });
    signedIn({ expires_in: 121 });
    renderApp('/en/dashboards');
    await screen.findByTestId('dashboard-user');
    await waitFor(() => expect(localStorage.getItem(SESSION_KEYS.token)).toBe('token-2'));
    expect(calls('POST refresh')[0].body).toEqual({ refresh_token: 'refresh-1' });
    expect(localStorage.getItem(SESSION_KEYS.refreshToken)).toBe('refresh-2');
    const expiresAt = Number(localStorage.getItem(SESSION_KEYS.expiresAt));
    expect(Math.abs(expiresAt - (Date.now() + 3600_000))).toBeLessThan(10_000);
    expect(screen.getByTestId('dashboard-user')).toBeTruthy();
  });

  it('signs out when the refresh is refused', async () => {
    mockFetch({ 'POST refresh': { status: 401, body: { status: 'error', message: 'Your session has ended.' } } });
    signedIn({ expires_in: 121 });
    const { path } = renderApp('/en/dashboards');
    await screen.findByTestId('dashboard-user');
    expect(await screen.findByTestId('login-form')).toBeTruthy();
    expect(path()).toBe('/en/login');
    expect(localStorage.getItem(SESSION_KEYS.token)).toBeNull();
  });

  it('keeps the session when a proxy answers 503 while the server restarts, and renews on the next try', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], shouldAdvanceTime: true });
    let tries = 0;
    mockFetch({
      'POST refresh': () => {
        tries += 1;
        return tries === 1 ? { status: 503, body: { message: 'Service Unavailable' } } : { body: renewed };
      },
    });
    signedIn({ expires_in: 121 });
    const { path } = renderApp('/en/dashboards');
    await screen.findByTestId('dashboard-user');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(tries).toBe(1);
    expect(localStorage.getItem(SESSION_KEYS.token)).toBe('token-1');
    await vi.advanceTimersByTimeAsync(5_000);
    await waitFor(() => expect(localStorage.getItem(SESSION_KEYS.token)).toBe('token-2'));
    expect(path()).toBe('/en/dashboards');
    vi.useRealTimers();
  });

  it('keeps the session when the connection drops, trying again after 5, 10 and 20 s', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], shouldAdvanceTime: true });
    const tries: number[] = [];
    const { calls } = mockFetch({
      'POST refresh': () => {
        tries.push(Date.now());
        return tries.length <= 3 ? { networkError: true } : { body: renewed };
      },
    });
    signedIn({ expires_in: 121 });
    const { path } = renderApp('/en/dashboards');
    await screen.findByTestId('dashboard-user');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(tries).toHaveLength(1);
    // No answer is not a refusal: the cashier stays signed in.
    expect(localStorage.getItem(SESSION_KEYS.token)).toBe('token-1');
    expect(path()).toBe('/en/dashboards');

    await vi.advanceTimersByTimeAsync(5_000);
    expect(tries).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(tries).toHaveLength(3);
    expect(screen.getByTestId('dashboard-user')).toBeTruthy();
    await vi.advanceTimersByTimeAsync(20_000);
    expect(tries).toHaveLength(4);

    const gaps = tries.slice(1).map((at, i) => at - tries[i]);
    for (const [gap, wanted] of gaps.map((gap, i) => [gap, [5_000, 10_000, 20_000][i]])) {
      expect(gap).toBeGreaterThanOrEqual(wanted);
      expect(gap).toBeLessThan(wanted + 500);
    }
    await waitFor(() => expect(localStorage.getItem(SESSION_KEYS.token)).toBe('token-2'));
    expect(calls('POST refresh').map((request) => request.body)).toEqual(Array(4).fill({ refresh_token: 'refresh-1' }));
    expect(path()).toBe('/en/dashboards');
  });

  it('tries again at once when the browser is back online', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], shouldAdvanceTime: true });
    let online = false;
    const { calls } = mockFetch({ 'POST refresh': () => (online ? { body: renewed } : { networkError: true }) });
    signedIn({ expires_in: 121 });
    renderApp('/en/dashboards');
    await screen.findByTestId('dashboard-user');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls('POST refresh')).toHaveLength(1);
    online = true;
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    await waitFor(() => expect(localStorage.getItem(SESSION_KEYS.token)).toBe('token-2'));
    expect(calls('POST refresh')).toHaveLength(2);
  });

  it('stops trying once the token expires, keeping the session until the next navigation', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], shouldAdvanceTime: true });
    const { calls } = mockFetch({ 'POST refresh': { networkError: true } });
    signedIn({ expires_in: 121 });
    const { router, path } = renderApp('/en/dashboards');
    await screen.findByTestId('dashboard-user');
    await vi.advanceTimersByTimeAsync(121_000);
    // Due 120 s ahead, then 5, 10, 20 and 40 s later, and a last try just before the expiry.
    expect(calls('POST refresh')).toHaveLength(6);
    await vi.advanceTimersByTimeAsync(600_000);
    expect(calls('POST refresh')).toHaveLength(6);
    expect(localStorage.getItem(SESSION_KEYS.token)).toBe('token-1');
    expect(path()).toBe('/en/dashboards');

    // The guard's own rule: an expired session goes to the login page.
    await act(() => router.navigate('/en/dashboards?again'));
    expect(await screen.findByTestId('login-form')).toBeTruthy();
    expect(path()).toBe('/en/login');
    expect(localStorage.getItem(SESSION_KEYS.token)).toBeNull();
  });
});

/** The Web Locks API, which jsdom lacks: one holder per name, the others wait in order. */
function installLocks() {
  const held = new Map<string, Promise<unknown>>();
  const request = vi.fn((name: string, task: () => Promise<unknown>) => {
    const turn = (held.get(name) ?? Promise.resolve()).then(() => task());
    held.set(
      name,
      turn.catch(() => {}),
    );
    return turn;
  });
  Object.defineProperty(navigator, 'locks', { configurable: true, value: { request } });
  return request;
}

describe('token refresh across tabs', () => {
  let stop: () => void = () => {};
  beforeEach(() => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    stop = startRefreshTimer();
  });
  afterEach(() => {
    stop();
    Reflect.deleteProperty(navigator, 'locks');
  });

  it("waits while another tab renews, then keeps that tab's tokens instead of spending the old one", async () => {
    const request = installLocks();
    let otherTabDone: () => void = () => {};
    // The other tab holds the lock: its refresh is on the way.
    void request('depot-refresh', () => new Promise<void>((resolve) => (otherTabDone = resolve)));
    const { calls } = mockFetch({ 'POST refresh': { body: renewed } });
    signedIn({ expires_in: 121 });
    renderApp('/en/dashboards');
    await screen.findByTestId('dashboard-user');
    await waitFor(() => expect(request).toHaveBeenCalledTimes(2));
    expect(request.mock.calls[1][0]).toBe('depot-refresh');

    // It renews and lets go; its storage event has not reached this tab yet.
    localStorage.setItem(SESSION_KEYS.token, 'token-other');
    localStorage.setItem(SESSION_KEYS.refreshToken, 'refresh-other');
    localStorage.setItem(SESSION_KEYS.expiresAt, String(Date.now() + 3600_000));
    otherTabDone();

    await waitFor(() => expect(session.get().token).toBe('token-other'));
    expect(calls('POST refresh')).toHaveLength(0);
    expect(localStorage.getItem(SESSION_KEYS.refreshToken)).toBe('refresh-other');
    expect(screen.getByTestId('dashboard-user')).toBeTruthy();
  });

  it('spends a refresh token once when two tabs refresh at the same moment', async () => {
    installLocks();
    const { calls } = mockFetch({ 'POST refresh': { body: renewed } });
    signedIn({ expires_in: 3600 });
    // Two tabs share localStorage; both found the token due.
    const outcomes = await Promise.all([refresh(), refresh()]);
    expect(calls('POST refresh')).toHaveLength(1);
    expect(outcomes).toEqual(['renewed', 'skipped']);
    expect(localStorage.getItem(SESSION_KEYS.refreshToken)).toBe('refresh-2');
  });
});

describe('Can and HasRole', () => {
  function Panel() {
    return (
      <>
        <Can permission="users.create">
          <button type="button">New user</button>
        </Can>
        {/* biome-ignore lint/a11y/useValidAriaRole: `role` here names a user role, not an ARIA one */}
        <HasRole role="cashier">
          <button type="button">Open till</button>
        </HasRole>
      </>
    );
  }

  it('show what the stored permissions and roles allow', () => {
    signedIn({ permissions: ['users.create'], roles: ['cashier'] });
    render(<Panel />);
    expect(screen.getByRole('button', { name: 'New user' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Open till' })).toBeTruthy();
  });

  it('render nothing otherwise', () => {
    signedIn({ permissions: ['users.list'], roles: ['stock_keeper'] });
    render(<Panel />);
    expect(screen.queryByRole('button', { name: 'New user' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Open till' })).toBeNull();
  });
});
