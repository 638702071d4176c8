import type { PurchaseAction, PurchaseDetail } from '@depot/contracts';
import { event } from '../../events/events.ts';
import { notFound } from '../../http/errors.ts';
import type { DocumentDefinition } from '../../kit/document.ts';
import type { Read } from '../../kit/resource.ts';
import { purchasePolicy } from '../../policies/purchases.ts';
import { itemRows, paymentRows, purchaseRows } from './purchases.repository.ts';
import { purchases } from './purchases.resources.ts';

/** A purchase as a document (kit/document.ts): its list, policy, detail and what its writes announce. */
export const purchaseDocument: DocumentDefinition<'purchases', Read<PurchaseDetail>, PurchaseAction> = {
  table: 'purchases',
  list: purchases,
  reindex: ['update'],
  policy: purchasePolicy,
  async detail(db, id) {
    const head = await purchaseRows(db).where('purchases.id', '=', id).executeTakeFirst();
    if (!head) throw notFound();
    return { ...head, items: await itemRows(db, id), payments: await paymentRows(db, id) };
  },
  events: (purchase, action) =>
    action === 'receive' ? [event('PurchaseReceived', { id: purchase.id, store_id: purchase.store_id })] : [],
};
