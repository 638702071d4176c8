import { DEFAULT_SETTINGS, type PublicSettings, publicSettingsResponse } from '@depot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './http.ts';

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

/** A font chosen in settings first, then the bundled Khmer font, which every page has. */
export function fontStack(fontFamily: string): string {
  const chosen = fontFamily.replace(/['";{}]/g, '').trim();
  const bundled = "'Kantumruy Pro', system-ui, sans-serif";
  return chosen && chosen !== 'Kantumruy Pro' ? `'${chosen}', ${bundled}` : bundled;
}
