import type { TaxDocumentAction } from '@depot/contracts';
import { AppError, notFound } from '../http/errors.ts';
import { type Actor, covers, definePolicy, rule, storeScoped } from './policy.ts';

/** What the rules read of a tax document. */
export interface TaxDocumentFacts {
  store_id: number;
  kind: string;
}

const isInvoice = (doc: TaxDocumentFacts) => doc.kind === 'tax_invoice' || doc.kind === 'commercial_invoice';

/**
 * Tax documents (modules/tax) belong to the store of their sale: seen by those who cover it
 * (tax_documents.list/view). Issuing a sale's invoice is `tax_documents.create` on a sale of a
 * covered store (`assertMayInvoice`); a debit note, a price correction upward, is a manager's
 * (`tax_documents.approve`) and corrects an invoice only. Credit notes come with the return or
 * void that makes them (the order's policy). Nothing edits or deletes a document once issued.
 */
export const taxDocumentPolicy = definePolicy<TaxDocumentFacts, TaxDocumentAction>({
  visible: (actor, doc) => covers(actor, doc.store_id),
  actions: {
    debit: (actor, doc) =>
      rule(actor)
        .permission('tax_documents.approve')
        .state(isInvoice(doc), () => new AppError(409, 'tax.not_invoice'))
        .done(),
  },
});

/** A sale another store's user cannot see does not exist for them (404); the route asked tax_documents.create. */
export function assertMayInvoice(actor: Actor, order: { store_id: number }): void {
  if (!covers(actor, order.store_id)) throw notFound();
}

/** The documents a list shows: those of the actor's stores. */
export const taxDocumentScope = storeScoped('tax_documents.store_id');
