import { createHash } from 'node:crypto';
import {
  encodeKhqr,
  KHQR_LIMITS,
  type KhqrCheck,
  KhqrError,
  type KhqrPayment,
  type KhqrRequestInput,
  type MessageKey,
  settle,
} from '@depot/contracts';
import type { Db } from '../../db/database.ts';
import { now } from '../../db/database.ts';
import { AppError, FieldError, notFound } from '../../http/errors.ts';
import { orderPolicy } from '../../policies/orders.ts';
import type { Actor } from '../../policies/policy.ts';
import type { OrderService } from '../orders/orders.service.ts';
import { type BakongClient, BakongUnreachable } from './bakong.ts';
import { findKhqr, insertKhqr, markPaid, orderForKhqr, paymentRecorded, takesKhqr } from './khqr.repository.ts';

/**
 * KHQR at the till. The order exists first (the till checks it out unpaid, so the stock is taken
 * and the number is the order's), then a dynamic KHQR is made for what is due, in dollars or in
 * riel at the sale's own rates; the payment is recorded as a KHQR tender through the orders
 * service's `pay`, with the bank's hash (Bakong confirmed it) or the QR's md5 (the cashier did).
 */
export function khqrService(db: Db, orders: OrderService, bakong: BakongClient | null) {
  function present(row: NonNullable<Awaited<ReturnType<typeof findKhqr>>>): KhqrPayment {
    return {
      ...row,
      amount: Number(row.amount),
      amount_cents: Number(row.amount_cents),
      created_at: new Date(row.created_at).toISOString(),
      expires_at: new Date(row.expires_at).toISOString(),
      can_check: bakong !== null,
    };
  }

  /**
   * The order as the actor may see it (404 outside their stores, through the orders' policy); a
   * QR is made and checked only by whoever may take a payment on it now.
   */
  async function payable(actor: Actor, orderId: number) {
    const seen = await orders.show(actor, orderId);
    // nothing due is the QR's own refusal (on its currency field, below), not the payment's
    if (seen.status === 'confirmed' && seen.paid_cents >= seen.total_cents) return;
    orderPolicy.authorize(actor, seen, 'pay');
  }

  return {
    /** A new dynamic KHQR for what the order still owes. */
    async make(actor: Actor, orderId: number, input: Required<KhqrRequestInput>) {
      await payable(actor, orderId);
      const order = await orderForKhqr(db, orderId);
      if (!order) throw notFound();
      if (order.status !== 'confirmed') {
        throw new AppError(409, 'order.state', {
          number: order.number,
          status: { key: `status.${order.status}` as MessageKey },
          action: { key: 'action.paid' },
        });
      }
      if (!takesKhqr(order)) throw new AppError(409, 'khqr.not_set_up', { store: order.store_name });
      const { khqr_account_id: account, khqr_merchant_name: name, khqr_merchant_city: city } = order;
      const due = Number(order.total_cents) - Number(order.paid_cents);
      // riel at the sale's rate for riel received and its step: what the till shows as due in riel
      const dueKhr = settle(due, [], {
        rate_khr: order.exchange_rate_khr,
        rate_in_khr: order.rate_in_khr,
        rate_out_khr: order.rate_out_khr,
        khr_step: order.khr_step,
      }).due_khr;
      const amount = input.currency === 'USD' ? due : dueKhr;
      if (due <= 0 || amount <= 0) throw new FieldError({ currency: [{ key: 'order.nothing_due' }] });
      const created = Date.now();
      let payload: string;
      try {
        payload = encodeKhqr({
          account_id: account,
          merchant_id: order.khqr_merchant_id,
          acquiring_bank: order.khqr_acquiring_bank,
          merchant_name: name,
          merchant_city: city,
          mcc: '5999',
          currency: input.currency,
          amount,
          bill_number: order.number,
          store_label: order.store_code.slice(0, KHQR_LIMITS.store_label),
          terminal_label: null,
          created_at: created,
          expires_at: created + input.expires_in_minutes * 60_000,
        });
      } catch (error) {
        // the store's settings were checked when saved; only an amount can still be out of range
        if (error instanceof KhqrError && error.problem === 'amount') {
          throw new FieldError({ currency: [{ key: 'khqr.too_large' }] });
        }
        throw error;
      }
      const md5 = createHash('md5').update(payload).digest('hex');
      await insertKhqr(db, {
        order_id: orderId,
        payload,
        md5,
        currency: input.currency,
        amount,
        amount_cents: due,
        merchant_name: name,
        expires_at: new Date(created + input.expires_in_minutes * 60_000).toISOString(),
        paid_hash: null,
        created_by: actor.userId,
        created_at: now(),
      });
      const made = await findKhqr(db, orderId, md5);
      return {
        data: present(made as NonNullable<typeof made>),
        // written in the answer's message, in its numerals
        amount: input.currency === 'USD' ? { usd: amount } : { khr: amount },
      };
    },

    /** The order's newest KHQR (receipts print it), or null. */
    async latest(actor: Actor, orderId: number): Promise<KhqrPayment | null> {
      await orders.show(actor, orderId);
      const row = await findKhqr(db, orderId);
      return row ? present(row) : null;
    },

    /**
     * Asks Bakong whether the QR (the newest, or the one with `md5`) was paid; paid into this
     * store's account with this amount and currency, the payment is recorded on the order once,
     * however often the check is repeated.
     */
    async check(actor: Actor, orderId: number, md5: string | undefined): Promise<KhqrCheck> {
      await payable(actor, orderId);
      if (!bakong) throw new AppError(409, 'khqr.bakong_off');
      const order = await orderForKhqr(db, orderId);
      if (!order) throw notFound();
      const qr = await findKhqr(db, orderId, md5);
      if (!qr) throw new AppError(404, 'khqr.unknown');
      if (qr.paid_hash) return { paid: true, hash: qr.paid_hash };
      let answer: Awaited<ReturnType<BakongClient['checkByMd5']>>;
      try {
        answer = await bakong.checkByMd5(qr.md5);
      } catch (error) {
        if (error instanceof BakongUnreachable) throw new AppError(502, 'khqr.bakong_unreachable');
        throw error;
      }
      if (!answer.found) return { paid: false, hash: null };
      // Bakong's amounts are decimals: dollars with cents, whole riel
      const minor = Math.round(answer.amount * (qr.currency === 'USD' ? 100 : 1));
      if (
        answer.toAccountId !== order.khqr_account_id ||
        answer.currency !== qr.currency ||
        minor !== Number(qr.amount)
      ) {
        throw new AppError(409, 'khqr.mismatch');
      }
      if (!(await paymentRecorded(db, orderId, answer.hash))) {
        await orders.pay(actor, orderId, [
          { method: 'khqr', amount: Number(qr.amount_cents), transaction_id: answer.hash },
        ]);
      }
      await markPaid(db, qr.id, answer.hash);
      return { paid: true, hash: answer.hash };
    },
  };
}

export type KhqrService = ReturnType<typeof khqrService>;
