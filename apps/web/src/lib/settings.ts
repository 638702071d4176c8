import { appEvent, channelNames, DEFAULT_SETTINGS, type PublicSettings, titleOf } from '@depot/contracts';
import { type QueryClient, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'react-router';
import { localeFromPath } from './locale.ts';
import { readSettings, remember, rememberedSettings } from './publicSettings.ts';
import { useChannel } from './realtime.ts';

export { fontStack, SETTINGS_KEY } from './publicSettings.ts';

export const settingsQuery = queryOptions({
  queryKey: ['settings', 'public'],
  queryFn: ({ signal }) => readSettings(signal),
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
