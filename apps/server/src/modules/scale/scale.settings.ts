import { DEFAULT_SCALE_SETTINGS, type ScaleSettings, scaleSettings } from '@depot/contracts';
import { type Db, now } from '../../db/database.ts';
import { emit, transaction } from '../../db/transaction.ts';
import { event } from '../../events/events.ts';
import { type AuditWho, changes, recordAudit } from '../audit/audit.ts';
import { readSettings, writeSettings } from '../rates/rates.repository.ts';

/** The store's scale barcode layouts: one `settings` row, beside the sale and shift settings. */
const KEY = 'scale_layouts';

/** The layouts; a stored value that no longer fits reads as the default. */
export async function readScaleSettings(db: Db): Promise<ScaleSettings> {
  const stored = await readSettings(db, [KEY]);
  const parsed = scaleSettings.safeParse({ layouts: stored[KEY] });
  return parsed.success ? parsed.data : DEFAULT_SCALE_SETTINGS;
}

/** Replaces the layouts, with the audit trail's line and `SettingsChanged` (tills read them again). */
export async function writeScaleSettings(db: Db, input: ScaleSettings, who: AuditWho): Promise<ScaleSettings> {
  await transaction(db, async (trx) => {
    const before = await readScaleSettings(trx);
    const diff = changes({ layouts: before.layouts } as Record<string, unknown>, { layouts: input.layouts });
    await writeSettings(trx, { [KEY]: input.layouts }, now());
    if (diff.changed) await recordAudit(trx, who, { action: 'settings.scale', before: diff.before, after: diff.after });
    emit(trx, event('SettingsChanged', { keys: [KEY] }));
  });
  return readScaleSettings(db);
}
