import {
  appEvent,
  channelNames,
  DEFAULT_SETTINGS,
  type PublicSettings,
  publicSettingsResponse,
  titleOf,
} from '@depot/contracts';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'react-router';
import { api } from './http.ts';
import { localeFromPath } from './locale.ts';
import { useChannel } from './realtime.ts';

export const settingsQuery = queryOptions({
  queryKey: ['settings', 'public'],
  queryFn: async ({ signal }) => (await api('settings/public', { signal, schema: publicSettingsResponse })).data,
  staleTime: 5 * 60 * 1000,
});

/** The one settings query. Until it answers, or if it fails, the defaults apply. */
export function useSettings(): { settings: PublicSettings; failed: boolean } {
  const query = useQuery(settingsQuery);
  return { settings: query.data ?? DEFAULT_SETTINGS, failed: query.isError };
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
