import type { MessageKey, OrderAction } from '@depot/contracts';
import { AppError, FieldError } from '../http/errors.ts';
import { type Actor, assertStoreInput, can, covers, definePolicy, rule, stateRefusal, storeScoped } from './policy.ts';

/** What the rules read of an order: its row, its list entry and its detail all carry it. */
export interface OrderFacts {
  number: string;
  store_id: number;
  cashier_id: number | null;
  status: string;
  payment_status: string;
  total_cents: number;
  paid_cents: number;
  delivery_status: string | null;
}

/** "Order ORD-2026-000001 is cancelled: it cannot be paid." */
const orderState = (order: OrderFacts, action: MessageKey) => stateRefusal('order.state', order, action);

const held = (order: OrderFacts) => order.status === 'held';
const sold = (order: OrderFacts) => order.status === 'confirmed';
/**
 * The goods of a sale have left the store: handed over at the till, or a delivery on its way or
 * done. A void puts them back in stock, so voiding such a sale is a manager's, paid or not.
 */
const handedOver = (order: OrderFacts) =>
  sold(order) &&
  (order.delivery_status === null || ['shipping', 'shipped', 'completed'].includes(order.delivery_status));
/** The cashier who held a cart, or a manager (orders.approve), may change it; nobody else. */
const mayChange = (actor: Actor, order: OrderFacts) =>
  order.cashier_id === actor.userId || can(actor, 'orders.approve');

/**
 * Orders (sales) and their invoices. An order belongs to its store: seen and acted on by those who
 * cover it. At the till (orders.create) a cashier sells, holds a cart and takes payments; a held
 * cart is changed or checked out by its own cashier or a manager. Voiding (orders.cancel) a held
 * cart, or an unpaid delivery still in the store, is the till's; voiding a paid sale (money goes
 * back) or one whose goods were handed over (stock comes back though the goods left), and returns,
 * need a manager: orders.approve, or a manager's approval entered at the till, recorded on the order.
 */
export const orderPolicy = definePolicy<OrderFacts, OrderAction>({
  visible: (actor, order) => covers(actor, order.store_id),
  actions: {
    update: (actor, order) =>
      rule(actor)
        .permission('orders.create')
        .state(held(order), orderState(order, 'action.changed'))
        .unless(mayChange(actor, order), 'policy.not_yours')
        .done(),
    pay: (actor, order) =>
      rule(actor)
        .permission('orders.create')
        .state(sold(order), orderState(order, 'action.paid'))
        .state(order.paid_cents < order.total_cents, () => new FieldError({ payments: [{ key: 'order.nothing_due' }] }))
        .done(),
    cancel: (actor, order) =>
      rule(actor)
        .permission('orders.cancel')
        .state(order.status !== 'cancelled', orderState(order, 'action.cancelled'))
        .unless(!held(order) || mayChange(actor, order), 'policy.not_yours')
        .approval(sold(order) && (order.paid_cents > 0 || handedOver(order)), 'orders.approve', order.store_id),
    return: (actor, order) =>
      rule(actor)
        .permission('orders.cancel')
        .state(sold(order), orderState(order, 'action.returned'))
        .state(order.payment_status === 'paid', () => new AppError(409, 'order.not_paid'))
        .approval(true, 'orders.approve', order.store_id),
    deliver: (actor, order) =>
      rule(actor)
        .permission('orders.update')
        .state(sold(order), orderState(order, 'action.changed'))
        .state(order.delivery_status !== null, () => new AppError(409, 'order.no_delivery'))
        .done(),
  },
});

/** The orders a list shows: those of the actor's stores. */
export const orderScope = storeScoped('orders.store_id');

/** The invoices a list shows: those of the actor's stores. */
export const invoiceScope = storeScoped('invoices.store_id');

/** A sale is made in a store the seller covers (the home store when the till names none). */
export function authorizeSale(actor: Actor, storeId: number): void {
  assertStoreInput(actor, 'store_id', storeId);
}
