import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderApp, signedIn } from '../test/render.tsx';
import { type Page, pages } from './router.tsx';

const original = pages['/dashboards'];
afterEach(() => {
  pages['/dashboards'] = original as Page;
});

function Broken(): never {
  throw new Error('boom');
}

describe('error page', () => {
  it('shows "Internal Server Error" when a screen fails to render, inside the layout', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    pages['/dashboards'] = { Component: Broken };
    mockFetch();
    signedIn();
    renderApp('/en/dashboards');
    const page = await screen.findByTestId('page-server-error');
    expect(page.textContent).toContain('Internal Server Error');
    // The menu is still there to go somewhere else.
    expect(screen.getByTestId('side-menu')).toBeTruthy();
  });

  it('says it in Khmer on Khmer pages', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    pages['/dashboards'] = { Component: Broken };
    mockFetch();
    signedIn();
    renderApp('/dashboards');
    expect((await screen.findByTestId('page-server-error')).textContent).toContain('កំហុសប្រព័ន្ធខាងក្នុង');
  });

  it('does not reload again for a missing chunk within the guard period', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    pages['/dashboards'] = {
      lazy: () => Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/x.js')),
    };
    // A reload happened a moment ago; a second one now could loop.
    const reloadedAt = String(Date.now() - 1000);
    sessionStorage.setItem('depot.chunk_reload_at', reloadedAt);
    mockFetch();
    signedIn();
    renderApp('/en/dashboards');
    expect(await screen.findByTestId('page-server-error')).toBeTruthy();
    expect(sessionStorage.getItem('depot.chunk_reload_at')).toBe(reloadedAt);
  });
});
