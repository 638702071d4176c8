import type { MessageKey, PurchaseAction, PurchaseStatus } from '@depot/contracts';
import { AppError, FieldError } from '../http/errors.ts';
import { type Actor, can, covers, definePolicy, rule, stateRefusal, storeScoped } from './policy.ts';

/** What the rules read of a purchase: its row, its list entry and its detail all carry it. */
export interface PurchaseFacts {
  number: string;
  status: string;
  store_id: number;
  grand_total_cents: number;
  paid_cents: number;
}

/** "Purchase PO-2026-000001 is received: it cannot be changed." */
const purchaseState = (purchase: PurchaseFacts, action: MessageKey) => stateRefusal('purchase.state', purchase, action);

const is = (purchase: PurchaseFacts, ...statuses: PurchaseStatus[]) => (statuses as string[]).includes(purchase.status);

/**
 * Purchases. A purchase belongs to the store it delivers to. Its lines are costs: every purchase
 * screen is money (what the goods cost, what is due to the supplier), so seeing or writing one needs
 * `costs.view` besides the purchases permission (the default roles with purchases hold it). Editing,
 * ordering and receiving are a stock keeper's (purchases.update); paying the supplier is a manager's
 * (purchases.approve); cancelling (purchases.cancel) only while nothing arrived and nothing was paid.
 * Once anything arrived the purchase is partly received: a draft or an order has received nothing.
 */
export const purchasePolicy = definePolicy<PurchaseFacts, PurchaseAction>({
  visible: (actor, purchase) => covers(actor, purchase.store_id),
  actions: {
    update: (actor, purchase) =>
      rule(actor)
        .permission('purchases.update')
        .permission('costs.view')
        .state(is(purchase, 'draft', 'ordered'), purchaseState(purchase, 'action.changed'))
        .done(),
    order: (actor, purchase) =>
      rule(actor)
        .permission('purchases.update')
        .permission('costs.view')
        .state(is(purchase, 'draft'), purchaseState(purchase, 'action.ordered'))
        .done(),
    receive: (actor, purchase) =>
      rule(actor)
        .permission('purchases.update')
        .permission('costs.view')
        .state(is(purchase, 'ordered', 'partially_received'), purchaseState(purchase, 'action.received'))
        .done(),
    pay: (actor, purchase) =>
      rule(actor)
        .permission('purchases.approve')
        .permission('costs.view')
        .state(!is(purchase, 'cancelled'), purchaseState(purchase, 'action.paid'))
        .state(
          purchase.paid_cents < purchase.grand_total_cents,
          () => new FieldError({ amount_cents: [{ key: 'purchase.over_paid', params: { due: { usd: 0 } } }] }),
        )
        .done(),
    cancel: (actor, purchase) =>
      rule(actor)
        .permission('purchases.cancel')
        .permission('costs.view')
        .state(is(purchase, 'draft', 'ordered'), purchaseState(purchase, 'action.cancelled'))
        .state(purchase.paid_cents === 0, () => new AppError(409, 'purchase.has_payments', { number: purchase.number }))
        .done(),
  },
});

/** The purchases a list shows: those of the actor's stores. */
export const purchaseScope = storeScoped('purchases.store_id');

/** Seeing purchases at all: their money is costs. */
export function assertSeesPurchases(actor: Actor): void {
  if (!can(actor, 'costs.view')) throw new AppError(403, 'auth.forbidden');
}

/**
 * Paying a supplier over several purchases (credit's payment to a supplier) is what paying one
 * purchase is: purchases.approve and costs.view; it reaches only the purchases of the stores the
 * actor covers.
 */
export function assertPaysSuppliers(actor: Actor): void {
  if (!can(actor, 'purchases.approve') || !can(actor, 'costs.view')) throw new AppError(403, 'auth.forbidden');
}
