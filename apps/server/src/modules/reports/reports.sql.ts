import { addDays, bucketOf, daysBetween, type ReportGroup } from '@depot/contracts';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { isPostgres } from '../../db/database.ts';

/**
 * What the reports' SQL needs beyond what Kysely writes the same on both databases: the depot's
 * local day and hour of a timestamp (Cambodia is UTC+7 all year, no daylight saving). SQLite keeps
 * timestamps as ISO text, PostgreSQL as timestamptz; these two expressions are the only dialect
 * switch of the reports. Everything else (filters, joins, sums) is the same SQL on both.
 */
// biome-ignore lint/suspicious/noExplicitAny: any database's handle
export function localDay(db: Kysely<any>, column: string): RawBuilder<string> {
  return isPostgres(db)
    ? sql<string>`to_char(${sql.ref(column)} at time zone 'Asia/Phnom_Penh', 'YYYY-MM-DD')`
    : sql<string>`substr(datetime(${sql.ref(column)}, '+7 hours'), 1, 10)`;
}

// biome-ignore lint/suspicious/noExplicitAny: any database's handle
export function localHour(db: Kysely<any>, column: string): RawBuilder<number> {
  return isPostgres(db)
    ? sql<number>`cast(extract(hour from ${sql.ref(column)} at time zone 'Asia/Phnom_Penh') as integer)`
    : sql<number>`cast(substr(datetime(${sql.ref(column)}, '+7 hours'), 12, 2) as integer)`;
}

/** The instants a range of local days covers: [start, end) in UTC ISO text (both databases compare it). */
export function instants(from: string, to: string): { start: string; end: string } {
  return {
    start: new Date(`${from}T00:00:00+07:00`).toISOString(),
    end: new Date(`${addDays(to, 1)}T00:00:00+07:00`).toISOString(),
  };
}

/** The period of the same length just before. */
export function previousRange(from: string, to: string): { from: string; to: string } {
  const days = daysBetween(from, to) + 1;
  return { from: addDays(from, -days), to: addDays(from, -1) };
}

/** Every bucket of a range, in order. */
export function bucketsOf(from: string, to: string, group: ReportGroup): string[] {
  const out: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) {
    const b = bucketOf(day, group);
    if (out[out.length - 1] !== b) out.push(b);
  }
  return out;
}

/** Day rows summed into the range's buckets (every bucket present, zeros where nothing happened). */
export function rollUp(
  rows: { day: string; values: Record<string, number> }[],
  from: string,
  to: string,
  group: ReportGroup,
  keys: string[],
): { bucket: string; values: Record<string, number> }[] {
  const buckets = new Map(
    bucketsOf(from, to, group).map((b) => [b, Object.fromEntries(keys.map((k) => [k, 0])) as Record<string, number>]),
  );
  for (const row of rows) {
    const target = buckets.get(bucketOf(row.day, group));
    if (!target) continue;
    for (const k of keys) target[k] += row.values[k] ?? 0;
  }
  return [...buckets].map(([bucket, values]) => ({ bucket, values }));
}

/** A database number (PostgreSQL answers sums of bigint as text) as a number; null as 0. */
export const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));

/** Part of a whole in basis points (12.34 % = 1234), 0 of nothing. */
export const basisPoints = (part: number, whole: number): number => (whole ? Math.round((part * 10_000) / whole) : 0);
