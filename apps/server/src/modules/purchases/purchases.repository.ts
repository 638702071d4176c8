import type { PaymentMethod, PurchaseItem } from '@depot/contracts';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { PurchasesTable } from '../../db/schema.ts';

/** The Kysely queries of purchases: the rules and transactions are in purchases.service.ts. */

/** One row per purchase as the API shows it (the list and the head of the detail). */
export function purchaseRows(db: Db) {
  return db
    .selectFrom('purchases')
    .innerJoin('suppliers', 'suppliers.id', 'purchases.supplier_id')
    .innerJoin('stores', 'stores.id', 'purchases.store_id')
    .leftJoin('users', 'users.id', 'purchases.created_by')
    .select([
      'purchases.id',
      'purchases.number',
      'purchases.supplier_id',
      'suppliers.name as supplier_name',
      'purchases.store_id',
      'stores.name as store_name',
      'purchases.purchase_date',
      'purchases.notes',
      'purchases.status',
      'purchases.subtotal_cents',
      'purchases.shipping_cents',
      'purchases.tax_cents',
      'purchases.grand_total_cents',
      'purchases.paid_cents',
      sql<number>`purchases.grand_total_cents - purchases.paid_cents`.as('due_cents'),
      'purchases.payment_status',
      'purchases.items_count',
      sql<string | null>`coalesce(users.full_name, users.name)`.as('created_by_name'),
      'purchases.received_at',
      'purchases.cancelled_at',
      'purchases.created_at',
      'purchases.updated_at',
      'purchases.deleted_at',
    ]);
}

/** The lines of a purchase with their product and unit names, in the order they were entered. */
export function itemRows(db: Db, purchaseId: number): Promise<PurchaseItem[]> {
  return db
    .selectFrom('purchase_items')
    .innerJoin('products', 'products.id', 'purchase_items.product_id')
    .innerJoin('units', 'units.id', 'purchase_items.unit_id')
    .select([
      'purchase_items.id',
      'purchase_items.product_id',
      'products.name_en as product_name_en',
      'products.name_kh as product_name_kh',
      'products.sku',
      'purchase_items.unit_id',
      'units.name_en as unit_name_en',
      'units.name_kh as unit_name_kh',
      'purchase_items.factor',
      'purchase_items.quantity',
      'purchase_items.received_quantity',
      'purchase_items.unit_price_cents',
      'purchase_items.line_total_cents',
      'purchase_items.shipping_share_cents',
      'purchase_items.received_value_cents',
      'purchase_items.lot',
      'purchase_items.expiry_date',
      sql<boolean>`products.serial_tracked = 1`.as('serial_tracked'),
    ])
    .where('purchase_items.purchase_id', '=', purchaseId)
    .orderBy('purchase_items.id')
    .execute();
}

/** The payments of a purchase, newest first. */
export async function paymentRows(db: Db, purchaseId: number) {
  const rows = await db
    .selectFrom('purchase_payments')
    .leftJoin('users', 'users.id', 'purchase_payments.created_by')
    .select([
      'purchase_payments.id',
      'purchase_payments.amount_cents',
      'purchase_payments.method',
      'purchase_payments.paid_at',
      'purchase_payments.reference',
      'purchase_payments.note',
      sql<string | null>`coalesce(users.full_name, users.name)`.as('created_by_name'),
      'purchase_payments.created_at',
    ])
    .where('purchase_payments.purchase_id', '=', purchaseId)
    .orderBy('purchase_payments.paid_at', 'desc')
    .orderBy('purchase_payments.id', 'desc')
    .execute();
  return rows.map((row) => ({ ...row, method: row.method as PaymentMethod }));
}

/** Live products with their unit and status, by id. */
export async function productsByIds(trx: Db, ids: number[]) {
  if (!ids.length) return new Map<number, { id: number; unit_id: number; status: string }>();
  const rows = await trx
    .selectFrom('products')
    .select(['id', 'unit_id', 'status'])
    .where('id', 'in', ids)
    .where('deleted_at', 'is', null)
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

/** Live units with what they are made of, by id. */
export async function unitsByIds(trx: Db, ids: number[]) {
  if (!ids.length) return new Map<number, { id: number; base_unit_id: number | null; factor: number }>();
  const rows = await trx
    .selectFrom('units')
    .select(['id', 'base_unit_id', 'factor'])
    .where('id', 'in', ids)
    .where('deleted_at', 'is', null)
    .execute();
  return new Map(rows.map((row) => [row.id, { ...row, factor: Number(row.factor) }]));
}

export interface LineRow {
  product_id: number;
  unit_id: number;
  factor: number;
  quantity: number;
  unit_price_cents: number;
  line_total_cents: number;
  shipping_share_cents: number;
  lot: string | null;
  expiry_date: string | null;
}

export type PurchaseValues = Omit<
  PurchasesTable,
  'id' | 'number' | 'created_at' | 'created_by' | 'deleted_at' | 'received_at' | 'cancelled_at' | 'paid_cents'
>;

export async function insertPurchase(
  trx: Db,
  values: PurchaseValues & { number: string; created_by: number | null; created_at: string },
): Promise<number> {
  const row = await trx
    .insertInto('purchases')
    .values({ ...values, paid_cents: 0, received_at: null, cancelled_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updatePurchase(trx: Db, id: number, values: Partial<Omit<PurchasesTable, 'id'>>) {
  await trx.updateTable('purchases').set(values).where('id', '=', id).execute();
}

/** Replaces every line of a purchase (allowed only while nothing was received). */
export async function replaceItems(trx: Db, purchaseId: number, lines: LineRow[]) {
  await trx.deleteFrom('purchase_items').where('purchase_id', '=', purchaseId).execute();
  await trx
    .insertInto('purchase_items')
    .values(lines.map((line) => ({ ...line, purchase_id: purchaseId, received_quantity: 0, received_value_cents: 0 })))
    .execute();
}

/** The lines of a purchase as the receiving needs them. */
export async function itemsForReceipt(trx: Db, purchaseId: number) {
  const rows = await trx
    .selectFrom('purchase_items')
    .select([
      'id',
      'product_id',
      'factor',
      'quantity',
      'received_quantity',
      'line_total_cents',
      'shipping_share_cents',
      'received_value_cents',
      'lot',
      'expiry_date',
    ])
    .where('purchase_id', '=', purchaseId)
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    ...row,
    factor: Number(row.factor),
    quantity: Number(row.quantity),
    received_quantity: Number(row.received_quantity),
    line_total_cents: Number(row.line_total_cents),
    shipping_share_cents: Number(row.shipping_share_cents),
    received_value_cents: Number(row.received_value_cents),
  }));
}

/**
 * Adds a receipt to a line, on the condition that it stays within what was ordered: with the
 * purchase locked the condition always holds, and if it ever did not, nothing would be received.
 */
export async function addReceived(trx: Db, itemId: number, quantity: number, valueCents: number): Promise<boolean> {
  const updated = await trx
    .updateTable('purchase_items')
    .set({
      received_quantity: sql<number>`received_quantity + ${quantity}`,
      received_value_cents: sql<number>`received_value_cents + ${valueCents}`,
    })
    .where('id', '=', itemId)
    .where(sql<number>`received_quantity + ${quantity}`, '<=', sql<number>`quantity`)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

export async function insertPayment(
  trx: Db,
  values: {
    purchase_id: number;
    amount_cents: number;
    method: PaymentMethod;
    paid_at: string;
    reference: string | null;
    note: string | null;
    created_by: number | null;
    created_at: string;
  },
) {
  await trx.insertInto('purchase_payments').values(values).execute();
}
