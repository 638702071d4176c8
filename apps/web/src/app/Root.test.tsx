import { currentNumerals, DEFAULT_SETTINGS, SCREENS } from '@depot/contracts';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SETTINGS_KEY } from '../lib/settings.ts';
import { mockFetch, renderApp, signedIn } from '../test/render.tsx';
import { BUILD_ID } from './NewVersionNotice.tsx';
import { FIRST_SETTINGS_WAIT_MS } from './Root.tsx';
import { pages } from './router.tsx';

describe('system settings', () => {
  it('titles the page and the login card from the settings, with their footer', async () => {
    mockFetch({
      'GET settings/public': {
        body: {
          data: {
            ...DEFAULT_SETTINGS,
            system_title: 'Depot Kampot',
            system_title_kh: 'ឃ្លាំងកំពត',
            footer_text: '© Kampot Depot 2026',
          },
        },
      },
    });
    renderApp('/login');
    // Khmer pages carry the Khmer title
    await waitFor(() => expect(screen.getByTestId('app-title').textContent).toBe('ឃ្លាំងកំពត'));
    expect(screen.getByTestId('app-footer').textContent).toBe('© Kampot Depot 2026');
    expect(document.title).toBe('ឃ្លាំងកំពត');
  });

  it('titles English pages with the English title', async () => {
    mockFetch({
      'GET settings/public': {
        body: { data: { ...DEFAULT_SETTINGS, system_title: 'Depot Kampot', system_title_kh: 'ឃ្លាំងកំពត' } },
      },
    });
    renderApp('/en/login');
    await waitFor(() => expect(screen.getByTestId('app-title').textContent).toBe('Depot Kampot'));
    expect(document.title).toBe('Depot Kampot');
  });

  it('says so when they fail to load, and carries on with the defaults', async () => {
    mockFetch({ 'GET settings/public': { status: 500, body: { message: 'Server Error', request_id: 'x' } } });
    renderApp('/en/login');
    expect(await screen.findByText('Failed to load system settings')).toBeTruthy();
    expect(screen.getByTestId('app-title').textContent).toBe(DEFAULT_SETTINGS.system_title);
    expect(screen.getByTestId('login-form')).toBeTruthy();
  });
});

/** The settings' answer held back until `release` (a slow connection); the rest as `mockFetch`. */
function slowSettings(data: typeof DEFAULT_SETTINGS) {
  const { fetchMock } = mockFetch({ 'GET settings/public': { body: { data } } });
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    if (String(input).endsWith('/settings/public')) await released;
    return fetchMock(input, init);
  });
  return { release: () => act(release) };
}

describe('settings on a slow connection', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps what a cashier typed on the sign-in page when the settings come and turn Khmer numerals on', async () => {
    await import('../pages/LoginPage.tsx'); // loaded already: nothing else holds the form back
    const { release } = slowSettings({ ...DEFAULT_SETTINGS, khmer_numerals: true });
    const { user } = renderApp('/login');
    // typed as soon as the form shows: before the settings come if it shows before them
    const early = await screen.findByTestId('login-name', undefined, { timeout: 1000 }).catch(() => null);
    if (early) await user.type(early, 'dara');
    await release();
    if (!early) await user.type(await screen.findByTestId('login-name'), 'dara');
    await waitFor(() => expect(currentNumerals()).toBe('khmer'));
    expect(screen.getByTestId('login-name')).toHaveProperty('value', 'dara');
  });

  it('starts with the settings this browser read before, and remembers the new ones', async () => {
    localStorage.setItem(
      SETTINGS_KEY,
      JSON.stringify({ ...DEFAULT_SETTINGS, system_title: 'Depot Kampot', system_title_kh: 'ឃ្លាំងកំពត' }),
    );
    const { release } = slowSettings({ ...DEFAULT_SETTINGS, system_title: 'Depot Kep', system_title_kh: 'ឃ្លាំងកែប' });
    renderApp('/en/login');
    // the sign-in form at once, under the depot's title, while the settings are still on their way
    await screen.findByTestId('login-form');
    expect(screen.getByTestId('app-title').textContent).toBe('Depot Kampot');
    await release();
    await waitFor(() => expect(screen.getByTestId('app-title').textContent).toBe('Depot Kep'));
    expect(JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? '{}').system_title).toBe('Depot Kep');
  });

  it('waits for the first settings, and draws the page with the defaults when they are too long in coming', async () => {
    await import('../pages/LoginPage.tsx');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    slowSettings(DEFAULT_SETTINGS);
    renderApp('/en/login');
    expect(await screen.findByText('Loading…')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(FIRST_SETTINGS_WAIT_MS - 100));
    expect(screen.queryByTestId('login-form')).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(await screen.findByTestId('login-form')).toBeTruthy();
    expect(screen.getByTestId('app-title').textContent).toBe(DEFAULT_SETTINGS.system_title);
  });
});

describe('new version', () => {
  it('offers a reload when the deployed build differs', async () => {
    const { calls } = mockFetch({ 'GET /builds/latest.json': { body: { id: 'a-newer-build', timestamp: 1 } } });
    renderApp('/en/login');
    const notice = await screen.findByTestId('new-version');
    expect(notice.textContent).toContain('A new version is available');
    expect(screen.getByTestId('new-version-reload')).toBeTruthy();
    expect(calls('GET /builds/latest.json').length).toBeGreaterThan(0);
  });

  it('stays quiet while the running build is the latest', async () => {
    const { calls } = mockFetch({ 'GET /builds/latest.json': { body: { id: BUILD_ID, timestamp: 1 } } });
    renderApp('/en/login');
    await screen.findByTestId('login-form');
    await waitFor(() => expect(calls('GET /builds/latest.json').length).toBeGreaterThan(0));
    expect(screen.queryByTestId('new-version')).toBeNull();
  });

  it('checks again when the tab comes back into view', async () => {
    let latest = BUILD_ID;
    const { calls } = mockFetch({ 'GET /builds/latest.json': () => ({ body: { id: latest, timestamp: 1 } }) });
    renderApp('/en/login');
    await waitFor(() => expect(calls('GET /builds/latest.json')).toHaveLength(1));
    latest = 'deployed-while-hidden';
    document.dispatchEvent(new Event('visibilitychange'));
    expect(await screen.findByTestId('new-version')).toBeTruthy();
  });
});

describe('screens', () => {
  it('every screen of the registry has a page', () => {
    expect(SCREENS.filter((screen) => !pages[screen.path]).map((screen) => screen.path)).toEqual([]);
  });

  it('a signed-in header shows the system title once', async () => {
    mockFetch();
    signedIn();
    renderApp('/en/dashboards');
    await screen.findByTestId('dashboard-user');
    expect(screen.getAllByTestId('app-title')).toHaveLength(1);
    expect(screen.getAllByTestId('app-footer')).toHaveLength(1);
  });
});
