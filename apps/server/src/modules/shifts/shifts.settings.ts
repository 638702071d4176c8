import { DEFAULT_SHIFT_SETTINGS, type ShiftSettings, shiftSettings } from '@depot/contracts';
import { type Db, now } from '../../db/database.ts';
import { emit, transaction } from '../../db/transaction.ts';
import { event } from '../../events/events.ts';
import { type AuditWho, changes, recordAudit } from '../audit/audit.ts';
import { readSettings, writeSettings } from '../rates/rates.repository.ts';

/** The shift settings are rows of `settings` under these keys (beside the sale settings). */
const KEYS: Record<keyof ShiftSettings, string> = {
  require_shift: 'shift_require',
  blind_close: 'shift_blind_close',
  threshold_usd_cents: 'shift_threshold_usd_cents',
  threshold_khr: 'shift_threshold_khr',
  usd_denominations: 'shift_usd_denominations',
  khr_denominations: 'shift_khr_denominations',
};
const FIELDS = Object.keys(KEYS) as (keyof ShiftSettings)[];

/** The shift settings; a stored value that no longer fits its schema reads as its default. */
export async function readShiftSettings(db: Db): Promise<ShiftSettings> {
  const stored = await readSettings(db, Object.values(KEYS));
  const result: ShiftSettings = { ...DEFAULT_SHIFT_SETTINGS };
  for (const field of FIELDS) {
    const parsed = shiftSettings.shape[field].safeParse(stored[KEYS[field]]);
    if (parsed.success) Object.assign(result, { [field]: parsed.data });
  }
  return result;
}

/** Replaces the shift settings, with the audit trail's line and `SettingsChanged`. */
export async function writeShiftSettings(db: Db, input: ShiftSettings, who: AuditWho): Promise<ShiftSettings> {
  await transaction(db, async (trx) => {
    const before = await readShiftSettings(trx);
    const diff = changes(before as unknown as Record<string, unknown>, input);
    await writeSettings(trx, Object.fromEntries(FIELDS.map((field) => [KEYS[field], input[field]])), now());
    if (diff.changed) await recordAudit(trx, who, { action: 'settings.shift', before: diff.before, after: diff.after });
    emit(trx, event('SettingsChanged', { keys: FIELDS.map((field) => KEYS[field]) }));
  });
  return readShiftSettings(db);
}
