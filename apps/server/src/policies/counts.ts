import type { CountAction, CountStatus, MessageKey } from '@depot/contracts';
import { type Actor, can, covers, definePolicy, hideCosts, rule, stateRefusal, storeScoped } from './policy.ts';

/** What the rules read of a count: its row, its list entry and its detail all carry it. */
export interface CountFacts {
  number: string;
  status: string;
  store_id: number;
}

/** "Count SC-2026-000001 is approved: it cannot be counted." */
const countState = (count: CountFacts, action: MessageKey) => stateRefusal('count.state', count, action);

const is = (count: CountFacts, ...statuses: CountStatus[]) => (statuses as string[]).includes(count.status);

/**
 * Stock counts: a store's business, seen by those who cover it. Counters (stock_counts.update)
 * scan into an open count and submit it; a manager (stock_counts.approve) sends it back, approves
 * it (the differences are posted) or cancels it. A counter never sees what was expected.
 */
export const countPolicy = definePolicy<CountFacts, CountAction>({
  visible: (actor, count) => covers(actor, count.store_id),
  actions: {
    scan: (actor, count) =>
      rule(actor)
        .permission('stock_counts.update')
        .store(count.store_id)
        .state(is(count, 'open'), countState(count, 'action.counted'))
        .done(),
    submit: (actor, count) =>
      rule(actor)
        .permission('stock_counts.update')
        .store(count.store_id)
        .state(is(count, 'open'), countState(count, 'action.submitted'))
        .done(),
    reopen: (actor, count) =>
      rule(actor)
        .permission('stock_counts.approve')
        .store(count.store_id)
        .state(is(count, 'submitted'), countState(count, 'action.reopened'))
        .done(),
    approve: (actor, count) =>
      rule(actor)
        .permission('stock_counts.approve')
        .store(count.store_id)
        .state(is(count, 'submitted'), countState(count, 'action.approved'))
        .done(),
    cancel: (actor, count) =>
      rule(actor)
        .permission('stock_counts.approve')
        .store(count.store_id)
        .state(is(count, 'open', 'submitted'), countState(count, 'action.cancelled'))
        .done(),
  },
});

/** The counts a list shows: those of the actor's stores. */
export const countScope = storeScoped('stock_counts.store_id');

/** Whether the actor sees what the store expected (the count is blind to everyone else). */
export const seesExpected = (actor: Actor) => can(actor, 'stock_counts.approve');

interface Blind {
  expected?: number;
  difference?: number;
  difference_value_cents?: number;
}

/**
 * A count as the actor may see it: without the expected figures and differences unless they may
 * approve, and without their value at cost unless they also have costs.view.
 */
export function presentCount<C extends Blind & { lines: Blind[] }>(actor: Actor, count: C): C {
  if (!seesExpected(actor)) {
    const { difference_value_cents: _, ...head } = count;
    return {
      ...head,
      lines: count.lines.map(({ expected: _e, difference: _d, difference_value_cents: _v, ...line }) => line),
    } as C;
  }
  const shown = hideCosts(actor, count, ['difference_value_cents']);
  return { ...shown, lines: count.lines.map((line) => hideCosts(actor, line, ['difference_value_cents'])) };
}
