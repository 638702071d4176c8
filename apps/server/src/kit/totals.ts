import { createHash } from 'node:crypto';
import type { Compilable } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Shared } from './redis.ts';

/**
 * The totals of list pages, remembered until their table changes. Counting a large table's live
 * rows costs more than all the rest of a list page; the rows themselves are always
 * read afresh. Whatever writes a resource's table calls `tableChanged` once it has committed.
 *
 * Alone, a process keeps the tables' versions and the totals in its memory; a total is also
 * forgotten after TOTAL_TTL_MS, for writes made by another process, so such a total is at most
 * that late. With Redis (`shareTotals`), the versions and totals live there: a write through one
 * process makes the others count afresh at once; the time limit stays for writers that do not
 * share them (a command run without REDIS_URL). When Redis cannot be reached, lists are counted.
 */
export const TOTAL_TTL_MS = 5_000;
const MAX_TOTALS = 500;
const VERSION_TTL_MS = 24 * 3_600_000;

interface Remembered {
  total: number;
  version: number;
  at: number;
}

interface Totals {
  versions: Map<string, number>;
  entries: Map<string, Remembered>;
  shared?: Shared;
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

/** From now on, this database's totals are shared with the other processes through Redis. */
export function shareTotals(db: Db, shared: Shared): void {
  totalsOf(db).shared = shared;
}

/**
 * Rows of `table` were added, removed or changed: every remembered total of it is stale. With
 * Redis, the promise settles once the other processes can know it (callers may await it, so an
 * answer sent after it is never followed by a stale total from another process).
 */
export function tableChanged(db: Db, table: string): Promise<void> {
  const { versions, shared } = totalsOf(db);
  versions.set(table, (versions.get(table) ?? 0) + 1);
  if (!shared) return Promise.resolve();
  const key = `${shared.prefix}totals:v:${table}`;
  // a version unchanged for a day may go: every total counted under it expired long before
  return shared.redis
    .multi()
    .incr(key)
    .pexpire(key, VERSION_TTL_MS)
    .exec()
    .then(
      () => undefined,
      () => undefined,
    );
}

/** The count query's answer, remembered under its SQL and parameters while `table` is unchanged. */
export async function countOf(db: Db, table: string, query: Compilable<{ n: number | string }>): Promise<number> {
  const totals = totalsOf(db);
  const compiled = query.compile();
  const key = `${table}\u0000${compiled.sql}\u0000${JSON.stringify(compiled.parameters)}`;
  const count = async () => Number((await db.executeQuery(compiled)).rows[0]?.n ?? 0);
  if (totals.shared) return sharedCount(totals.shared, table, key, count);

  const { versions, entries } = totals;
  // the version is read before counting: a change committed meanwhile leaves this total stale
  const version = versions.get(table) ?? 0;
  const known = entries.get(key);
  if (known && known.version === version && Date.now() - known.at < TOTAL_TTL_MS) return known.total;
  const total = await count();
  entries.delete(key);
  entries.set(key, { total, version, at: Date.now() });
  if (entries.size > MAX_TOTALS) entries.delete(entries.keys().next().value as string);
  return total;
}

async function sharedCount(shared: Shared, table: string, key: string, count: () => Promise<number>) {
  const versionKey = `${shared.prefix}totals:v:${table}`;
  const totalKey = `${shared.prefix}totals:${table}:${createHash('sha1').update(key).digest('base64url')}`;
  const read = await shared.redis
    .pipeline()
    .get(versionKey)
    .get(totalKey)
    .exec()
    .catch(() => null);
  if (!read || read.some(([error]) => error)) return count();
  const version = (read[0][1] as string | null) ?? '0';
  const known = read[1][1] as string | null;
  // "version:total": a total counted before the table's latest change is not this version's
  if (known?.startsWith(`${version}:`)) return Number(known.slice(version.length + 1));
  const total = await count();
  await shared.redis.set(totalKey, `${version}:${total}`, 'PX', TOTAL_TTL_MS).catch(() => {});
  return total;
}
