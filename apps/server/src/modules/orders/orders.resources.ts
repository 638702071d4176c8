import { invoice, order, orderInput } from '@depot/contracts';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import type { ResourceDefinition } from '../../kit/resource.ts';
import { invoiceScope, orderPolicy, orderScope } from '../../policies/orders.ts';

/**
 * The lists of orders and invoices come from the resource kit (search, filters, sort, pages); every
 * write is the orders service's (orders.service.ts).
 */

const date = z.iso.date();
const id = z.coerce.number().int().min(1);

/** An order as lists and details show it. */
export function orderQuery(db: Db) {
  return db
    .selectFrom('orders')
    .innerJoin('stores', 'stores.id', 'orders.store_id')
    .innerJoin('customers', 'customers.id', 'orders.customer_id')
    .leftJoin('users', 'users.id', 'orders.cashier_id')
    .leftJoin('invoices', (join) =>
      join.onRef('invoices.order_id', '=', 'orders.id').on('invoices.deleted_at', 'is', null),
    )
    .select([
      'orders.id',
      'orders.number',
      'orders.store_id',
      'stores.name as store_name',
      'orders.cashier_id',
      sql<string | null>`coalesce(users.full_name, users.name)`.as('cashier_name'),
      'orders.customer_id',
      'customers.name as customer_name',
      'customers.phone as customer_phone',
      'customers.vat_number as customer_vat_number',
      'orders.order_date',
      'orders.status',
      'orders.payment_status',
      'orders.subtotal_cents',
      'orders.discount_cents',
      'orders.tax_cents',
      'orders.delivery_fee_cents',
      'orders.total_cents',
      'orders.paid_cents',
      sql<number>`orders.total_cents - orders.paid_cents`.as('due_cents'),
      'orders.change_cents',
      'orders.change_khr',
      'orders.change_given_cents',
      'orders.change_given_khr',
      'orders.exchange_rate_khr',
      'orders.rate_in_khr',
      'orders.rate_out_khr',
      'orders.khr_step',
      'orders.total_khr',
      'orders.vat_rate_bp',
      'orders.discount_id',
      'orders.note',
      'orders.shipping_address',
      'orders.delivery_status',
      'orders.items_count',
      'invoices.number as invoice_number',
      'orders.cancelled_at',
      'orders.cancel_reason',
      'orders.offline_sold_at',
      'orders.offline_receipt_no',
      sql<boolean>`orders.oversold = 1`.as('oversold'),
      'orders.created_at',
      'orders.updated_at',
      'orders.deleted_at',
    ]);
}

export const orders: ResourceDefinition<'orders', typeof orderInput, typeof order> = {
  table: 'orders',
  path: '/api/orders',
  resource: 'orders',
  entity: 'entity.order',
  input: orderInput,
  output: order,
  routes: ['list'],
  query: orderQuery,
  policy: {
    scope: orderScope,
    present: (actor, row) => ({ ...row, abilities: orderPolicy.abilities(actor, row) }),
  },
  searchable: ['orders.number', 'orders.note', 'orders.shipping_address'],
  sortable: {
    order_date: 'orders.order_date',
    number: 'orders.number',
    total: 'orders.total_cents',
  },
  defaultSort: '-order_date',
  filters: {
    status: { column: 'orders.status', schema: z.enum(['held', 'confirmed', 'cancelled']) },
    payment_status: {
      column: 'orders.payment_status',
      schema: z.enum(['unpaid', 'partially_paid', 'paid', 'pending', 'onhold']),
    },
    store_id: { column: 'orders.store_id', schema: id },
    // the offline sales that took more than the store had
    oversold: { column: 'orders.oversold', schema: z.coerce.number().int().min(0).max(1) },
    cashier_id: { column: 'orders.cashier_id', schema: id },
    customer_id: { column: 'orders.customer_id', schema: id },
    delivery_status: {
      column: 'orders.delivery_status',
      schema: z.enum([
        'preparing',
        'preparing_done',
        'ready_for_delivery',
        'shipping',
        'shipped',
        'returned',
        'completed',
      ]),
    },
    /** From this day (in Cambodia) on. */
    date_from: {
      schema: date,
      apply: (query, value) =>
        query.where('orders.order_date', '>=', new Date(`${value}T00:00:00+07:00`).toISOString()),
    },
    /** Up to the end of this day (in Cambodia). */
    date_to: {
      schema: date,
      apply: (query, value) =>
        query.where(
          'orders.order_date',
          '<',
          new Date(Date.parse(`${value}T00:00:00+07:00`) + 86_400_000).toISOString(),
        ),
    },
  },
};

export const invoices: ResourceDefinition<'invoices', typeof orderInput, typeof invoice> = {
  table: 'invoices',
  path: '/api/invoices',
  resource: 'invoices',
  entity: 'entity.invoice',
  input: orderInput,
  output: invoice,
  routes: ['list'],
  query: (db) =>
    db
      .selectFrom('invoices')
      .innerJoin('orders', 'orders.id', 'invoices.order_id')
      .innerJoin('stores', 'stores.id', 'invoices.store_id')
      .innerJoin('customers', 'customers.id', 'orders.customer_id')
      .select([
        'invoices.id',
        'invoices.number',
        'invoices.order_id',
        'orders.number as order_number',
        'invoices.store_id',
        'stores.name as store_name',
        'customers.name as customer_name',
        'invoices.total_cents',
        'invoices.tax_cents',
        'invoices.items_count',
        'invoices.paid_at',
        'invoices.created_at',
        'invoices.updated_at',
        'invoices.deleted_at',
      ]),
  searchable: ['invoices.number'],
  policy: { scope: invoiceScope },
  sortable: { paid_at: 'invoices.paid_at', number: 'invoices.number', total: 'invoices.total_cents' },
  defaultSort: '-paid_at',
  filters: {
    store_id: { column: 'invoices.store_id', schema: id },
    date_from: {
      schema: date,
      apply: (query, value) => query.where('invoices.paid_at', '>=', new Date(`${value}T00:00:00+07:00`).toISOString()),
    },
    date_to: {
      schema: date,
      apply: (query, value) =>
        query.where(
          'invoices.paid_at',
          '<',
          new Date(Date.parse(`${value}T00:00:00+07:00`) + 86_400_000).toISOString(),
        ),
    },
  },
};
