import type { Ability } from '@depot/contracts';
import type { Selectable } from 'kysely';
import { type Db, now } from '../db/database.ts';
import { prepared } from '../db/prepared.ts';
import type { DB } from '../db/schema.ts';
import { transaction } from '../db/transaction.ts';
import { eventBus } from '../events/bus.ts';
import type { DomainEvent } from '../events/events.ts';
import { notFound } from '../http/errors.ts';
import type { Actor, Approver, Policy } from '../policies/policy.ts';
import { indexRecords, type Searchable } from './search.ts';
import { tableChanged } from './totals.ts';

/**
 * The document building block. Orders, purchases, transfers and combos (and later stock counts,
 * supplier returns, shifts, customer payments) are documents: a row with lines, a state machine,
 * totals, often a ledger effect. What every write of one does is here, once:
 *
 *   lock the row (a conditional update of updated_at: PostgreSQL's row lock; SQLite runs one
 *   transaction at a time) → authorize through the document's policy (coverage 404, permission 403,
 *   state 409, a manager's approval) → run the document's named steps in that one transaction
 *   (transaction(): the idempotency claim, the events the steps emit) → index its search terms →
 *   commit → forget the lists' totals → read the detail after the commit (no lock held) → announce
 *   the document's events → answer the detail with its abilities and the fields the user may see.
 *
 * A new document is a DocumentDefinition (its table, policy, detail, events) plus its steps.
 */
export type DocumentTable =
  | 'orders'
  | 'purchases'
  | 'stock_transfers'
  | 'stock_counts'
  | 'combos'
  | 'shifts'
  | 'customer_payments';

export type DocumentRow<T extends DocumentTable> = Selectable<DB[T]>;

export interface DocumentDefinition<T extends DocumentTable, D, A extends string> {
  table: T;
  /** The kit's list of the document (its searchable columns are indexed after a write). */
  list: Searchable;
  /** Other lists whose totals its writes change (an order's invoices). */
  changes?: readonly string[];
  /** Actions after which the search terms are written again; a creation always is. */
  reindex?: readonly A[];
  /** Actions taken on a deleted document (restore): their lock finds deleted rows too. */
  onDeleted?: readonly A[];
  /** The rules: the locked row and the detail both carry the facts they read. */
  policy: Policy<DocumentRow<T> | D, A>;
  /** The document as the API shows it. */
  detail(db: Db, id: number): Promise<D>;
  /** The document without what the actor may not see (cost fields without costs.view). */
  present?(actor: Actor, detail: D): D;
  /** What a committed write announces, from the document as it is after it. */
  events?(detail: D, action: A | 'create'): DomainEvent[];
}

/** What a step of a document's write is given. */
export interface StepContext {
  trx: Db;
  /** The write's one timestamp. */
  at: string;
  actor: Actor;
  /** Set by steps that wrote a new document's search terms themselves (a sale: orders.sale.ts `numberSale`). */
  indexed?: boolean;
}

export interface ActionContext<T extends DocumentTable> extends StepContext {
  /** The document's row, locked for the transaction, as it was before this write. */
  row: DocumentRow<T>;
  /** The manager whose approval allowed the action, or null. */
  approvedBy: number | null;
}

export type Presented<D, A extends string> = D & { abilities: Record<A, Ability> };

// the lock of each table, live rows only or deleted ones too: compiled once
const locks = new Map<string, (db: Db, p: { id: number; at: string }) => Promise<unknown[]>>();

function lockOf<T extends DocumentTable>(table: T, deleted: boolean) {
  const name = `${table}:${deleted}`;
  let lock = locks.get(name);
  if (!lock) {
    lock = prepared((db: Db, p: { id: number; at: string }) => {
      const query = db
        .updateTable(table as DocumentTable)
        .set({ updated_at: p.at })
        .where('id', '=', p.id);
      return (deleted ? query : query.where('deleted_at', 'is', null)).returningAll();
    });
    locks.set(name, lock);
  }
  return lock as (db: Db, p: { id: number; at: string }) => Promise<DocumentRow<T>[]>;
}

export function documentService<T extends DocumentTable, D, A extends string>(
  db: Db,
  def: DocumentDefinition<T, D, A>,
) {
  const lists = [def.list.table, ...(def.changes ?? [])];

  function present(actor: Actor, detail: D): Presented<D, A> {
    return { ...(def.present ? def.present(actor, detail) : detail), abilities: def.policy.abilities(actor, detail) };
  }

  /** After the commit: the lists' totals, the detail as it is now, what the write announces. */
  async function after(actor: Actor, id: number, action: A | 'create', ran: boolean) {
    await Promise.all(lists.map((table) => tableChanged(db, table)));
    const detail = await def.detail(db, id);
    // a replayed idempotent write ran nothing: it announces nothing either
    if (ran && def.events) eventBus(db).publish(def.events(detail, action));
    return present(actor, detail);
  }

  /**
   * An action's part inside a transaction: the row locked, authorized, its steps, its search terms.
   * `act` runs it in a transaction of its own; a write over several documents (a supplier's payment
   * on account, over their purchases) runs it for each in its own transaction, then announces as
   * every write of those documents does (the lists' totals).
   */
  async function actWithin(
    trx: Db,
    actor: Actor,
    id: number,
    action: A,
    steps: (ctx: ActionContext<T>) => Promise<void>,
    approver: Approver | null = null,
  ): Promise<void> {
    const at = now();
    const [row] = await lockOf(def.table, def.onDeleted?.includes(action) ?? false)(trx, { id, at });
    if (!row) throw notFound();
    const { approvedBy } = def.policy.authorize(actor, row, action, approver);
    await steps({ trx, at, actor, row, approvedBy });
    if (def.reindex?.includes(action)) await indexRecords(trx, def.list, [id]);
  }

  return {
    /** The document with its abilities; 404 for one the actor may not see. */
    async show(actor: Actor, id: number): Promise<Presented<D, A>> {
      const detail = await def.detail(db, id);
      def.policy.assertVisible(actor, detail);
      return present(actor, detail);
    },

    /** A list row or a detail with the actor's abilities and the fields they may see. */
    present,

    /**
     * A new document: its steps (which check the input against the policy: the stores it names)
     * write it and answer its id, in one transaction; then as every write.
     */
    async create(actor: Actor, steps: (ctx: StepContext) => Promise<number>): Promise<Presented<D, A>> {
      let ran = false;
      const id = await transaction(
        db,
        async (trx) => {
          ran = true;
          const ctx: StepContext = { trx, at: now(), actor };
          const made = await steps(ctx);
          if (!ctx.indexed) await indexRecords(trx, def.list, [made]);
          return made;
        },
        actor,
      );
      return after(actor, id, 'create', ran);
    },

    /**
     * An action on a document: locked, authorized (with a manager's approval where the rules need
     * one), its steps run, in one transaction; then as every write.
     */
    async act(
      actor: Actor,
      id: number,
      action: A,
      steps: (ctx: ActionContext<T>) => Promise<void>,
      approver: Approver | null = null,
    ): Promise<Presented<D, A>> {
      let ran = false;
      await transaction(
        db,
        async (trx) => {
          ran = true;
          await actWithin(trx, actor, id, action, steps, approver);
          return id;
        },
        actor,
      );
      return after(actor, id, action, ran);
    },

    actWithin,
  };
}
