import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { SESSION_KEYS } from '../lib/session.ts';
import { loginAnswer, mockFetch, renderApp } from '../test/render.tsx';

/** What a screen reader reads as the field's message (its `aria-describedby`), as the page shows it. */
function fieldOf(input: HTMLElement): HTMLElement {
  const id = input.getAttribute('aria-describedby');
  return (id && document.getElementById(id)) || document.createElement('div');
}

describe('login form', () => {
  it('asks for both fields in Khmer when sent empty', async () => {
    const { seen } = mockFetch();
    const { user } = renderApp('/login');
    await user.click(await screen.findByTestId('login-submit'));
    await vi.waitFor(() => expect(fieldOf(screen.getByTestId('login-name')).textContent).toBe('ប្រអប់នេះត្រូវតែបំពេញ!'));
    expect(fieldOf(screen.getByTestId('login-password')).textContent).toBe('ប្រអប់នេះត្រូវតែបំពេញ!');
    expect(screen.getByTestId('login-name').getAttribute('aria-invalid')).toBe('true');
    // the first field to fix has the focus
    expect(document.activeElement).toBe(screen.getByTestId('login-name'));
    expect(seen.filter((r) => r.path === 'login')).toHaveLength(0);
  });

  it('asks for both fields in English when sent empty', async () => {
    mockFetch();
    const { user } = renderApp('/en/login');
    await user.click(await screen.findByTestId('login-submit'));
    await vi.waitFor(() =>
      expect(fieldOf(screen.getByTestId('login-name')).textContent).toBe('This field is required!'),
    );
    expect(fieldOf(screen.getByTestId('login-password')).textContent).toBe('This field is required!');
  });

  it('treats a name of spaces as missing, like the server does', async () => {
    mockFetch();
    const { user } = renderApp('/en/login');
    await user.type(await screen.findByTestId('login-name'), '   ');
    await user.type(screen.getByTestId('login-password'), 'secret123');
    await user.click(screen.getByTestId('login-submit'));
    await vi.waitFor(() =>
      expect(fieldOf(screen.getByTestId('login-name')).textContent).toBe('This field is required!'),
    );
    expect(fieldOf(screen.getByTestId('login-password')).textContent).toBe('');
  });

  it("shows the server's refusal in the alert and stays on the page", async () => {
    const { calls } = mockFetch({
      'POST login': { status: 401, body: { status: 'error', message: 'Username or password is incorrect.' } },
    });
    const { user, path } = renderApp('/en/login');
    await user.type(await screen.findByTestId('login-name'), 'admin');
    await user.type(screen.getByTestId('login-password'), 'wrong-password');
    await user.click(screen.getByTestId('login-submit'));
    const alert = await screen.findByTestId('login-error');
    expect(alert.textContent).toContain('Username or password is incorrect.');
    expect(path()).toBe('/en/login');
    // The server localizes by the header, so the request must say which language the page is in.
    const [request] = calls('POST login');
    expect(request.body).toEqual({ name: 'admin', password: 'wrong-password' });
    expect(request.headers['x-localization']).toBe('en');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers.accept).toBe('application/json');
  });

  it('puts 422 errors from the server on their fields', async () => {
    mockFetch({
      'POST login': {
        status: 422,
        body: {
          message: 'The given data was invalid.',
          errors: { name: ['Must be at most 100 characters.'], password: ['Must be at most 200 characters.'] },
        },
      },
    });
    const { user } = renderApp('/en/login');
    await user.type(await screen.findByTestId('login-name'), 'admin');
    await user.type(screen.getByTestId('login-password'), 'secret123');
    await user.click(screen.getByTestId('login-submit'));
    await vi.waitFor(() =>
      expect(fieldOf(screen.getByTestId('login-name')).textContent).toBe('Must be at most 100 characters.'),
    );
    expect(fieldOf(screen.getByTestId('login-password')).textContent).toBe('Must be at most 200 characters.');
    expect(screen.queryByTestId('login-error')).toBeNull();
  });

  it('shows a localized message when the server cannot be reached', async () => {
    mockFetch({ 'POST login': { networkError: true } });
    const { user } = renderApp('/login');
    await user.type(await screen.findByTestId('login-name'), 'admin');
    await user.type(screen.getByTestId('login-password'), 'secret123');
    await user.click(screen.getByTestId('login-submit'));
    expect((await screen.findByTestId('login-error')).textContent).toContain('មានបញ្ហាកើតឡើង។ សូមព្យាយាមម្ដងទៀត។');
  });

  it('signs in, keeps the session and opens the dashboard', async () => {
    const { calls } = mockFetch({ 'POST login': { body: loginAnswer() } });
    const { user, path } = renderApp('/en/login');
    await user.type(await screen.findByTestId('login-name'), '  admin ');
    await user.type(screen.getByTestId('login-password'), 'admin12345');
    const before = Date.now();
    await user.click(screen.getByTestId('login-submit'));
    expect((await screen.findByTestId('dashboard-user', {}, { timeout: 10_000 })).textContent).toContain('admin');
    const after = Date.now();
    expect(path()).toBe('/en/dashboards');
    expect(calls('POST login')[0].body).toEqual({ name: 'admin', password: 'admin12345' });
    expect(localStorage.getItem(SESSION_KEYS.token)).toBe('token-1');
    expect(localStorage.getItem(SESSION_KEYS.refreshToken)).toBe('refresh-1');
    expect(localStorage.getItem(SESSION_KEYS.userName)).toBe('admin');
    expect(localStorage.getItem(SESSION_KEYS.userId)).toBe('1');
    expect(localStorage.getItem(SESSION_KEYS.store)).toBe('Phnom Penh Depot');
    expect(localStorage.getItem(SESSION_KEYS.avatar)).toBe('/media/admin.png');
    expect(JSON.parse(localStorage.getItem(SESSION_KEYS.permissions) ?? '[]')).toEqual(['dashboards.view']);
    expect(JSON.parse(localStorage.getItem(SESSION_KEYS.roles) ?? '[]')).toEqual(['administrator']);
    const expiresAt = Number(localStorage.getItem(SESSION_KEYS.expiresAt));
    expect(expiresAt).toBeGreaterThanOrEqual(before + 3600_000);
    expect(expiresAt).toBeLessThanOrEqual(after + 3600_000);
    // Signed in, the dashboard call carries the token.
    expect(calls('GET dashboard')[0].headers.authorization).toBe('Bearer token-1');
  });

  it('opens the till, not the dashboard, for a cashier (may sell, may not read reports)', async () => {
    mockFetch({ 'POST login': { body: loginAnswer({ permissions: ['orders.create', 'dashboards.view'] }) } });
    const { user, path } = renderApp('/en/login');
    await user.type(await screen.findByTestId('login-name'), 'cashier');
    await user.type(screen.getByTestId('login-password'), 'cashier123');
    await user.click(screen.getByTestId('login-submit'));
    await vi.waitFor(() => expect(path()).toBe('/en/pos'), { timeout: 10_000 });
  });
});
