import type { CustomerPaymentAction } from '@depot/contracts';
import { AppError } from '../http/errors.ts';
import { type Actor, can, covers, definePolicy, type Refusal, rule } from './policy.ts';

/**
 * Credit: customers' credit limits and payment terms, what they owe, their payments on
 * account, statements; what the depot owes its suppliers.
 *
 * - Seeing balances, ageing and statements is `credit.view` (a cashier has none); a supplier's
 *   money is purchases' money: `costs.view` too. What a user sees of an account is the documents
 *   of the stores they cover (a manager of one store sees that store's part of a shop's debt);
 *   the limit is judged on the whole debt, every store together.
 * - A customer's limit and a party's terms are `credit.update`'s: a write by someone without it
 *   keeps the stored values (a new customer: not limited, no terms).
 * - A payment on account is `credit.create`, in a store the user covers; it has no later action.
 * - A sale leaving money unpaid beyond the customer's limit (no limit set: no credit, anything left
 *   unpaid is beyond it) is `orders.approve`'s: a cashier's sale
 *   goes through with a manager's approval at the till (policies/approval.ts), recorded on the
 *   order (`credit_approved_by`).
 */
export function assertSeesCredit(actor: Actor, party: 'customer' | 'supplier'): void {
  if (!can(actor, 'credit.view') || (party === 'supplier' && !can(actor, 'costs.view'))) {
    throw new AppError(403, 'auth.forbidden');
  }
}

/** A party's credit fields as the actor may write them: without credit.update, the stored ones. */
export function creditFields<T extends { payment_terms_days: number; credit_limit_cents?: number | null }>(
  actor: Actor,
  input: T,
  existing: Record<string, unknown> | null,
): T {
  if (can(actor, 'credit.update')) return input;
  const kept = { ...input, payment_terms_days: Number(existing?.payment_terms_days ?? 0) };
  if ('credit_limit_cents' in input) {
    const limit = existing?.credit_limit_cents;
    kept.credit_limit_cents = limit === null || limit === undefined ? null : Number(limit);
  }
  return kept;
}

/** What a sale's credit rule reads: its store, whether it takes the customer past their limit, and why. */
export interface CreditFacts {
  store_id: number;
  over_limit: boolean;
  why: Refusal;
}

/**
 * A sale's credit: past the customer's limit (none set: any debt), a manager (orders.approve) or a manager's approval
 * at the till; the request for one names the customer, what they would owe and their limit.
 */
export const salePolicy = definePolicy<CreditFacts, 'exceed_limit'>({
  visible: () => true,
  actions: {
    exceed_limit: (actor, sale) => rule(actor).approval(sale.over_limit, 'orders.approve', sale.store_id, sale.why),
  },
});

export interface CustomerPaymentFacts {
  store_id: number;
}

/** Customer payments: seen in the stores the user covers; no action once recorded. */
export const customerPaymentPolicy = definePolicy<CustomerPaymentFacts, CustomerPaymentAction>({
  visible: (actor, payment) => covers(actor, payment.store_id) && can(actor, 'credit.view'),
  actions: {} as Record<CustomerPaymentAction, () => never>,
});
