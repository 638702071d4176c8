import type { Compilable } from 'kysely';
import type { Db } from '../db/database.ts';

/**
 * The totals of list pages, remembered until their table changes. Counting 100,000 live products
 * costs about 2 ms on SQLite, more than all the rest of a list page; the rows themselves are always
 * read afresh. Whatever writes a resource's table calls `tableChanged` once it has committed; a
 * total is also forgotten after TOTAL_TTL_MS, for writes made by another process (several app
 * processes on one PostgreSQL), so such a total is at most that late.
 */
export const TOTAL_TTL_MS = 5_000;
const MAX_TOTALS = 500;

interface Remembered {
  total: number;
  version: number;
  at: number;
}

interface Totals {
  versions: Map<string, number>;
  entries: Map<string, Remembered>;
}

// Per database: tests run many databases in one process.
const caches = new WeakMap<Db, Totals>();

function totalsOf(db: Db): Totals {
  let totals = caches.get(db);
  if (!totals) {
    totals = { versions: new Map(), entries: new Map() };
    caches.set(db, totals);
  }
  return totals;
}

/** Rows of `table` were added, removed or changed: every remembered total of it is stale. */
export function tableChanged(db: Db, table: string): void {
  const { versions } = totalsOf(db);
  versions.set(table, (versions.get(table) ?? 0) + 1);
}

/** The count query's answer, remembered under its SQL and parameters while `table` is unchanged. */
export async function countOf(db: Db, table: string, query: Compilable<{ n: number | string }>): Promise<number> {
  const { versions, entries } = totalsOf(db);
  const compiled = query.compile();
  const key = `${table}\u0000${compiled.sql}\u0000${JSON.stringify(compiled.parameters)}`;
  // the version is read before counting: a change committed meanwhile leaves this total stale
  const version = versions.get(table) ?? 0;
  const known = entries.get(key);
  if (known && known.version === version && Date.now() - known.at < TOTAL_TTL_MS) return known.total;
  const { rows } = await db.executeQuery(compiled);
  const total = Number(rows[0]?.n ?? 0);
  entries.delete(key);
  entries.set(key, { total, version, at: Date.now() });
  if (entries.size > MAX_TOTALS) entries.delete(entries.keys().next().value as string);
  return total;
}
