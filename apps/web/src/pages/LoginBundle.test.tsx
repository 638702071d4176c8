import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { mockFetch, renderApp, signedIn } from '../test/render.tsx';

// Records which modules have been evaluated: the sign-in page is the one every cashier waits for.
const loaded = vi.hoisted(() => new Set<string>());
vi.mock('../lib/dates.ts', async (importOriginal) => {
  loaded.add('dates');
  return importOriginal();
});

describe('what the sign-in page loads', () => {
  it('leaves dayjs to the screens that show dates', async () => {
    mockFetch({ 'GET settings/public': { status: 500, body: { message: 'Server Error' } } });
    renderApp('/login');
    await screen.findByTestId('login-form');
    // Failed settings say so without antd's message toast (and its notification code).
    expect(await screen.findByTestId('settings-failed')).toBeTruthy();
    expect(document.querySelector('.ant-message')).toBeNull();
    expect(loaded.has('dates')).toBe(false);
  });

  it('loads it with a screen that shows dates (the inbox)', async () => {
    mockFetch({
      'GET notifications': { body: { data: [], meta: { current_page: 1, last_page: 1, per_page: 20, total: 0 } } },
    });
    signedIn();
    renderApp('/notifications');
    await vi.waitFor(() => expect(loaded.has('dates')).toBe(true), { timeout: 10_000 });
  });
});
