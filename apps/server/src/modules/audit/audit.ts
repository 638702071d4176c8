import type { AuditAction } from '@depot/contracts';
import { type Db, now } from '../../db/database.ts';

/** Who did it: a signed-in user (an actor with its address), or a name typed at a failed sign-in. */
export interface AuditWho {
  userId: number | null;
  name?: string | null;
  ip?: string | null;
}

export interface AuditRecord {
  action: AuditAction;
  subject?: { type: string; id: number | null } | null;
  before?: unknown;
  after?: unknown;
}

/** The actor of a request as the audit trail names it (request.auth carries its address). */
export function auditWho(actor: { userId: number; name?: string; ip?: string | null }): AuditWho {
  return { userId: actor.userId, name: actor.name ?? null, ip: actor.ip ?? null };
}

const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));

/**
 * Writes one line of the audit trail in `trx`, the transaction of the action it records: the line
 * and the action commit together or not at all. Nothing in the app updates or deletes these lines.
 */
export async function recordAudit(trx: Db, who: AuditWho, record: AuditRecord): Promise<void> {
  await trx
    .insertInto('audit_log')
    .values({
      user_id: who.userId,
      user_name: who.name?.slice(0, 100) ?? null,
      ip: who.ip?.slice(0, 64) ?? null,
      action: record.action,
      subject_type: record.subject?.type ?? null,
      subject_id: record.subject?.id ?? null,
      before: json(record.before),
      after: json(record.after),
      created_at: now(),
    })
    .execute();
}

/** The fields of `after` that differ from `before`, each side: what an update changed. */
export function changes<T extends Record<string, unknown>>(before: T, after: Partial<T>) {
  const was: Record<string, unknown> = {};
  const is: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(after)) {
    if (JSON.stringify(before[key]) !== JSON.stringify(value)) {
      was[key] = before[key];
      is[key] = value;
    }
  }
  return { before: was, after: is, changed: Object.keys(is).length > 0 };
}
