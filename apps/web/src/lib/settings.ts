import {
  appEvent,
  channelNames,
  DEFAULT_SETTINGS,
  type PublicSettings,
  publicSettings,
  publicSettingsResponse,
  titleOf,
} from '@depot/contracts';
import { type QueryClient, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'react-router';
import { api } from './http.ts';
import { localeFromPath } from './locale.ts';
import { useChannel } from './realtime.ts';

/**
 * The last settings this browser read, kept so that the next page load starts with them: its first
 * render has the depot's title, colours and numerals, not the defaults for a moment. The numerals
 * matter most: Root draws the page again from scratch when they change (its `key`), which would
 * empty a form typed into before the settings came (a cashier signing in on a slow connection).
 */
export const SETTINGS_KEY = 'depot.settings';

function rememberedSettings(): PublicSettings | undefined {
  try {
    const parsed = publicSettings.safeParse(JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? 'null'));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function remember(settings: PublicSettings): PublicSettings {
  try {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
  } catch {
    // a full or closed storage: the next page load starts from the defaults, as before
  }
  return settings;
}

export const settingsQuery = queryOptions({
  queryKey: ['settings', 'public'],
  queryFn: async ({ signal }) =>
    remember((await api('settings/public', { signal, schema: publicSettingsResponse })).data),
  staleTime: 5 * 60 * 1000,
  // the remembered settings show at once and are read again straight away (as if never fresh)
  initialData: rememberedSettings,
  initialDataUpdatedAt: 0,
});

/** Settings a save answered with, into the one settings query (and remembered): every page follows. */
export function showSettings(client: QueryClient, settings: PublicSettings): void {
  client.setQueryData(settingsQuery.queryKey, remember(settings));
}

/**
 * The one settings query. Until it answers, or if it fails, the settings this browser last read
 * apply, else the defaults. `settled` is false only while a browser that never read them waits for
 * their first answer.
 */
export function useSettings(): { settings: PublicSettings; failed: boolean; settled: boolean } {
  const query = useQuery(settingsQuery);
  return { settings: query.data ?? DEFAULT_SETTINGS, failed: query.isError, settled: !query.isPending };
}

/** The system title of the page's language (the Khmer title on Khmer pages). */
export function useTitle(): string {
  const { settings } = useSettings();
  return titleOf(settings, localeFromPath(useLocation().pathname));
}

/**
 * Settings saved elsewhere (another administrator, another tab) reach open pages at once: the
 * server tells the `depot` channel, and the one settings query is read again.
 */
export function useLiveSettings(): void {
  const client = useQueryClient();
  useChannel(channelNames.depot, `.${appEvent('SettingsUpdated')}`, () => {
    void client.invalidateQueries({ queryKey: settingsQuery.queryKey });
  });
}

/** A font chosen in settings first, then the bundled Khmer font, which every page has. */
export function fontStack(fontFamily: string): string {
  const chosen = fontFamily.replace(/['";{}]/g, '').trim();
  const bundled = "'Kantumruy Pro', system-ui, sans-serif";
  return chosen && chosen !== 'Kantumruy Pro' ? `'${chosen}', ${bundled}` : bundled;
}
