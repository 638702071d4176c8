import { DELIVERY_FLOW, type DeliveryStatus, type MessageKey, usdCentsToKhr } from '@depot/contracts';
import type { Db } from '../../db/database.ts';
import { tallyOrder, tallyPayments, tallyReturned } from '../../db/rollups.ts';
import { AppError, FieldError } from '../../http/errors.ts';
import { checkSerialCount } from '../serials/serials.ledger.ts';
import { drawerShift } from '../shifts/shifts.service.ts';
import { share } from '../stock/ledger.ts';
import type { OrderRow, Problems, ReturnInput } from './orders.cart.ts';
import {
  deleteInvoice,
  insertPayment,
  insertReturn,
  orderLines,
  orderStatus,
  refundedCents,
  updateLine,
  updateOrder,
} from './orders.repository.ts';
import type { Back } from './orders.stock.ts';

/* After a sale: a void's refund and cancellation, a return's lines and refund, a delivery's steps. */

/** What was paid and not yet given back goes back in dollars cash, from the voider's drawer: a void's refund. */
export async function refundTheRest(
  trx: Db,
  order: Pick<OrderRow, 'id' | 'paid_cents' | 'store_id'>,
  userId: number,
  at: string,
) {
  const refunded = await refundedCents(trx, order.id);
  const owed = Number(order.paid_cents) - refunded;
  if (owed <= 0) return;
  const row = {
    order_id: order.id,
    kind: 'refund' as const,
    method: 'cash_usd',
    amount: owed,
    amount_cents: owed,
    transaction_id: null,
    received_by: userId,
    shift_id: await drawerShift(trx, userId, order.store_id, 'cash'),
    created_at: at,
  };
  await insertPayment(trx, row);
  await tallyPayments(trx, order.id, [row]);
}

/** A voided sale's invoice is void too (deleted: invoice numbers are never reused). */
export async function voidInvoice(trx: Db, orderId: number, at: string) {
  await deleteInvoice(trx, orderId, at);
}

/** The order is cancelled: when, by whom, why, and which manager approved. */
export async function markCancelled(
  trx: Db,
  orderId: number,
  cancel: { at: string; userId: number; reason: string | null; approvedBy: number | null },
) {
  const before = await orderStatus(trx, orderId);
  await updateOrder(trx, orderId, {
    status: 'cancelled',
    cancelled_at: cancel.at,
    cancelled_by: cancel.userId,
    cancel_reason: cancel.reason,
    approved_by: cancel.approvedBy,
  });
  // a sale voided counts out of the reports' daily rollups (a held order never counted)
  if (before.status === 'confirmed') await tallyOrder(trx, orderId, -1);
}

/**
 * The lines a return names, checked against what is left of each (every mistake at once), their
 * returned quantities moved on, and the refund: each line's share by quantity, the last unit back
 * taking the rest of the line.
 */
export async function returnLines(trx: Db, orderId: number, items: ReturnInput['items']) {
  const lines = new Map((await orderLines(trx, orderId)).map((i) => [i.id, i]));
  const was = new Map([...lines].map(([id, i]) => [id, i.returned_quantity]));
  const problems: Problems = {};
  let refund = 0;
  // a line named twice: the second counts from where the first left it, and the last share stands
  const shares = new Map<number, [number, number]>();
  for (const [index, line] of items.entries()) {
    const item = lines.get(line.order_item_id);
    if (!item) {
      problems[`items.${index}.order_item_id`] = [{ key: 'order.not_item' }];
      continue;
    }
    const left = item.quantity - item.returned_quantity;
    if (line.quantity > left) {
      problems[`items.${index}.quantity`] = [{ key: 'order.over_returned', params: { left } }];
      continue;
    }
    // a line sold by its serials takes back one serial per base unit (serials.ledger.ts checks which)
    checkSerialCount(problems, `items.${index}.serials`, {
      tracked: item.serials !== null,
      units: line.quantity * item.factor,
      serials: line.serials,
    });
    const total = Number(item.total_cents);
    const after = item.returned_quantity + line.quantity;
    refund += share(total, after, item.quantity) - share(total, item.returned_quantity, item.quantity);
    shares.set(item.id, [after, item.quantity]);
    item.returned_quantity = after;
  }
  if (Object.keys(problems).length) throw new FieldError(problems);
  const back: Back = [...shares].map(([itemId, share]) => ({ itemId, share }));
  const given: Parameters<typeof tallyReturned>[2] = [];
  for (const {
    itemId,
    share: [after],
  } of back) {
    await updateLine(trx, itemId, { returned_quantity: after });
    const line = lines.get(itemId)!;
    const units = after - (was.get(itemId) ?? 0);
    given.push({ kind: line.kind, product_id: line.product_id, combo_id: line.combo_id, units });
  }
  await tallyReturned(trx, orderId, given);
  // each line's returned units before and after: what an invoiced sale's credit note credits
  const parts = back.map(({ itemId, share: [after] }) => ({ itemId, from: was.get(itemId) ?? 0, to: after }));
  return { refund, back, parts };
}

/**
 * A return's refund in the method chosen (riel at the sale's rate out), from the drawer of whoever
 * hands it back, and the return itself.
 */
export async function recordReturn(
  trx: Db,
  order: Pick<OrderRow, 'id' | 'exchange_rate_khr' | 'rate_out_khr' | 'khr_step' | 'store_id'>,
  refund: { cents: number; method: 'cash_usd' | 'cash_khr'; note: string | null },
  by: { userId: number; approvedBy: number | null; at: string },
) {
  const rateOut = order.rate_out_khr || order.exchange_rate_khr;
  const payment = {
    order_id: order.id,
    kind: 'refund' as const,
    method: refund.method,
    amount: refund.method === 'cash_khr' ? usdCentsToKhr(refund.cents, rateOut, order.khr_step) : refund.cents,
    amount_cents: refund.cents,
    transaction_id: null,
    received_by: by.userId,
    shift_id: await drawerShift(trx, by.userId, order.store_id, 'cash'),
    created_at: by.at,
  };
  await insertPayment(trx, payment);
  await tallyPayments(trx, order.id, [payment]);
  return insertReturn(trx, {
    order_id: order.id,
    refund_cents: refund.cents,
    note: refund.note,
    created_by: by.userId,
    approved_by: by.approvedBy,
    created_at: by.at,
  });
}

/** Moves a delivery one of its allowed steps on (DELIVERY_FLOW), or refuses naming both. */
export async function moveDelivery(trx: Db, order: Pick<OrderRow, 'id' | 'delivery_status'>, to: DeliveryStatus) {
  const from = order.delivery_status as DeliveryStatus;
  if (!DELIVERY_FLOW[from].includes(to)) {
    throw new AppError(409, 'order.delivery_step', {
      from: { key: `delivery.${from}` as MessageKey },
      to: { key: `delivery.${to}` as MessageKey },
    });
  }
  await updateOrder(trx, order.id, { delivery_status: to });
}
