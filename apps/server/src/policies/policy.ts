import type { Ability, MessageKey, MessageParams, Permission } from '@depot/contracts';
import { type Expression, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { Writer } from '../db/transaction.ts';
import { AppError, FieldError, notFound } from '../http/errors.ts';
import { type Coverage, coversStore } from './coverage.ts';

/**
 * The policy module's common ground. Each file of this folder is the rules of one model or
 * document (as Outline's server/policies): who may see it, and for each action who may take it,
 * in which state and which store. From one set of rules a policy gives
 *
 * - `abilities(actor, record)`: the actions the actor may take on it now, sent with the record;
 * - `authorize(actor, record, action, approver)`: the same rules as refusals (404 outside the
 *   actor's coverage, 403 for a missing permission, 409 for a state that forbids it, 403 asking
 *   for a manager's approval), so what the web shows and what the server accepts cannot differ;
 * - scopes for list queries (`storeScope`), added in the query itself so totals and pages agree.
 */

/**
 * Who acts: the signed-in user (`request.auth` is one), or a manager approving at the till. A
 * request's actor also carries its idempotency claim (a Writer), which its transaction takes.
 */
export interface Actor extends Writer {
  userId: number;
  /** The home store: the till's default. */
  storeId: number | null;
  permissions: ReadonlySet<string>;
  coverage: Coverage;
  /** For the audit trail: the sign-in name and the request's address, when known. */
  name?: string;
  ip?: string;
}

/** The one permission check: does the actor (a request's signed-in user, or none) hold it? */
export function can(actor: Pick<Actor, 'permissions'> | null | undefined, permission: Permission): boolean {
  return actor?.permissions.has(permission) ?? false;
}

export function covers(actor: Actor, storeId: number): boolean {
  return coversStore(actor.coverage, storeId);
}

/**
 * SQL for "in a store the actor covers", on one or more store columns of a query (a transfer is the
 * business of both its stores): null when the actor covers every store, so nothing is added.
 */
export function storeScope(actor: Actor, ...columns: string[]): Expression<SqlBool> | null {
  if (actor.coverage.all) return null;
  const ids = actor.coverage.storeIds;
  if (!ids.length) return sql<SqlBool>`1 = 0`;
  const list = sql.join([...ids]);
  const each = columns.map((column) => sql<SqlBool>`${sql.ref(column)} in (${list})`);
  return each.length === 1 ? each[0] : sql<SqlBool>`(${sql.join(each, sql` or `)})`;
}

// biome-ignore lint/suspicious/noExplicitAny: a scope narrows a query of any tables
export type AnyQuery = SelectQueryBuilder<any, any, any>;

/** A list's narrowing to what the actor may see, added in the query itself (counts agree with pages). */
export type Scope = <Q extends AnyQuery>(query: Q, actor: Actor) => Q;

/** A query narrowed to the actor's stores (see storeScope). */
export function inStores<Q extends AnyQuery>(query: Q, actor: Actor, ...columns: string[]): Q {
  const condition = storeScope(actor, ...columns);
  return condition ? (query.where(condition) as Q) : query;
}

/** The scope of records that belong to the store in `column` (or to either of several). */
export function storeScoped(...columns: string[]): Scope {
  return (query, actor) => inStores(query, actor, ...columns);
}

/**
 * An input naming a store (a sale's, a purchase's, a transfer's side, an adjustment's) must name
 * one the actor covers: a 422 on that field, so a form shows it where the store was chosen.
 */
export function assertStoreInput(actor: Actor, field: string, storeId: number): void {
  if (!covers(actor, storeId)) throw new FieldError({ [field]: [{ key: 'policy.store' }] });
}

/**
 * A record without the fields the actor may not see: cost prices, margins, stock values are
 * `costs.view`'s. The response schemas allow their absence.
 */
export function hideCosts<T extends object>(actor: Actor, record: T, fields: readonly (keyof T)[]): T {
  if (can(actor, 'costs.view')) return record;
  const shown = { ...record };
  for (const field of fields) delete shown[field];
  return shown;
}

/**
 * The refusal of a document's state, for `Rule.state`: "Purchase PO-2026-000001 is received: it
 * cannot be changed." (409), from the document's message (`order.state`, `purchase.state`, …).
 */
export function stateRefusal(
  message: MessageKey,
  record: { number: string; status: string },
  action: MessageKey,
): () => AppError {
  return () =>
    new AppError(409, message, {
      number: record.number,
      status: { key: `status.${record.status}` as MessageKey },
      action: { key: action },
    });
}

/** A message with its parameters, for a refusal that says why. */
export interface Refusal {
  key: MessageKey;
  params?: MessageParams;
}

/** What a rule decided about one action on one record. */
export type Decision =
  | { allow: true }
  /**
   * Allowed to holders of `permission`, or with the approval of one who covers `storeId`; `why`
   * says what needs it (a credit limit), else the general "a manager's approval is needed".
   */
  | { approval: Permission; storeId: number; why?: Refusal }
  | { refuse: () => Error };

const ALLOW: Decision = { allow: true };

/**
 * One action's rule, read top to bottom: the permission it needs, the store it happens in, the
 * states that allow it, and whether it needs a manager. The first check that fails decides.
 */
export class Rule {
  private decision: Decision | null = null;

  constructor(private readonly actor: Actor) {}

  /** 403 without this permission. */
  permission(permission: Permission): this {
    if (!this.decision && !can(this.actor, permission)) this.decision = { refuse: forbiddenBy('auth.forbidden') };
    return this;
  }

  /** 403 unless the actor covers this store (a record they see through its other store: a transfer). */
  store(storeId: number): this {
    if (!this.decision && !covers(this.actor, storeId)) this.decision = { refuse: forbiddenBy('policy.store') };
    return this;
  }

  /** Refused with this error (a 409 naming the state, mostly) unless the state allows it. */
  state(allowed: boolean, refusal: () => Error): this {
    if (!this.decision && !allowed) this.decision = { refuse: refusal };
    return this;
  }

  /** 403 with this message unless `allowed` (a rule of who, beyond permissions: one's own held order). */
  unless(allowed: boolean, key: MessageKey): this {
    if (!this.decision && !allowed) this.decision = { refuse: forbiddenBy(key) };
    return this;
  }

  /**
   * Where `needed`, holders of `permission` act alone; others need the approval of one who does
   * (asked for with `why` when given).
   */
  approval(needed: boolean, permission: Permission, storeId: number, why?: Refusal): Decision {
    if (this.decision) return this.decision;
    return needed && !can(this.actor, permission) ? { approval: permission, storeId, why } : ALLOW;
  }

  done(): Decision {
    return this.decision ?? ALLOW;
  }
}

export function rule(actor: Actor): Rule {
  return new Rule(actor);
}

function forbiddenBy(key: MessageKey): () => Error {
  return () => new AppError(403, key);
}

/** The rules of a model or a document: who sees a record, and each action's rule. */
export interface PolicyRules<R, A extends string> {
  /** Can the actor see this record at all? A record they cannot see does not exist for them (404). */
  visible(actor: Actor, record: R): boolean;
  actions: { [K in A]: (actor: Actor, record: R) => Decision };
}

/** A manager who approved at the till, already identified (policies/approval.ts). */
export type Approver = Actor;

export interface Policy<R, A extends string> extends PolicyRules<R, A> {
  /** The actions the actor may take on the record now: true, false, or 'approval'. */
  abilities(actor: Actor, record: R): Record<A, Ability>;
  /** 404 unless the actor may see the record. */
  assertVisible(actor: Actor, record: R): void;
  /**
   * Refuses what the rules refuse, by throwing; answers who approved, when a manager's approval
   * allowed it (the document records it), else null.
   */
  authorize(actor: Actor, record: R, action: A, approver?: Approver | null): { approvedBy: number | null };
}

export function definePolicy<R, A extends string>(rules: PolicyRules<R, A>): Policy<R, A> {
  const names = Object.keys(rules.actions) as A[];
  return {
    ...rules,
    abilities(actor, record) {
      const visible = rules.visible(actor, record);
      const abilities = {} as Record<A, Ability>;
      for (const name of names) {
        const decision = visible ? rules.actions[name](actor, record) : null;
        abilities[name] = !decision || 'refuse' in decision ? false : 'approval' in decision ? 'approval' : true;
      }
      return abilities;
    },
    assertVisible(actor, record) {
      if (!rules.visible(actor, record)) throw notFound();
    },
    authorize(actor, record, action, approver = null) {
      if (!rules.visible(actor, record)) throw notFound();
      const decision = rules.actions[action](actor, record);
      if ('refuse' in decision) throw decision.refuse();
      if ('allow' in decision) return { approvedBy: null };
      if (!approver) {
        const why = decision.why;
        throw new AppError(403, why?.key ?? 'approval.required', why?.params, { body: { code: 'approval_required' } });
      }
      if (!can(approver, decision.approval) || !covers(approver, decision.storeId)) {
        throw new FieldError({ approval: [{ key: 'approval.not_allowed' }] });
      }
      return { approvedBy: approver.userId };
    },
  };
}
