import type { DeliveryStatus, OrderDetail, TenderMethod } from '@depot/contracts';
import { type SelectQueryBuilder, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { prepared } from '../../db/prepared.ts';
import type { DB } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';
import type { Read } from '../../kit/resource.ts';
import { orderQuery } from './orders.resources.ts';

// Every answer about an order reads these four: compiled once (db/prepared.ts).
const headOf = prepared((db: Db, p: { id: number }) =>
  orderQuery(db)
    .leftJoin('users as approver', 'approver.id', 'orders.approved_by')
    .select([
      'stores.code as store_code',
      'stores.phone as store_phone',
      'stores.address as store_address',
      sql<string | null>`coalesce(approver.full_name, approver.name)`.as('approved_by_name'),
    ])
    .where('orders.id', '=', p.id),
);
const itemsOf = prepared((db: Db, p: { id: number }) =>
  db
    .selectFrom('order_items')
    .leftJoin('units', 'units.id', 'order_items.unit_id')
    .select([
      'order_items.id',
      'order_items.kind',
      'order_items.product_id',
      'order_items.combo_id',
      'order_items.name_en',
      'order_items.name_kh',
      'order_items.sku',
      'order_items.unit_id',
      'units.name_en as unit_name_en',
      'units.name_kh as unit_name_kh',
      'order_items.factor',
      'order_items.quantity',
      'order_items.unit_price_cents',
      'order_items.discount_id',
      'order_items.discount_name',
      'order_items.line_discount_cents',
      'order_items.order_discount_cents',
      'order_items.net_cents',
      'order_items.tax_cents',
      'order_items.total_cents',
      'order_items.taxable',
      'order_items.returned_quantity',
      'order_items.price_source',
      'order_items.list_price_cents',
      'order_items.price_list_en',
      'order_items.price_list_kh',
      'order_items.oversold',
    ])
    .where('order_items.order_id', '=', p.id)
    .orderBy('order_items.id'),
);
const paymentsOf = prepared((db: Db, p: { id: number }) =>
  db
    .selectFrom('order_payments')
    .leftJoin('users', 'users.id', 'order_payments.received_by')
    .select([
      'order_payments.id',
      'order_payments.kind',
      'order_payments.method',
      'order_payments.amount',
      'order_payments.amount_cents',
      'order_payments.transaction_id',
      sql<string | null>`coalesce(users.full_name, users.name)`.as('received_by_name'),
      'order_payments.created_at',
    ])
    .where('order_payments.order_id', '=', p.id)
    .orderBy('order_payments.id'),
);
const invoiceOf = prepared((db: Db, p: { id: number }) =>
  db
    .selectFrom('invoices')
    .select(['id', 'number', 'total_cents', 'items_count', 'paid_at'])
    .where('order_id', '=', p.id)
    .where('deleted_at', 'is', null),
);

/** An order with its lines, tenders and refunds, invoice and store: what a receipt prints. */
export async function orderDetail(db: Db, id: number): Promise<Read<OrderDetail>> {
  const [head] = await headOf(db, { id });
  if (!head) throw notFound();
  const items = await itemsOf(db, { id });
  const payments = await paymentsOf(db, { id });
  const [invoice] = await invoiceOf(db, { id });
  const n = Number;
  return {
    ...head,
    status: head.status as OrderDetail['status'],
    payment_status: head.payment_status as OrderDetail['payment_status'],
    delivery_status: head.delivery_status as DeliveryStatus | null,
    subtotal_cents: n(head.subtotal_cents),
    discount_cents: n(head.discount_cents),
    tax_cents: n(head.tax_cents),
    delivery_fee_cents: n(head.delivery_fee_cents),
    total_cents: n(head.total_cents),
    paid_cents: n(head.paid_cents),
    due_cents: n(head.due_cents),
    change_cents: n(head.change_cents),
    change_khr: n(head.change_khr),
    change_given_cents: n(head.change_given_cents),
    change_given_khr: n(head.change_given_khr),
    total_khr: n(head.total_khr),
    oversold: Boolean(head.oversold),
    items: items.map((i) => ({
      ...i,
      kind: i.kind as 'product' | 'combo',
      unit_price_cents: n(i.unit_price_cents),
      line_discount_cents: n(i.line_discount_cents),
      order_discount_cents: n(i.order_discount_cents),
      net_cents: n(i.net_cents),
      tax_cents: n(i.tax_cents),
      total_cents: n(i.total_cents),
      taxable: n(i.taxable) === 1,
      oversold: n(i.oversold),
    })),
    payments: payments.map((p) => ({
      ...p,
      kind: p.kind as 'payment' | 'refund',
      method: p.method as TenderMethod,
      amount: n(p.amount),
      amount_cents: n(p.amount_cents),
    })),
    invoice: invoice ? { ...invoice, total_cents: n(invoice.total_cents) } : null,
  };
}

type OrdersOf = SelectQueryBuilder<DB, 'users' | 'orders', { id: number }>;

/**
 * Everyone who has recorded a sale, by name: the orders list's cashier filter (a depot's staff),
 * among the orders `scope` leaves (the user's stores).
 */
export function cashiers(db: Db, scope: (orders: OrdersOf) => OrdersOf): Promise<{ id: number; name: string }[]> {
  return db
    .selectFrom('users')
    .select(['users.id', sql<string>`coalesce(users.full_name, users.name)`.as('name')])
    .where((eb) =>
      eb.exists(scope(eb.selectFrom('orders').select('orders.id').whereRef('orders.cashier_id', '=', 'users.id'))),
    )
    .orderBy('name')
    .execute();
}
