import type { Insertable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { KhqrPaymentsTable } from '../../db/schema.ts';

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
  await db.updateTable('khqr_payments').set({ paid_hash: hash }).where('id', '=', id).execute();
}

/** Whether a payment with this reference is already recorded on the order (a check retried). */
export async function paymentRecorded(db: Db, orderId: number, reference: string): Promise<boolean> {
  const row = await db
    .selectFrom('order_payments')
    .select('id')
    .where('order_id', '=', orderId)
    .where('kind', '=', 'payment')
    .where('transaction_id', '=', reference)
    .executeTakeFirst();
  return row !== undefined;
}
