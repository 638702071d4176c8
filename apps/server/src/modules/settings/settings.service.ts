import {
  appEvent,
  channelNames,
  DEFAULT_SETTINGS,
  type PublicSettings,
  privateChannel,
  publicSettings,
  type SettingsImage,
  type settingsInput,
} from '@depot/contracts';
import type { z } from 'zod';
import { type Db, now } from '../../db/database.ts';
import { removeImages, storeImage } from '../../kit/images.ts';
import type { Realtime } from '../../realtime/realtime.ts';
import { settingsRepository } from './settings.repository.ts';

/** Told on the `depot` channel after every change: open pages read the settings again. */
export const SETTINGS_UPDATED_EVENT = appEvent('SettingsUpdated');

/** Who changed the settings (for the audit trail the lead wires into `write`). */
export interface SettingsWriter {
  userId: number;
}

/** A picture this server stored (not an address an older version kept). */
const uploaded = (url: string | null) => (url?.startsWith('/uploads/settings/') ? url : null);

export function settingsService(db: Db, uploadsDir = '', realtime?: Pick<Realtime, 'broadcast'>) {
  const repo = settingsRepository(db);

  async function read(): Promise<PublicSettings> {
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
  }

  /**
   * Every change of the system settings goes through here: before and after are known in one
   * place (the audit trail's hook), and open pages are told once it is stored.
   */
  async function write(changes: Partial<PublicSettings>, _writer: SettingsWriter) {
    const before = await read();
    await repo.put(changes, now());
    const after = await read();
    await realtime?.broadcast(privateChannel(channelNames.depot), SETTINGS_UPDATED_EVENT, {});
    return { before, after };
  }

  return {
    /** The settings the login page needs. A stored value that no longer fits its schema reads as its default. */
    publicSettings: read,

    async update(input: z.output<typeof settingsInput>, writer: SettingsWriter): Promise<PublicSettings> {
      return (await write(input, writer)).after;
    },

    /**
     * The logo (kept as a 512 px WebP) or the favicon (a 64 px square PNG, which every browser
     * shows), re-encoded by the picture pipeline; the one it replaces is removed.
     */
    async setImage(kind: SettingsImage, bytes: Buffer, writer: SettingsWriter): Promise<PublicSettings> {
      const [file] = await storeImage(uploadsDir, 'settings', kind, bytes, [
        kind === 'logo'
          ? { suffix: '', size: 512, fit: 'inside', format: 'webp' }
          : { suffix: '', size: 64, fit: 'cover', format: 'png' },
      ]);
      const { before, after } = await write({ [`${kind}_url`]: `/uploads/${file}` }, writer);
      await removeImages(uploadsDir, [uploaded(before[`${kind}_url`])]);
      return after;
    },

    async removeImage(kind: SettingsImage, writer: SettingsWriter): Promise<PublicSettings> {
      const { before, after } = await write({ [`${kind}_url`]: null }, writer);
      await removeImages(uploadsDir, [uploaded(before[`${kind}_url`])]);
      return after;
    },
  };
}

export type SettingsService = ReturnType<typeof settingsService>;
