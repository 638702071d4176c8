import type { MessageKey, ShiftAction } from '@depot/contracts';
import { sql } from 'kysely';
import {
  type Actor,
  type AnyQuery,
  can,
  covers,
  definePolicy,
  type Refusal,
  rule,
  stateRefusal,
  storeScope,
} from './policy.ts';

/** What the rules read of a shift: its row, its list entry and its detail all carry it. */
export interface ShiftFacts {
  number: string;
  status: string;
  store_id: number;
  user_id: number;
}

/** "Shift SH-2026-000001 is closed: it cannot be closed." */
const shiftState = (shift: ShiftFacts, action: MessageKey) => stateRefusal('shift.state', shift, action);

/** Managers (shifts.approve) oversee every shift of their stores; a cashier has their own. */
const oversees = (actor: Actor) => can(actor, 'shifts.approve');
const mine = (actor: Actor, shift: ShiftFacts) => shift.user_id === actor.userId;

/**
 * Cash drawer shifts. A shift belongs to its cashier and its store: the cashier sees and works
 * their own (shifts.update: pay-ins, pay-outs, the close); whoever holds shifts.approve sees and
 * acts on every shift of the stores they cover, and approves a close whose difference is beyond the
 * threshold (the `difference` policy below, asked with the counted difference at the close).
 */
export const shiftPolicy = definePolicy<ShiftFacts, ShiftAction>({
  visible: (actor, shift) => covers(actor, shift.store_id) && (mine(actor, shift) || oversees(actor)),
  actions: {
    move: (actor, shift) =>
      rule(actor)
        .permission('shifts.update')
        .state(shift.status === 'open', shiftState(shift, 'action.changed'))
        .unless(mine(actor, shift) || oversees(actor), 'shift.not_yours')
        .done(),
    close: (actor, shift) =>
      rule(actor)
        .permission('shifts.update')
        .state(shift.status === 'open', shiftState(shift, 'action.closed'))
        .unless(mine(actor, shift) || oversees(actor), 'shift.not_yours')
        .done(),
  },
});

/** A close's difference: beyond the threshold it is shifts.approve's, or a manager's at the till. */
export const shiftDifferencePolicy = definePolicy<ShiftFacts & { over_threshold: boolean }, 'accept'>({
  visible: shiftPolicy.visible,
  actions: {
    accept: (actor, shift) => rule(actor).approval(shift.over_threshold, 'shifts.approve', shift.store_id),
  },
});

/**
 * A pay-out that takes the shift's pay-outs of its currency to the threshold (contracts'
 * `payOutNeedsApproval`): shifts.approve's, or a manager's approval at the till; the request for one
 * says what the pay-outs would come to.
 */
export const payOutPolicy = definePolicy<ShiftFacts & { over_threshold: boolean; why: Refusal }, 'pay_out'>({
  visible: shiftPolicy.visible,
  actions: {
    pay_out: (actor, shift) => rule(actor).approval(shift.over_threshold, 'shifts.approve', shift.store_id, shift.why),
  },
});

/**
 * Whether a blind close hides an open shift's drawer from the actor: every figure that adds up to
 * what it should hold (the shift's detail, its X report, the cashier's dashboard), until the count.
 */
export const hidesDrawer = (actor: Actor, blind: boolean) => blind && !oversees(actor);

/** Whether the actor sees what a drawer should hold before it is counted (a blind close hides it). */
export const seesExpected = (actor: Actor, shift: ShiftFacts, blind: boolean) =>
  shift.status !== 'open' || !hidesDrawer(actor, blind);

/** The shifts a list shows: one's own, or (shifts.approve) every shift of one's stores. */
export function shiftScope<Q extends AnyQuery>(query: Q, actor: Actor): Q {
  const stores = storeScope(actor, 'shifts.store_id');
  let scoped = stores ? (query.where(stores) as Q) : query;
  if (!oversees(actor)) scoped = scoped.where(sql.ref('shifts.user_id'), '=', actor.userId) as Q;
  return scoped;
}
