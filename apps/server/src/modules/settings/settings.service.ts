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
import { transaction } from '../../db/transaction.ts';
import { removeImages, storeImage } from '../../kit/images.ts';
import type { Realtime } from '../../realtime/realtime.ts';
import { type AuditWho, changes as diff, recordAudit } from '../audit/audit.ts';
import { settingsRepository } from './settings.repository.ts';

/** Told on the `depot` channel after every change: open pages read the settings again. */
export const SETTINGS_UPDATED_EVENT = appEvent('SettingsUpdated');

/** Who changed the settings: the audit trail's who. */
export type SettingsWriter = AuditWho;

/** A picture this server stored (not an address an older version kept). */
const uploaded = (url: string | null) => (url?.startsWith('/uploads/settings/') ? url : null);

export function settingsService(db: Db, uploadsDir = '', realtime?: Pick<Realtime, 'broadcast'>) {
  async function read(from: Db = db): Promise<PublicSettings> {
    const stored: Record<string, unknown> = {};
    for (const row of await settingsRepository(from).all()) {
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
   * Every change of the system settings goes through here: stored with its line of the audit trail
   * (what changed, before and after) in one transaction, then open pages are told.
   */
  async function write(changes: Partial<PublicSettings>, writer: SettingsWriter) {
    const result = await transaction(db, async (trx) => {
      const before = await read(trx);
      await settingsRepository(trx).put(changes, now());
      const after = await read(trx);
      const changed = diff(before, after);
      if (changed.changed)
        await recordAudit(trx, writer, { action: 'settings.system', before: changed.before, after: changed.after });
      return { before, after };
    });
    await realtime?.broadcast(privateChannel(channelNames.depot), SETTINGS_UPDATED_EVENT, {});
    return result;
  }

  return {
    /** The settings the login page needs. A stored value that no longer fits its schema reads as its default. */
    publicSettings: () => read(),

    async update(input: z.output<typeof settingsInput>, writer: SettingsWriter): Promise<PublicSettings> {
      const changes = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
      return (await write(changes, writer)).after;
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
