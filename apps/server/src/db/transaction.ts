import { coalesce, eventBus } from '../events/bus.ts';
import type { DomainEvent } from '../events/events.ts';
import type { Db } from './database.ts';
import { type LastWrite, openLastWrites, runTogether, takeLastWrites } from './later.ts';
import { flushRollups, gatherRollups } from './rollups.ts';

/**
 * An idempotency key waiting to be claimed by the request's write (http/idempotency.ts hangs it on
 * the request's actor). The claim is the first statement of the write's transaction and its result
 * is stored in the same transaction, so the key and the work commit together or not at all.
 */
export interface Claim {
  /** Set once a transaction has taken the claim: a request's later transactions leave it alone. */
  consumed: boolean;
  /**
   * Claims the key in `trx`. When the key's work committed before (a retry after the answer was
   * lost, or a duplicate that waited for the first to commit), answers that work's result instead,
   * and the work is not run again.
   */
  take(trx: Db): Promise<{ result: unknown } | null>;
  /** The write storing the work's result with the claim, in the work's transaction. */
  storeResult(trx: Db, result: unknown): LastWrite;
}

/** Who writes: the request's actor carries its idempotency claim, if it has one. */
export interface Writer {
  claim?: Claim | null;
}

// The events of each running transaction, by its transaction object (as the ledger keeps its locks):
// an AsyncLocalStorage would do, but on Node 20 it slows every promise of the process.
const units = new WeakMap<Db, DomainEvent[]>();

/**
 * Announces an event of the transaction `trx` (the stock ledger's StockChanged, a rate's change):
 * it is published once that transaction commits, and forgotten if it rolls back. Outside a
 * transaction of `transaction()` it is dropped.
 */
export function emit(trx: Db, event: DomainEvent): void {
  units.get(trx)?.push(event);
}

/**
 * The one way code runs in a transaction (db/one-way.test.ts finds no other `db.transaction()`):
 * a request's write with its writer, anything else (the seed, an import, a notification) without.
 * Besides the transaction itself it
 * - claims the writer's idempotency key as its first statement and keeps the work's result with
 *   it (see Claim); when the key's work committed already, answers that result without running the
 *   work, so a retried sale is sold once, whatever crashed where;
 * - publishes the events the work emitted, after the commit, never on a rollback;
 * - writes the reports' daily rollups the work changed, last, in the same transaction (db/rollups.ts);
 * - runs the writes the work left for the end (db/later.ts) with the rollups and the key's result:
 *   on PostgreSQL one statement, then the commit.
 * With a claim, the result must survive JSON (ids, plain records): a replay answers it parsed back.
 */
export async function transaction<T>(db: Db, work: (trx: Db) => Promise<T>, writer?: Writer | null): Promise<T> {
  const claim = writer?.claim && !writer.claim.consumed ? writer.claim : null;
  if (claim) claim.consumed = true;
  let events: DomainEvent[] = [];
  const result = await db.transaction().execute(async (trx) => {
    units.set(trx, events);
    gatherRollups(trx);
    openLastWrites(trx);
    if (claim) {
      const earlier = await claim.take(trx);
      if (earlier) {
        events = [];
        return earlier.result as T;
      }
    }
    const value = await work(trx);
    // the reports' rollups the work changed (db/rollups.ts), then the key's result, with the work's
    // last writes (db/later.ts)
    await flushRollups(trx);
    const last = takeLastWrites(trx);
    if (claim) last.push(claim.storeResult(trx, value));
    await runTogether(trx, last);
    return value;
  });
  if (events.length) eventBus(db).publish(coalesce(events));
  return result;
}
