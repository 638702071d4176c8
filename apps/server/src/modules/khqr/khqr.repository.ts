import type { Insertable } from 'kysely';
import { type Db, now } from '../../db/database.ts';
import type { BankTransactionsTable, KhqrPaymentsTable } from '../../db/schema.ts';

/** An order with what a KHQR needs: its money, its rates and its store's Bakong account. */
export function orderForKhqr(db: Db, orderId: number) {
  return db
    .selectFrom('orders')
    .innerJoin('stores', 'stores.id', 'orders.store_id')
    .select([
      'orders.id',
      'orders.number',
      'orders.status',
      'orders.store_id',
      'orders.total_cents',
      'orders.paid_cents',
      'orders.exchange_rate_khr',
      'orders.rate_in_khr',
      'orders.rate_out_khr',
      'orders.khr_step',
      'stores.name as store_name',
      'stores.code as store_code',
      'stores.khqr_account_id',
      'stores.khqr_merchant_name',
      'stores.khqr_merchant_city',
      'stores.khqr_merchant_id',
      'stores.khqr_acquiring_bank',
    ])
    .where('orders.id', '=', orderId)
    .where('orders.deleted_at', 'is', null)
    .executeTakeFirst();
}

type Payee = { khqr_account_id: string | null; khqr_merchant_name: string | null; khqr_merchant_city: string | null };
type SetUp = { khqr_account_id: string; khqr_merchant_name: string; khqr_merchant_city: string };

/** Whether a store can be paid by KHQR: its Bakong account, merchant name and city are all set. */
export function takesKhqr<T extends Payee>(store: T): store is T & SetUp {
  return Boolean(store.khqr_account_id && store.khqr_merchant_name && store.khqr_merchant_city);
}

/** Whether this store can be paid by KHQR (takesKhqr), read from the database. */
export async function storeTakesKhqr(db: Db, storeId: number): Promise<boolean> {
  const store = await db
    .selectFrom('stores')
    .select(['khqr_account_id', 'khqr_merchant_name', 'khqr_merchant_city'])
    .where('id', '=', storeId)
    .executeTakeFirst();
  return store !== undefined && takesKhqr(store);
}

const columns = [
  'khqr_payments.id',
  'khqr_payments.order_id',
  'orders.number as order_number',
  'khqr_payments.payload',
  'khqr_payments.md5',
  'khqr_payments.currency',
  'khqr_payments.amount',
  'khqr_payments.amount_cents',
  'khqr_payments.merchant_name',
  'khqr_payments.created_at',
  'khqr_payments.expires_at',
  'khqr_payments.paid_hash',
  'khqr_payments.offline',
] as const;

/** The newest KHQR of an order (`md5` given: that one), or undefined. */
export function findKhqr(db: Db, orderId: number, md5?: string) {
  let query = db
    .selectFrom('khqr_payments')
    .innerJoin('orders', 'orders.id', 'khqr_payments.order_id')
    .select(columns)
    .where('khqr_payments.order_id', '=', orderId);
  if (md5) query = query.where('khqr_payments.md5', '=', md5);
  return query.orderBy('khqr_payments.id', 'desc').limit(1).executeTakeFirst();
}

export async function insertKhqr(db: Db, row: Insertable<KhqrPaymentsTable>): Promise<number> {
  const { id } = await db.insertInto('khqr_payments').values(row).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function markPaid(db: Db, id: number, hash: string): Promise<void> {
  await db.updateTable('khqr_payments').set({ paid_hash: hash, checked_at: now() }).where('id', '=', id).execute();
}

/** When Bakong was last asked about these QRs (and had no payment for them). */
export async function markChecked(db: Db, ids: number[]): Promise<void> {
  if (!ids.length) return;
  await db.updateTable('khqr_payments').set({ checked_at: now() }).where('id', 'in', ids).execute();
}

/** The US cents of the order's KHQR tender with this reference (a QR's md5), or null. */
export async function tenderCents(db: Db, orderId: number, reference: string): Promise<number | null> {
  const row = await db
    .selectFrom('order_payments')
    .select('amount_cents')
    .where('order_id', '=', orderId)
    .where('kind', '=', 'payment')
    .where('method', '=', 'khqr')
    .where('transaction_id', '=', reference)
    .executeTakeFirst();
  return row ? Number(row.amount_cents) : null;
}

/** The sale a Bakong transaction paid already, by its hash, or undefined. */
export function bankTransaction(db: Db, hash: string) {
  return db
    .selectFrom('bank_transactions')
    .innerJoin('orders', 'orders.id', 'bank_transactions.order_id')
    .select(['bank_transactions.order_id', 'orders.number'])
    .where('bank_transactions.hash', '=', hash)
    .executeTakeFirst();
}

/**
 * The sale a bank reference was typed on by hand (a KHQR or transfer tender of another order), for
 * payments recorded before hashes were claimed; or undefined.
 */
export function referenceElsewhere(db: Db, hash: string, orderId: number) {
  return db
    .selectFrom('order_payments')
    .innerJoin('orders', 'orders.id', 'order_payments.order_id')
    .select(['order_payments.order_id', 'orders.number'])
    .where('order_payments.transaction_id', '=', hash)
    .where('order_payments.kind', '=', 'payment')
    .where('order_payments.method', 'in', ['khqr', 'bank_transfer'])
    .where('order_payments.order_id', '<>', orderId)
    .executeTakeFirst();
}

/** Claims a Bakong transaction for a sale: the unique hash refuses a second claim, whoever makes it. */
export async function claimBankTransaction(db: Db, row: Insertable<BankTransactionsTable>): Promise<void> {
  await db.insertInto('bank_transactions').values(row).execute();
}

/**
 * A shift's KHQR sales that Bakong has not confirmed: their KHQR tender carries the QR's md5 (the
 * cashier confirmed it by hand, or the QR was made offline) and no bank hash came back since.
 */
export function uncheckedOfShift(db: Db, shiftId: number) {
  return db
    .selectFrom('khqr_payments as k')
    .innerJoin('order_payments as p', (join) =>
      join.onRef('p.order_id', '=', 'k.order_id').onRef('p.transaction_id', '=', 'k.md5'),
    )
    .innerJoin('orders as o', 'o.id', 'k.order_id')
    .innerJoin('stores as s', 's.id', 'o.store_id')
    .select([
      'k.id',
      'k.order_id',
      'o.number as order_number',
      'k.md5',
      'k.currency',
      'k.amount',
      'k.offline',
      'k.checked_at',
      's.khqr_account_id',
    ])
    .where('p.shift_id', '=', shiftId)
    .where('p.kind', '=', 'payment')
    .where('p.method', '=', 'khqr')
    .where('k.paid_hash', 'is', null)
    .orderBy('k.id')
    .execute();
}
