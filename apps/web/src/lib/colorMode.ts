import { useSyncExternalStore } from 'react';

export const COLOR_MODES = ['light', 'dark', 'system'] as const;
export type ColorMode = (typeof COLOR_MODES)[number];
export type ResolvedColorMode = 'light' | 'dark';

export const COLOR_MODE_KEY = 'color_mode';
export const DARK_CLASS = 'p-dark';

function isColorMode(value: unknown): value is ColorMode {
  return typeof value === 'string' && (COLOR_MODES as readonly string[]).includes(value);
}

const listeners = new Set<() => void>();

function subscribePreference(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === COLOR_MODE_KEY || event.key === null) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function getColorModePreference(): ColorMode {
  const stored = localStorage.getItem(COLOR_MODE_KEY);
  return isColorMode(stored) ? stored : 'system';
}

export function setColorModePreference(mode: ColorMode): void {
  localStorage.setItem(COLOR_MODE_KEY, mode);
  for (const listener of listeners) listener();
}

export function useColorModePreference(): ColorMode {
  return useSyncExternalStore(subscribePreference, getColorModePreference, () => 'system');
}

const DARK_QUERY = '(prefers-color-scheme: dark)';
const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

/** Each query's subscription, made once: a new one each render would drop and add its listener again. */
const subscriptions = new Map<string, (listener: () => void) => () => void>();

function subscribeMedia(media: string): (listener: () => void) => () => void {
  let subscribe = subscriptions.get(media);
  if (!subscribe) {
    subscribe = (listener) => {
      const query = window.matchMedia(media);
      query.addEventListener('change', listener);
      return () => query.removeEventListener('change', listener);
    };
    subscriptions.set(media, subscribe);
  }
  return subscribe;
}

/** Whether a media query of the device matches, followed live. */
function useMediaQuery(media: string): boolean {
  return useSyncExternalStore(
    subscribeMedia(media),
    () => window.matchMedia(media).matches,
    () => false,
  );
}

/** Follows the device setting live. */
export function useSystemPrefersDark(): boolean {
  return useMediaQuery(DARK_QUERY);
}

/**
 * The device asks for less motion (an accessibility setting: motion can make some people unwell):
 * antd's fades and slides are turned off (Root), followed live.
 */
export function useSystemPrefersReducedMotion(): boolean {
  return useMediaQuery(REDUCED_MOTION_QUERY);
}

/**
 * A page's forced mode wins, then the settings' permission to use dark at all, then the user's
 * choice (system follows the device).
 */
export function resolveColorMode(options: {
  forced?: ColorMode;
  darkAllowed: boolean;
  preference: ColorMode;
  systemDark: boolean;
}): ResolvedColorMode {
  const { forced, darkAllowed, preference, systemDark } = options;
  const wanted = forced ?? preference;
  if (!darkAllowed) return 'light';
  if (wanted === 'system') return systemDark ? 'dark' : 'light';
  return wanted;
}

export function applyColorModeClass(mode: ResolvedColorMode): void {
  document.documentElement.classList.toggle(DARK_CLASS, mode === 'dark');
}
