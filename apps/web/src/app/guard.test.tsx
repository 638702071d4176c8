import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { enqueueSale, queuedSales } from '../lib/offline/outbox.ts';
import { SESSION_KEYS } from '../lib/session.ts';
import { mockFetch, renderApp, signedIn } from '../test/render.tsx';

describe('route guard', () => {
  it('sends an expired session to /login and forgets it', async () => {
    mockFetch();
    signedIn({}, Date.now() - 3601_000);
    const { path } = renderApp('/dashboards');
    expect(await screen.findByTestId('login-form')).toBeTruthy();
    expect(path()).toBe('/login');
    expect(localStorage.getItem(SESSION_KEYS.token)).toBeNull();
    expect(localStorage.getItem(SESSION_KEYS.permissions)).toBeNull();
  });

  it('keeps the language on the way to /login', async () => {
    mockFetch();
    const { path } = renderApp('/en/dashboards');
    expect(await screen.findByTestId('login-form')).toBeTruthy();
    expect(path()).toBe('/en/login');
    expect(screen.getByTestId('login-submit').textContent).toBe('Sign in');
  });

  it('sends a user without the permission to /no-permission', async () => {
    mockFetch();
    signedIn({ permissions: ['profiles.view'] });
    const { path } = renderApp('/en/dashboards');
    const page = await screen.findByTestId('page-no-permission');
    expect(page.textContent).toContain('No permission');
    expect(path()).toBe('/en/no-permission');
  });

  it('sends a signed-in user away from /login to the dashboard', async () => {
    mockFetch();
    signedIn();
    const { path } = renderApp('/login');
    expect(await screen.findByTestId('dashboard-user')).toBeTruthy();
    expect(path()).toBe('/dashboards');
  });

  it('opens the dashboard from / and /app, keeping the prefix', async () => {
    mockFetch();
    signedIn();
    const { path } = renderApp('/en/app');
    expect(await screen.findByTestId('dashboard-user')).toBeTruthy();
    expect(path()).toBe('/en/dashboards');
  });

  it('opens the till from / for a cashier, the dashboard for one who reads reports', async () => {
    mockFetch();
    signedIn({ permissions: ['orders.create', 'dashboards.view'] });
    const till = renderApp('/en/');
    await waitFor(() => expect(till.path()).toBe('/en/pos'));
    till.unmount();
    signedIn({ permissions: ['orders.create', 'reports.view', 'dashboards.view'] });
    const boss = renderApp('/en/');
    await waitFor(() => expect(boss.path()).toBe('/en/dashboards'));
  });

  it('shows "Page Not Found" and the path for an unknown address', async () => {
    mockFetch();
    renderApp('/en/no/such/page');
    const page = await screen.findByTestId('page-not-found');
    expect(page.textContent).toContain('Page Not Found');
    expect(page.textContent).toContain('/en/no/such/page');
  });

  it('says the same in Khmer', async () => {
    mockFetch();
    renderApp('/stock-count');
    const page = await screen.findByTestId('page-not-found');
    expect(page.textContent).toContain('រកមិនឃើញទំព័រ');
    expect(page.textContent).toContain('/stock-count');
  });

  it('signs out when any call answers 401', async () => {
    mockFetch({ 'GET dashboard': { status: 401, body: { message: 'Unauthenticated.' } } });
    signedIn();
    const { path } = renderApp('/dashboards');
    expect(await screen.findByTestId('login-form')).toBeTruthy();
    expect(path()).toBe('/login');
    expect(localStorage.getItem(SESSION_KEYS.token)).toBeNull();
  });

  it('treats a malformed answer as a failed load, with a retry', async () => {
    mockFetch({ 'GET dashboard': { body: { data: { unexpected: true } } } });
    signedIn();
    renderApp('/en/dashboards');
    // A malformed answer is a load failure, not a crash: the page offers a retry.
    expect(await screen.findByText('Failed to load data')).toBeTruthy();
  });
});

describe('logout', () => {
  it('clears the stored session when the server confirms', async () => {
    const { calls } = mockFetch({ 'POST logout': { body: { message: 'You have been signed out.' } } });
    signedIn();
    const { user, path } = renderApp('/en/dashboards');
    await user.click(await screen.findByTestId('user-menu'));
    await user.click(await screen.findByTestId('logout'));
    expect(await screen.findByTestId('login-form')).toBeTruthy();
    expect(path()).toBe('/en/login');
    expect(calls('POST logout')[0].headers.authorization).toBe('Bearer token-1');
    for (const key of Object.values(SESSION_KEYS)) expect(localStorage.getItem(key)).toBeNull();
  });

  it('with sales kept offline, asks first, and the sales stay on the device', async () => {
    const { calls } = mockFetch({ 'POST logout': { body: { message: 'You have been signed out.' } } });
    await enqueueSale({ key: 'kept-1', body: {}, total_cents: 100, user: { id: 1, name: 'Admin' }, tried: false });
    await enqueueSale({ key: 'kept-2', body: {}, total_cents: 200, user: { id: 1, name: 'Admin' }, tried: false });
    signedIn();
    const { user, path } = renderApp('/en/dashboards');
    await user.click(await screen.findByTestId('user-menu'));
    await user.click(await screen.findByTestId('logout'));
    expect((await screen.findAllByText(/Sales on this device not synced yet: 2\./)).length).toBeGreaterThan(0);
    // nothing is signed out until the cashier says so
    expect(path()).toBe('/en/dashboards');
    expect(calls('POST logout')).toHaveLength(0);
    await user.click(screen.getByTestId('logout-confirm'));
    expect(await screen.findByTestId('login-form')).toBeTruthy();
    expect(calls('POST logout')).toHaveLength(1);
    expect(await queuedSales()).toHaveLength(2);
  });

  it('without an answer, flags the session signed out but keeps its data', async () => {
    mockFetch({ 'POST logout': { networkError: true } });
    signedIn();
    const { user, path } = renderApp('/dashboards');
    await user.click(await screen.findByTestId('user-menu'));
    await user.click(await screen.findByTestId('logout'));
    expect(await screen.findByTestId('login-form')).toBeTruthy();
    expect(path()).toBe('/login');
    expect(localStorage.getItem(SESSION_KEYS.token)).toBe('token-1');
    expect(localStorage.getItem(SESSION_KEYS.signedOut)).toBe('1');
  });
});

describe('user menu', () => {
  it('shows who is signed in and at which store', async () => {
    mockFetch();
    signedIn();
    renderApp('/en/dashboards');
    const trigger = await screen.findByTestId('user-menu');
    await waitFor(() => expect(trigger.textContent).toContain('admin'));
    expect(trigger.textContent).toContain('Phnom Penh Depot');
  });
});

describe('another tab', () => {
  it('signing out there leaves the screen here', async () => {
    mockFetch();
    signedIn();
    const { path } = renderApp('/en/dashboards');
    await screen.findByTestId('dashboard-user');
    // What the other tab's logout leaves behind, as this tab's storage event reports it.
    localStorage.clear();
    window.dispatchEvent(new StorageEvent('storage', { key: null }));
    expect(await screen.findByTestId('login-form')).toBeTruthy();
    expect(path()).toBe('/en/login');
  });
});
