import { DEFAULT_SETTINGS, SCREENS } from '@depot/contracts';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, renderApp, signedIn } from '../test/render.tsx';
import { BUILD_ID } from './NewVersionNotice.tsx';
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
