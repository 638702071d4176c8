import { sql } from 'kysely';
import type { Db } from './database.ts';
import { prepared } from './prepared.ts';

/**
 * The next number of a counter, taken in the caller's transaction: an upsert that adds one and
 * answers the new value, atomic on both databases (two documents never share a number).
 */
export async function nextValue(trx: Db, key: string): Promise<number> {
  const [row] = await next(trx, { key });
  return Number(row.value);
}

const next = prepared((db: Db, p: { key: string }) =>
  db
    .insertInto('sequences')
    .values({ key: p.key, value: 1 })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: sql<number>`sequences.value + 1` }))
    .returning('value'),
);

/** "PO-2026-000042": a document number, counted per prefix and year. */
export async function nextDocumentNumber(trx: Db, prefix: string, year: string): Promise<string> {
  const value = await nextValue(trx, `${prefix}:${year}`);
  return `${prefix}-${year}-${String(value).padStart(6, '0')}`;
}

/**
 * Several document numbers in one statement (a sale's invoice and order), the counters' rows
 * locked in the order given (one multi-row upsert takes them row by row, on both databases).
 */
export async function nextDocumentNumbers(
  trx: Db,
  wanted: readonly { prefix: string; year: string }[],
): Promise<string[]> {
  if (!wanted.length) return [];
  const keys = wanted.map((w) => `${w.prefix}:${w.year}`);
  const rows = await trx
    .insertInto('sequences')
    .values(keys.map((key) => ({ key, value: 1 })))
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: sql<number>`sequences.value + 1` }))
    .returning(['key', 'value'])
    .execute();
  const values = new Map(rows.map((r) => [r.key, Number(r.value)]));
  return wanted.map((w, i) => `${w.prefix}-${w.year}-${String(values.get(keys[i])).padStart(6, '0')}`);
}
