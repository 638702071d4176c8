import { DEFAULT_SETTINGS } from '@depot/contracts';
import { act, renderHook, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { mockFetch, renderApp } from '../test/render.tsx';
import { setSystemDark } from '../test/setup.ts';
import { COLOR_MODE_KEY, resolveColorMode, useSystemPrefersDark } from './colorMode.ts';

const isDark = () => document.documentElement.classList.contains('p-dark');

describe('colour mode', () => {
  it('turns dark on and off from the switch and remembers the choice', async () => {
    mockFetch();
    const { user } = renderApp('/login');
    await screen.findByTestId('color-mode');
    expect(isDark()).toBe(false);

    await user.click(screen.getByTestId('color-mode-dark'));
    await waitFor(() => expect(isDark()).toBe(true));
    expect(localStorage.getItem(COLOR_MODE_KEY)).toBe('dark');

    await user.click(screen.getByTestId('color-mode-light'));
    await waitFor(() => expect(isDark()).toBe(false));
    expect(localStorage.getItem(COLOR_MODE_KEY)).toBe('light');
  });

  it('follows the device live when set to system', async () => {
    mockFetch();
    localStorage.setItem(COLOR_MODE_KEY, 'light');
    const { user } = renderApp('/en/login');
    await user.click(await screen.findByTestId('color-mode-system'));
    expect(isDark()).toBe(false);
    act(() => setSystemDark(true));
    await waitFor(() => expect(isDark()).toBe(true));
    act(() => setSystemDark(false));
    await waitFor(() => expect(isDark()).toBe(false));
  });

  it('listens to the device once, not again at each render', () => {
    const matchMedia = window.matchMedia.bind(window);
    let added = 0;
    vi.spyOn(window, 'matchMedia').mockImplementation((query) => {
      const list = matchMedia(query);
      const add = list.addEventListener.bind(list);
      list.addEventListener = ((...args: Parameters<typeof add>) => {
        added += 1;
        add(...args);
      }) as typeof list.addEventListener;
      return list;
    });
    const { result, rerender } = renderHook(() => useSystemPrefersDark());
    for (let i = 0; i < 5; i += 1) rerender();
    expect(added).toBe(1);
    act(() => setSystemDark(true));
    expect(result.current).toBe(true);
  });

  it('starts from the saved choice', async () => {
    mockFetch();
    localStorage.setItem(COLOR_MODE_KEY, 'dark');
    renderApp('/login');
    await screen.findByTestId('login-form');
    expect(isDark()).toBe(true);
  });

  it('hides the switch and stays light when the settings forbid dark mode', async () => {
    mockFetch({ 'GET settings/public': { body: { data: { ...DEFAULT_SETTINGS, dark_mode: false } } } });
    localStorage.setItem(COLOR_MODE_KEY, 'dark');
    renderApp('/login');
    await screen.findByTestId('login-form');
    await waitFor(() => expect(isDark()).toBe(false));
    expect(screen.queryByTestId('color-mode')).toBeNull();
    expect(screen.getByTestId('lang-switch')).toBeTruthy();
  });

  it('lets a page force a mode over the saved choice', () => {
    expect(resolveColorMode({ forced: 'light', darkAllowed: true, preference: 'dark', systemDark: true })).toBe(
      'light',
    );
    expect(resolveColorMode({ forced: 'dark', darkAllowed: true, preference: 'light', systemDark: false })).toBe(
      'dark',
    );
    expect(resolveColorMode({ darkAllowed: true, preference: 'system', systemDark: true })).toBe('dark');
    expect(resolveColorMode({ forced: 'dark', darkAllowed: false, preference: 'dark', systemDark: true })).toBe(
      'light',
    );
  });
});
