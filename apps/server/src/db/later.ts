import { CompiledQuery } from 'kysely';
import { type Db, isPostgres } from './database.ts';

/**
 * Writes a transaction makes last, together, just before its commit: what a sale writes once its
 * products are locked (the ledger's levels, movements and valuations, the batches its lines took,
 * the numbers and their search terms, the reports' rollups, the idempotency key's result). Every
 * round trip between a sale's first product lock and its commit is one the other tills selling
 * those products wait for; on PostgreSQL these writes are ONE statement (`together`), so the locked
 * section is a few round trips whatever the sale's size.
 *
 * Only writes nothing later in the transaction reads: the caller knows (the ledger's `issueAll`
 * defers its writes only when a sale asks it to, and a sale reads no stock after). Inside
 * `transaction()` (db/transaction.ts) they are gathered and run in the order given; outside it (a
 * test's own transaction) at once. A write may name the rows it must touch (a guarded update): when
 * it touches fewer, its `refused` error is thrown and the transaction rolls back.
 */
export interface LastWrite {
  query: CompiledQuery;
  /** The rows the write must answer (its RETURNING), or the error that undoes the transaction. */
  check?: { rows: number; refused: () => Promise<Error> | Error };
  /**
   * A name the later writes of the same statement read its RETURNING by (on PostgreSQL: a sale's
   * counters, `numbers`; SQLite runs it first and they read its table). A named write runs before
   * all but the checked ones.
   */
  name?: string;
}

const batches = new WeakMap<Db, LastWrite[]>();

/** Opens the batch of `trx` (db/transaction.ts). */
export function openLastWrites(trx: Db): void {
  batches.set(trx, []);
}

/** A write of `trx` to run last (see above); at once outside `transaction()`. */
export async function writeLast(trx: Db, ...writes: LastWrite[]): Promise<void> {
  const batch = batches.get(trx);
  if (batch) batch.push(...writes);
  else await runTogether(trx, writes);
}

/** Takes the batch of `trx`, closed: what it writes from now on runs at once. */
export function takeLastWrites(trx: Db): LastWrite[] {
  const batch = batches.get(trx) ?? [];
  batches.delete(trx);
  return batch;
}

// PostgreSQL's limit is 65,535 parameters a statement
const MAX_PARAMETERS = 30_000;

/**
 * Runs writes in the order given: on PostgreSQL as few statements as the parameters allow (one,
 * for a sale), on SQLite one after the other. Checks each write's rows.
 */
export async function runTogether(trx: Db, writes: readonly LastWrite[]): Promise<void> {
  if (!writes.length) return;
  if (!isPostgres(trx)) {
    for (const write of writes) {
      const result = await trx.executeQuery(write.query);
      if (write.check && result.rows.length !== write.check.rows) throw await write.check.refused();
    }
    return;
  }
  for (const part of partsOf(writes)) {
    if (part.length === 1) {
      const [write] = part;
      const result = await trx.executeQuery(write.query);
      if (write.check && result.rows.length !== write.check.rows) throw await write.check.refused();
      continue;
    }
    const counts = (await trx.executeQuery<Record<string, string | number>>(together(part))).rows[0];
    for (const [i, write] of part.entries()) {
      if (write.check && Number(counts[`c${i}`]) !== write.check.rows) throw await write.check.refused();
    }
  }
}

/**
 * The writes cut into statements of at most MAX_PARAMETERS parameters, in order. A named write and
 * every write after it stay in one statement (those after it may read its RETURNING by name, which
 * exists only in its own statement): a new statement starts at it when they would not fit.
 */
export function partsOf(writes: readonly LastWrite[], max = MAX_PARAMETERS): LastWrite[][] {
  const named = writes.findIndex((w) => w.name);
  const sizes = writes.map((w) => w.query.parameters.length);
  const rest = named < 0 ? 0 : sizes.slice(named).reduce((sum, n) => sum + n, 0);
  let part: LastWrite[] = [];
  let size = 0;
  const parts: LastWrite[][] = [part];
  for (const [i, write] of writes.entries()) {
    const grouped = named >= 0 && i > named;
    const tail = i === named ? rest : sizes[i];
    if (part.length && !grouped && size + tail > max) {
      part = [];
      size = 0;
      parts.push(part);
    }
    part.push(write);
    size += tail;
  }
  return parts;
}

/**
 * PostgreSQL statements as one: each a data-modifying WITH, their $n renumbered. PostgreSQL runs
 * those the final SELECT reads first, in its order (the checked ones, then the named ones), then
 * the others from the last to the first: the order is the same for every transaction writing the
 * same things (their row locks cannot deadlock one another). None sees another's writes; a named
 * one's RETURNING is read by name.
 */
export function together(writes: readonly LastWrite[]): CompiledQuery {
  const parameters: unknown[] = [];
  const names = writes.map((w, i) => w.name ?? `w${i}`);
  const parts = writes.map((w, i) => {
    const offset = parameters.length;
    parameters.push(...w.query.parameters);
    return `${names[i]} as (${w.query.sql.replace(/\$(\d+)/g, (_, n) => `$${Number(n) + offset}`)})`;
  });
  const read = [
    ...writes.flatMap((w, i) => (w.check ? [i] : [])),
    ...writes.flatMap((w, i) => (w.name && !w.check ? [i] : [])),
  ];
  const counts = read.map((i) => `(select count(*) from ${names[i]}) as c${i}`);
  return CompiledQuery.raw(`with ${parts.join(', ')} select ${counts.length ? counts.join(', ') : '1'}`, parameters);
}
