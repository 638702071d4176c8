import type { OrderAction, OrderDetail } from '@depot/contracts';
import { event } from '../../events/events.ts';
import type { DocumentDefinition } from '../../kit/document.ts';
import type { Read } from '../../kit/resource.ts';
import { orderPolicy } from '../../policies/orders.ts';
import { orderDetail } from './orders.repository.ts';
import { orders } from './orders.resources.ts';

/**
 * An order as a document (kit/document.ts): its lists (orders and the invoices its payments and
 * voids change), its policy, its detail, and what its writes announce.
 */
export const orderDocument: DocumentDefinition<'orders', Read<OrderDetail>, OrderAction> = {
  table: 'orders',
  list: orders,
  changes: ['invoices'],
  // a held cart changed or checked out has new lines, note and address to be found by
  reindex: ['update'],
  policy: orderPolicy,
  detail: orderDetail,
  events: (order, action) => [
    event(action === 'create' ? 'OrderCreated' : 'OrderUpdated', {
      id: order.id,
      store_id: order.store_id,
      status: order.status,
      payment_status: order.payment_status,
      delivery_status: order.delivery_status,
      ...(order.oversold ? { oversold: true } : {}),
    }),
  ],
};
