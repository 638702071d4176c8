import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderApp, signedIn } from '../test/render.tsx';
import { Can, HasRole } from './access.tsx';
import { startRefreshTimer } from './auth.ts';
import { SESSION_KEYS } from './session.ts';

describe('token refresh', () => {
  let stop: () => void = () => {};
  beforeEach(() => {
    // No jitter: the refresh is due exactly REFRESH_AHEAD_SECONDS (120 s) before expiry.
    vi.spyOn(Math, 'random').mockReturnValue(0);
    stop = startRefreshTimer();
  });
  afterEach(() => stop());

  it('renews the tokens shortly before they expire', async () => {
    const { calls } = mockFetch({
      'POST refresh': { body: { status: 'success', token: 'token-2', refresh_token: 'refresh-2', expires_in: 3600 } },
    });
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

  it('signs out when the refresh cannot reach the server', async () => {
    mockFetch({ 'POST refresh': { networkError: true } });
    signedIn({ expires_in: 121 });
    const { path } = renderApp('/dashboards');
    await screen.findByTestId('dashboard-user');
    expect(await screen.findByTestId('login-form')).toBeTruthy();
    expect(path()).toBe('/login');
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
