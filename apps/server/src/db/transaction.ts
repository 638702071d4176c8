import { AsyncLocalStorage } from 'node:async_hooks';
import { coalesce, eventBus } from '../events/bus.ts';
import type { DomainEvent } from '../events/events.ts';
import type { Db } from './database.ts';

/**
 * An idempotency key waiting to be claimed by the request's write (http/idempotency.ts puts it in
 * the request's context). The claim is the first statement of the write's transaction and its
 * result is stored in the same transaction, so the key and the work commit together or not at all.
 */
export interface Claim {
  /** Set once a transaction has taken the claim: a request's later transactions leave it alone. */
  consumed: boolean;
  /**
   * A result to answer without running the work again: the key's work committed before (a retry
   * after the answer was lost, or a duplicate that waited for the first to commit).
   */
  replay: { result: unknown } | null;
  /** Claims the key in `trx`; answers the committed result instead when another request claimed it. */
  take(trx: Db): Promise<{ result: unknown } | null>;
  /** Stores the work's result with the claim, in the work's transaction. */
  keep(trx: Db, result: unknown): Promise<void>;
}

const claims = new AsyncLocalStorage<Claim>();

/** Runs a request's handler with its idempotency claim in its context. */
export function withClaim<T>(claim: Claim, run: () => T): T {
  return claims.run(claim, run);
}

interface Unit {
  events: DomainEvent[];
}

const units = new AsyncLocalStorage<Unit>();

/**
 * Announces an event of the transaction running now (the stock ledger's StockChanged, a rate's
 * change): it is published once the transaction commits, and forgotten if it rolls back. Outside a
 * transaction of `transaction()` it is dropped.
 */
export function emit(event: DomainEvent): void {
  units.getStore()?.events.push(event);
}

/**
 * The one way a write runs in a transaction. Besides the transaction itself it
 * - claims the request's idempotency key as its first statement and keeps the work's result with
 *   it (see Claim); when the key's work committed already, answers that result without running the
 *   work, so a retried sale is sold once, whatever crashed where;
 * - publishes the events the work emitted, after the commit, never on a rollback.
 * With a claim, the result must survive JSON (ids, plain records): a replay answers it parsed back.
 */
export async function transaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  const claim = claims.getStore();
  const mine = claim && !claim.consumed ? claim : null;
  if (mine) mine.consumed = true;
  if (mine?.replay) return mine.replay.result as T;
  const unit: Unit = { events: [] };
  const result = await units.run(unit, () =>
    db.transaction().execute(async (trx) => {
      if (mine) {
        const earlier = await mine.take(trx);
        if (earlier) {
          unit.events = [];
          return earlier.result as T;
        }
      }
      const value = await work(trx);
      if (mine) await mine.keep(trx, value);
      return value;
    }),
  );
  if (unit.events.length) eventBus(db).publish(coalesce(unit.events));
  return result;
}
