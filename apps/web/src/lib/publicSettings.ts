import { type PublicSettings, publicSettings, publicSettingsResponse } from '@depot/contracts';
import { api } from './http.ts';

/**
 * The last settings this browser read, kept so that the next page load starts with them: its first
 * render has the depot's title, colours and numerals, not the defaults for a moment. The numerals
 * matter most: Root draws the page again from scratch when they change (its `key`), which would
 * empty a form typed into before the settings came (a cashier signing in on a slow connection).
 */
export const SETTINGS_KEY = 'depot.settings';

export function rememberedSettings(): PublicSettings | undefined {
  try {
    const parsed = publicSettings.safeParse(JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? 'null'));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function remember(settings: PublicSettings): PublicSettings {
  try {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
  } catch {
    // a full or closed storage: the next page load starts from the defaults, as before
  }
  return settings;
}

/** The settings as the server has them now, remembered for the next page load. */
export async function readSettings(signal?: AbortSignal): Promise<PublicSettings> {
  return remember((await api('settings/public', { signal, schema: publicSettingsResponse })).data);
}

/** A font chosen in settings first, then the bundled Khmer font, which every page has. */
export function fontStack(fontFamily: string): string {
  const chosen = fontFamily.replace(/['";{}]/g, '').trim();
  const bundled = "'Kantumruy Pro', system-ui, sans-serif";
  return chosen && chosen !== 'Kantumruy Pro' ? `'${chosen}', ${bundled}` : bundled;
}
