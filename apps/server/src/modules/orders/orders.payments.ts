import { randomUUID } from 'node:crypto';
import { type ChangeIn, changeGiven, khrToCents, type Rates, settle, todayInCambodia } from '@depot/contracts';
import { type Db, now } from '../../db/database.ts';
import { tallyPaid, tallyPayments } from '../../db/rollups.ts';
import { nextDocumentNumber } from '../../db/sequences.ts';
import { FieldError } from '../../http/errors.ts';
import { indexRecords } from '../../kit/search.ts';
import { drawerShift, movesCash } from '../shifts/shifts.service.ts';
import { type OrderRow, paymentStatus, type Tender } from './orders.cart.ts';
import { hasInvoice, insertInvoice, invoiceSource, writePayments } from './orders.repository.ts';

/* A sale's money: the tenders handed over, and its invoice once it is paid. */

/** An order as taking a payment reads it. */
export type Payable = Pick<
  OrderRow,
  | 'id'
  | 'total_cents'
  | 'paid_cents'
  | 'exchange_rate_khr'
  | 'rate_in_khr'
  | 'rate_out_khr'
  | 'khr_step'
  | 'shipping_address'
  // the change already given back, and the keys its rollups are counted by: known to the caller
  // (the locked row, or the sale's values), not read back
  | 'change_given_cents'
  | 'change_given_khr'
  | 'order_date'
  | 'store_id'
  | 'cashier_id'
  | 'customer_id'
  | 'status'
>;

/**
 * Records what was handed over against what is due. Cash may be more than due (the change is
 * worked out in both currencies); card, transfer and KHQR may not. Answers the new payment status
 * and what the order has paid. The payments' insert and the order's update are one statement on
 * PostgreSQL (db/later.ts runTogether); nothing is read back. The cash goes into, and the change
 * comes out of, the drawer of whoever takes it (`drawerShift`; the sale passes its own, known).
 */
export async function recordPayments(
  trx: Db,
  order: Payable,
  tenders: Tender[],
  userId: number,
  changeIn: ChangeIn = 'split',
  drawer?: number | null,
) {
  const total = Number(order.total_cents);
  const due = total - Number(order.paid_cents);
  if (due <= 0) throw new FieldError({ payments: [{ key: 'order.nothing_due' }] });
  const shiftId =
    drawer !== undefined
      ? drawer
      : await drawerShift(trx, userId, order.store_id, movesCash(tenders.map((t) => t.method)) ? 'cash' : null);
  const rates: Rates = {
    rate_khr: order.exchange_rate_khr,
    rate_in_khr: order.rate_in_khr,
    rate_out_khr: order.rate_out_khr,
    khr_step: order.khr_step,
  };
  const exact = tenders.filter((t) => !t.method.startsWith('cash_')).reduce((sum, t) => sum + t.amount, 0);
  if (exact > due) throw new FieldError({ payments: [{ key: 'order.over_paid_card', params: { due: { usd: due } } }] });
  const s = settle(due, tenders, rates);
  const at = now();
  const rateIn = rates.rate_in_khr || rates.rate_khr;
  const rows = tenders.map((tender) => ({
    order_id: order.id,
    kind: 'payment' as const,
    method: tender.method,
    amount: tender.amount,
    amount_cents: tender.method === 'cash_khr' ? khrToCents(tender.amount, rateIn) : tender.amount,
    transaction_id: tender.transaction_id,
    received_by: userId,
    shift_id: shiftId,
    created_at: at,
  }));
  await tallyPayments(trx, order.id, rows, order);
  const before = {
    change_cents: Number(order.change_given_cents),
    change_khr: Number(order.change_given_khr),
    paid_cents: Number(order.paid_cents),
  };
  // paid: what was handed over, up to the total (a riel total rounded down by the step is paid)
  const given = changeGiven(s, changeIn);
  const paid = s.status === 'paid' ? total : Number(order.paid_cents) + s.tendered_cents;
  const status = paymentStatus(total, paid, order.shipping_address !== null);
  await writePayments(trx, order.id, rows, {
    paid_cents: paid,
    payment_status: status,
    change_cents: s.change_cents,
    change_khr: s.change_khr,
    change_given_cents: given.usd_cents,
    change_given_khr: given.khr,
    change_shift_id: shiftId,
  });
  await tallyPaid(
    trx,
    order.id,
    before,
    { change_cents: given.usd_cents, change_khr: given.khr, paid_cents: paid },
    order,
  );
  return { status, paid_cents: paid };
}

/** What an order's invoice is made of, or null when it has one (a later payment's: issueInvoice). */
export async function invoiceDraft(trx: Db, orderId: number) {
  const row = await invoiceSource(trx, orderId);
  const exists = await hasInvoice(trx, orderId);
  return exists ? null : row;
}

/**
 * A sale's invoice, made before its stock under a provisional number (`INV~…`) that `numberSale`
 * replaces as the sale's last step, in the same transaction: the numbers stay gapless.
 */
export async function openInvoice(
  trx: Db,
  orderId: number,
  draft: { store_id: number; code: string; total_cents: number; tax_cents: number; items_count: number },
) {
  const at = now();
  const id = await insertInvoice(trx, {
    number: `INV~${randomUUID().replaceAll('-', '').slice(0, 24)}`,
    order_id: orderId,
    store_id: draft.store_id,
    total_cents: Number(draft.total_cents),
    tax_cents: Number(draft.tax_cents),
    items_count: draft.items_count,
    paid_at: at,
    created_at: at,
    updated_at: at,
  });
  return { id, code: draft.code };
}

/**
 * An invoice once the order is paid in full, by a later payment: numbered per store and year
 * (INV-PP01-2026-000001). A sale makes its own with `openInvoice` and `numberSale`.
 */
export async function issueInvoice(trx: Db, orderId: number, draft?: Awaited<ReturnType<typeof invoiceDraft>>) {
  const row = draft === undefined ? await invoiceDraft(trx, orderId) : draft;
  if (!row) return;
  const at = now();
  const year = todayInCambodia().slice(0, 4);
  const id = await insertInvoice(trx, {
    number: await nextDocumentNumber(trx, `INV-${row.code}`, year),
    order_id: orderId,
    store_id: row.store_id,
    total_cents: Number(row.total_cents),
    tax_cents: Number(row.tax_cents),
    items_count: row.items_count,
    paid_at: at,
    created_at: at,
    updated_at: at,
  });
  await indexRecords(trx, { table: 'invoices', searchable: ['invoices.number'] }, [id]);
}
