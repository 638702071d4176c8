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
