import { sql } from 'kysely';
import { type Db, isPostgres } from './database.ts';

/**
 * A token that changes whenever data committed to the database may have changed, from any
 * connection or process (a CLI command, another server process): read in one cheap query.
 * - PostgreSQL: the current snapshot (`pg_current_snapshot()`: xmin, xmax and the transactions in
 *   progress). What a statement sees is decided by its snapshot, and no transaction can commit or
 *   end without changing it; two equal snapshots see the same data. Other databases of the same
 *   server change it too: that only makes it change more often.
 * - SQLite: `data_version` (changes when another connection commits) with this connection's
 *   `total_changes()` (every row this connection inserted, updated or deleted, rolled back or not).
 * It may change when nothing did (a rolled-back write, another database's work); it never stays the
 * same across a committed change. Read it before what it versions: a change made meanwhile then
 * shows in the answer and in the next token, so a remembered answer is never older than its token.
 */
export async function dataVersion(db: Db): Promise<string> {
  const query = isPostgres(db)
    ? sql<{ v: string }>`select pg_current_snapshot()::text as v`
    : sql<{ v: string }>`select total_changes() || ':' || (select data_version from pragma_data_version) as v`;
  const [row] = (await query.execute(db)).rows;
  return String(row.v);
}

/**
 * Answers remembered while the data is unchanged (`dataVersion`): by a key, and the objects the
 * answer was made for, compared by identity (a user's permission set and coverage: authentication
 * gives the same objects while their versions are unchanged, new ones after any change). An
 * answer is computed again after any committed change; only the newest version's are kept.
 */
export function rememberedWhileUnchanged<T>(db: Db, max = 1000) {
  const memo = new Map<string, { version: string; of: readonly unknown[]; value: T }>();
  return async (key: string, of: readonly unknown[], compute: () => Promise<T>): Promise<T> => {
    const version = await dataVersion(db);
    const known = memo.get(key);
    if (known?.version === version && known.of.length === of.length && known.of.every((o, i) => o === of[i])) {
      return known.value;
    }
    const value = await compute();
    if (memo.size >= max || (known && known.version !== version)) {
      for (const [k, entry] of memo) if (entry.version !== version) memo.delete(k);
      if (memo.size >= max) memo.clear();
    }
    memo.set(key, { version, of, value });
    return value;
  };
}
