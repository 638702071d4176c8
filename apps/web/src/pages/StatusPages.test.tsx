import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Page, pages } from '../app/router.tsx';
import { mockFetch, renderApp, signedIn } from '../test/render.tsx';

const dashboard = pages['/dashboards'];
afterEach(() => {
  pages['/dashboards'] = dashboard as Page;
});

/** What a Khmer reader would meet: the text, the SVG titles and every accessible label. */
function latinIn(page: HTMLElement, except = ''): string[] {
  const hidden = [...page.querySelectorAll('[aria-hidden="true"]')];
  const labels = [...page.querySelectorAll('[aria-label], [title]')]
    .filter((element) => !hidden.some((parent) => parent.contains(element)))
    .flatMap((element) => [element.getAttribute('aria-label') ?? '', element.getAttribute('title') ?? '']);
  return [(page.textContent ?? '').replace(except, ''), ...labels].filter((text) => /[A-Za-z]/.test(text));
}

describe('status pages in Khmer', () => {
  it('the not-found page shows an icon and no English', async () => {
    mockFetch();
    renderApp('/stock-count');
    const page = await screen.findByTestId('page-not-found');
    expect(page.textContent).toContain('រកមិនឃើញទំព័រ');
    expect(page.querySelector('svg')).toBeTruthy();
    // The path asked for is the one Latin thing the page may show.
    expect(latinIn(page, '/stock-count')).toEqual([]);
  });

  it('the no-permission page shows an icon and no English', async () => {
    mockFetch();
    renderApp('/no-permission');
    const page = await screen.findByTestId('page-no-permission');
    expect(page.textContent).toContain('គ្មានសិទ្ធិចូលប្រើ');
    expect(page.querySelector('svg')).toBeTruthy();
    expect(latinIn(page)).toEqual([]);
  });

  it('the server-error page shows an icon and no English', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    pages['/dashboards'] = {
      Component: () => {
        throw new Error('boom');
      },
    };
    mockFetch();
    signedIn();
    renderApp('/dashboards');
    const page = await screen.findByTestId('page-server-error');
    expect(page.textContent).toContain('កំហុសប្រព័ន្ធខាងក្នុង');
    expect(page.querySelector('svg')).toBeTruthy();
    expect(latinIn(page)).toEqual([]);
  });
});
