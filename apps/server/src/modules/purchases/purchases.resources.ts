import { PURCHASE_STATUSES, purchase, purchaseInput } from '@depot/contracts';
import { sql } from 'kysely';
import { z } from 'zod';
import type { ResourceDefinition } from '../../kit/resource.ts';
import { assertSeesPurchases, purchasePolicy, purchaseScope } from '../../policies/purchases.ts';
import { purchaseRows } from './purchases.repository.ts';

const id = z.coerce.number().int().min(1);

/**
 * The list of purchases from the resource kit: search by number and notes, filters, sort, the
 * Laravel paginator. The detail and every write are purchases.routes.ts (a purchase has rules of
 * its own: numbering, receiving into stock, payments). A supplier's purchase history is this list
 * with `filter[supplier_id]`.
 */
export const purchases: ResourceDefinition<'purchases', typeof purchaseInput, typeof purchase> = {
  table: 'purchases',
  path: '/api/purchases',
  resource: 'purchases',
  entity: 'entity.purchase',
  input: purchaseInput,
  output: purchase,
  routes: ['list'],
  query: purchaseRows,
  policy: {
    require: assertSeesPurchases,
    scope: purchaseScope,
    present: (actor, row) => ({ ...row, abilities: purchasePolicy.abilities(actor, row) }),
  },
  searchable: ['purchases.number', 'purchases.notes'],
  sortable: {
    purchase_date: 'purchases.purchase_date',
    number: 'purchases.number',
    grand_total: 'purchases.grand_total_cents',
    created_at: 'purchases.created_at',
  },
  defaultSort: '-purchase_date',
  filters: {
    status: { column: 'purchases.status', schema: z.enum(PURCHASE_STATUSES) },
    payment_status: { column: 'purchases.payment_status', schema: z.enum(['unpaid', 'partially_paid', 'paid']) },
    supplier_id: { column: 'purchases.supplier_id', schema: id },
    store_id: { column: 'purchases.store_id', schema: id },
    /** Purchase dates from this day on, and up to this day (both included). */
    date_from: {
      schema: z.iso.date(),
      apply: (query, value) => query.where(sql.ref('purchases.purchase_date'), '>=', value as string),
    },
    date_to: {
      schema: z.iso.date(),
      apply: (query, value) => query.where(sql.ref('purchases.purchase_date'), '<=', value as string),
    },
  },
};
