import type { DeliveryStatus, OrderDetail, TenderMethod } from '@depot/contracts';
import { type Insertable, type SelectQueryBuilder, sql, type Updateable } from 'kysely';
import { type Db, isPostgres } from '../../db/database.ts';
import { type LastWrite, runTogether, writeLast } from '../../db/later.ts';
import { prepared } from '../../db/prepared.ts';
import type {
  DB,
  InvoicesTable,
  OrderItemBatchesTable,
  OrderItemsTable,
  OrderPaymentsTable,
  OrderReturnsTable,
  OrdersTable,
  SearchTermsTable,
} from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';
import type { Read } from '../../kit/resource.ts';
import { LEAD } from '../../kit/search.ts';
import { orderQuery } from './orders.resources.ts';

type SearchTerm = Insertable<SearchTermsTable>;

/*
 * The Kysely queries of orders: the reads an answer is made of (below), and the writes of a sale,
 * a payment, a void and a return. The rules and their order are in the steps (orders.cart.ts,
 * orders.sale.ts, orders.payments.ts, orders.stock.ts, orders.returns.ts).
 */

// Every answer about an order reads these four: compiled once (db/prepared.ts); exported for
// orders.repository.test.ts, which keeps their SQL.
export const headOf = prepared((db: Db, p: { id: number }) =>
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
export const itemsOf = prepared((db: Db, p: { id: number }) =>
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
      sql<number>`coalesce(units.decimals, 0)`.as('decimals'),
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
      'order_items.serials',
    ])
    .where('order_items.order_id', '=', p.id)
    .orderBy('order_items.id'),
);
export const paymentsOf = prepared((db: Db, p: { id: number }) =>
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
export const invoiceOf = prepared((db: Db, p: { id: number }) =>
  db
    .selectFrom('invoices')
    .select(['id', 'number', 'total_cents', 'items_count', 'paid_at'])
    .where('order_id', '=', p.id)
    .where('deleted_at', 'is', null),
);

/** A line's serials as kept (a JSON array, or null: none). */
export function serialsOf(kept: string | null): string[] {
  return kept ? (JSON.parse(kept) as string[]) : [];
}

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
      serials: serialsOf(i.serials),
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

// ---- the catalogue a cart is checked against (orders.cart.ts readCart) ----

/** Live products of a cart, by id. */
export function cartProducts(db: Db, ids: number[]) {
  return db
    .selectFrom('products')
    .innerJoin('units', 'units.id', 'products.unit_id')
    .selectAll('products')
    .select('units.decimals as unit_decimals')
    .where('products.id', 'in', ids)
    .where('products.deleted_at', 'is', null)
    .execute();
}

/** Live combos of a cart, by id. */
export function cartCombos(db: Db, ids: number[]) {
  return db.selectFrom('combos').selectAll().where('id', 'in', ids).where('deleted_at', 'is', null).execute();
}

/** What each combo is made of, with whether its products carry VAT. */
export function comboParts(db: Db, comboIds: number[]) {
  return db
    .selectFrom('combo_items')
    .innerJoin('products', 'products.id', 'combo_items.product_id')
    .select([
      'combo_items.combo_id',
      'combo_items.product_id',
      'combo_items.factor',
      'combo_items.quantity',
      'products.taxable',
      'products.serial_tracked',
    ])
    .where('combo_items.combo_id', 'in', comboIds)
    .execute();
}

/** Live units of a cart, by id (none asked: 0, which no unit has). */
export function cartUnits(db: Db, ids: number[]) {
  return db
    .selectFrom('units')
    .select(['id', 'base_unit_id', 'factor', 'name_en', 'name_kh'])
    .where('deleted_at', 'is', null)
    .where('id', 'in', [0, ...ids])
    .execute();
}

/** Live discounts of a cart, by id. */
export function cartDiscounts(db: Db, ids: number[]) {
  return db.selectFrom('discounts').selectAll().where('id', 'in', ids).where('deleted_at', 'is', null).execute();
}

// ---- an order's row and lines (orders.sale.ts) ----

/** Sets some of an order's columns. */
export async function updateOrder(db: Db, id: number, set: Updateable<OrdersTable>): Promise<void> {
  await db.updateTable('orders').set(set).where('id', '=', id).execute();
}

/** A new order; answers its id. */
export async function insertOrder(db: Db, values: Insertable<OrdersTable>): Promise<number> {
  const made = await db.insertInto('orders').values(values).returning('id').executeTakeFirstOrThrow();
  return made.id;
}

/** An order's status, before a void changes it. */
export function orderStatus(db: Db, id: number) {
  return db.selectFrom('orders').select('status').where('id', '=', id).executeTakeFirstOrThrow();
}

/** Removes an order's lines (a held order written again). */
export async function deleteLines(db: Db, orderId: number): Promise<void> {
  await db.deleteFrom('order_items').where('order_id', '=', orderId).execute();
}

/** Writes lines in one statement; answers their ids in the order given (RETURNING's own order is not promised). */
export async function insertLines(db: Db, rows: Insertable<OrderItemsTable>[]): Promise<number[]> {
  const made = await db.insertInto('order_items').values(rows).returning('id').execute();
  return made.map((r) => r.id).sort((a, b) => a - b);
}

/** Every line of an order. */
export function orderLines(db: Db, orderId: number) {
  return db.selectFrom('order_items').selectAll().where('order_id', '=', orderId).execute();
}

/** The ids of an order's lines. */
export function orderLineIds(db: Db, orderId: number) {
  return db.selectFrom('order_items').select('id').where('order_id', '=', orderId).execute();
}

/** Sets some of a line's columns. */
export async function updateLine(db: Db, id: number, set: Updateable<OrderItemsTable>): Promise<void> {
  await db.updateTable('order_items').set(set).where('id', '=', id).execute();
}

/**
 * The writes that number a sale (orders.sale.ts `numberSale`): the counters' upsert, then for each
 * document its number and its search terms, to run as the transaction's last statement.
 */
export function numberWrites(
  trx: Db,
  year: string,
  numbered: { table: 'orders' | 'invoices'; id: number; prefix: string; heads: string[]; terms: SearchTerm[] }[],
): LastWrite[] {
  const pg = isPostgres(trx);
  const writes: LastWrite[] = [
    {
      name: 'numbers',
      query: trx
        .insertInto('sequences')
        .values(numbered.map((n) => ({ key: `${n.prefix}:${year}`, value: 1 })))
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: sql<number>`sequences.value + 1` }))
        .returning(['key', 'value'])
        .compile(),
    },
  ];
  for (const n of numbered) {
    const key = `${n.prefix}:${year}`;
    // the counter's new value as six digits (or more): PostgreSQL reads the upsert's WITH (a
    // statement's parts see none of each other's writes), SQLite the row just counted
    const digits = pg
      ? sql`(select case when value < 1000000 then lpad(cast(value as text), 6, '0') else cast(value as text) end
          from numbers where key = ${key})`
      : sql`(select printf('%06d', value) from sequences where key = ${key})`;
    const head = `${n.prefix}-${year}-`;
    writes.push({
      query: sql`update ${sql.table(n.table)} set number = ${head} || ${digits} where id = ${n.id}`.compile(trx),
    });
    // the number's terms end with its digits: each head (what precedes them) with the digits
    writes.push({
      query: sql`insert into search_terms (resource, term, lead, record_id, sort_key)
        select ${n.table}, t.column1 || d.n, substr(t.column1 || d.n, 1, ${LEAD}), cast(${n.id} as bigint), null
        from (select ${digits} as n) d, (values ${sql.join(n.heads.map((h) => sql`(${h})`))}) t
        where true on conflict do nothing`.compile(trx),
    });
    if (n.terms.length) {
      writes.push({
        query: trx
          .insertInto('search_terms')
          .values(n.terms)
          .onConflict((oc) => oc.doNothing())
          .compile(),
      });
    }
  }
  return writes;
}

// ---- money: payments, refunds, invoices (orders.payments.ts, orders.returns.ts) ----

/** A payment's tenders and the order's new money, one statement on PostgreSQL (nothing read back). */
export async function writePayments(
  trx: Db,
  orderId: number,
  rows: Insertable<OrderPaymentsTable>[],
  set: Updateable<OrdersTable>,
): Promise<void> {
  await runTogether(trx, [
    { query: trx.insertInto('order_payments').values(rows).compile() },
    { query: trx.updateTable('orders').set(set).where('id', '=', orderId).compile() },
  ]);
}

/** A payment or refund row. */
export async function insertPayment(db: Db, row: Insertable<OrderPaymentsTable>): Promise<void> {
  await db.insertInto('order_payments').values(row).execute();
}

/** What has been refunded of an order so far. */
export async function refundedCents(db: Db, orderId: number): Promise<number> {
  const row = await db
    .selectFrom('order_payments')
    .select(sql<number>`coalesce(sum(amount_cents), 0)`.as('n'))
    .where('order_id', '=', orderId)
    .where('kind', '=', 'refund')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The order's store, its code and the money an invoice copies. */
export function invoiceSource(db: Db, orderId: number) {
  return db
    .selectFrom('orders')
    .innerJoin('stores', 'stores.id', 'orders.store_id')
    .select(['orders.store_id', 'stores.code', 'orders.total_cents', 'orders.tax_cents', 'orders.items_count'])
    .where('orders.id', '=', orderId)
    .executeTakeFirstOrThrow();
}

/** Whether an order has an invoice, void or not. */
export function hasInvoice(db: Db, orderId: number) {
  return db.selectFrom('invoices').select('id').where('order_id', '=', orderId).executeTakeFirst();
}

/** A new invoice; answers its id. */
export async function insertInvoice(db: Db, values: Insertable<InvoicesTable>): Promise<number> {
  const { id } = await db.insertInto('invoices').values(values).returning('id').executeTakeFirstOrThrow();
  return id;
}

/** A voided sale's invoice, deleted. */
export async function deleteInvoice(db: Db, orderId: number, at: string): Promise<void> {
  await db.updateTable('invoices').set({ deleted_at: at, updated_at: at }).where('order_id', '=', orderId).execute();
}

/** A return's row. */
/** A return; answers its id (a credit note names it). */
export async function insertReturn(db: Db, values: Insertable<OrderReturnsTable>): Promise<number> {
  const { id } = await db.insertInto('order_returns').values(values).returning('id').executeTakeFirstOrThrow();
  return id;
}

// ---- the batches a sale's lines took (orders.stock.ts) ----

/** The batches lines took, left for the transaction's end (db/later.ts): 100 rows a statement. */
export async function writeTaken(trx: Db, taken: Insertable<OrderItemBatchesTable>[]): Promise<void> {
  for (let i = 0; i < taken.length; i += 100) {
    await writeLast(trx, {
      query: trx
        .insertInto('order_item_batches')
        .values(taken.slice(i, i + 100))
        .compile(),
    });
  }
}

/** The batches some lines took, in the order taken. */
export function takenBy(db: Db, itemIds: number[]) {
  return db.selectFrom('order_item_batches').selectAll().where('order_item_id', 'in', itemIds).orderBy('id').execute();
}

/** How much of a batch a line took is back. */
export async function markTakenBack(db: Db, id: number, returned: number): Promise<void> {
  await db.updateTable('order_item_batches').set({ returned }).where('id', '=', id).execute();
}
