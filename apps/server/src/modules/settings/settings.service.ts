import { DEFAULT_SETTINGS, type PublicSettings, publicSettings } from '@depot/contracts';
import type { Db } from '../../db/database.ts';
import { settingsRepository } from './settings.repository.ts';

export function settingsService(db: Db) {
  const repo = settingsRepository(db);
  return {
    /** The settings the login page needs. A stored value that no longer fits its schema reads as its default. */
    async publicSettings(): Promise<PublicSettings> {
      const stored: Record<string, unknown> = {};
      for (const row of await repo.all()) {
        try {
          stored[row.key] = JSON.parse(row.value);
        } catch {
          // unreadable: the default stands
        }
      }
      const result = { ...DEFAULT_SETTINGS };
      for (const key of Object.keys(DEFAULT_SETTINGS) as (keyof PublicSettings)[]) {
        const field = publicSettings.shape[key].safeParse(stored[key]);
        if (field.success) Object.assign(result, { [key]: field.data });
      }
      return result;
    },
  };
}

export type SettingsService = ReturnType<typeof settingsService>;
