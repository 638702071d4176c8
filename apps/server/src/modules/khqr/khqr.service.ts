import { createHash } from 'node:crypto';
import {
  decodeKhqr,
  encodeKhqr,
  KHQR_LIMITS,
  KHQR_RECEIPT_MINUTES,
  KHQR_TILL_MAX_MINUTES,
  type KhqrCheck,
  KhqrError,
  type KhqrPayment,
  type khqrOfflineInput,
  type khqrRequestInput,
  khrToCents,
  settle,
} from '@depot/contracts';
import type { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { now } from '../../db/database.ts';
import { AppError, FieldError, notFound } from '../../http/errors.ts';
import { orderPolicy } from '../../policies/orders.ts';
import type { Actor } from '../../policies/policy.ts';
import type { OrderService } from '../orders/orders.service.ts';
import type { BakongAnswer, BakongClient } from './bakong.ts';
import { bakongFailure, confirmedForKhqr, paidAsAsked, recordBankPayment } from './khqr.bank.ts';
import {
  findKhqr,
  insertKhqr,
  markChecked,
  markPaid,
  orderForKhqr,
  takesKhqr,
  tenderCents,
} from './khqr.repository.ts';

/**
 * KHQR at the till. The order exists first (the till checks it out unpaid, so the stock is taken
 * and the number is the order's), then a dynamic KHQR is made for what is due, in dollars or in
 * riel at the sale's own rates; the payment is recorded as a KHQR tender through the orders
 * service's `pay`, with the bank's hash (Bakong confirmed it) or the QR's md5 (the cashier did).
 */
export function khqrService(
  db: Db,
  orders: OrderService,
  bakong: BakongClient | null,
  /** How long a till's QR may be paid (the server's setting, at most 10 minutes). */
  tillMinutes: number = KHQR_TILL_MAX_MINUTES,
) {
  function present(row: NonNullable<Awaited<ReturnType<typeof findKhqr>>>): KhqrPayment {
    return {
      ...row,
      offline: Boolean(Number(row.offline)),
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

  /**
   * A QR Bakong found paid as asked: the payment recorded on the sale with the bank's hash (once,
   * however often asked), or, when the cashier confirmed it by hand already, the hash kept with it.
   */
  async function settleQr(
    actor: Actor,
    order: NonNullable<Awaited<ReturnType<typeof orderForKhqr>>>,
    qr: NonNullable<Awaited<ReturnType<typeof findKhqr>>>,
    answer: Extract<BakongAnswer, { found: true }>,
  ) {
    const due = Number(order.total_cents) - Number(order.paid_cents);
    const byHand = order.status !== 'confirmed' || due <= 0;
    await recordBankPayment(db, orders, actor, order.id, answer, {
      source: 'khqr',
      method: 'khqr',
      amountCents: byHand ? null : Math.min(Number(qr.amount_cents), due),
      currency: qr.currency,
    });
    await markPaid(db, qr.id, answer.hash);
  }

  return {
    /** A new dynamic KHQR for what the order still owes. */
    async make(actor: Actor, orderId: number, input: z.output<typeof khqrRequestInput>) {
      await payable(actor, orderId);
      const order = await confirmedForKhqr(db, orderId);
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
      // a till's QR is on screen a few minutes; a receipt's may be paid later, a day at most
      const minutes =
        input.for === 'till'
          ? Math.min(input.expires_in_minutes ?? tillMinutes, tillMinutes, KHQR_TILL_MAX_MINUTES)
          : (input.expires_in_minutes ?? KHQR_RECEIPT_MINUTES.default);
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
          expires_at: created + minutes * 60_000,
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
        expires_at: new Date(created + minutes * 60_000).toISOString(),
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
      let answer: BakongAnswer;
      try {
        answer = await bakong.checkByMd5(qr.md5);
      } catch (error) {
        bakongFailure(error);
      }
      if (!answer.found) {
        await markChecked(db, [qr.id]);
        return { paid: false, hash: null };
      }
      const want = { account: order.khqr_account_id, currency: qr.currency, amount: Number(qr.amount) };
      if (!paidAsAsked(answer, want)) throw new AppError(409, 'khqr.mismatch');
      await settleQr(actor, order, qr, answer);
      return { paid: true, hash: answer.hash };
    },

    /**
     * A KHQR the till made on its device while offline (the sale synced since): recorded against
     * the sale when it is one of this sale, into its store's account, and checked with Bakong at
     * once when the server can (else at the shift's close).
     */
    async offline(actor: Actor, orderId: number, input: z.output<typeof khqrOfflineInput>) {
      await orders.show(actor, orderId);
      const order = await orderForKhqr(db, orderId);
      if (!order) throw notFound();
      const invalid = () => new FieldError({ payload: [{ key: 'khqr.offline_invalid' }] });
      if (createHash('md5').update(input.payload).digest('hex') !== input.md5) throw invalid();
      let fields: ReturnType<typeof decodeKhqr>;
      try {
        fields = decodeKhqr(input.payload);
      } catch {
        throw invalid();
      }
      const known = await findKhqr(db, orderId, input.md5);
      if (!known) {
        // what the QR pays of the sale: its KHQR tender with this md5, else the QR's own amount
        const tender = await tenderCents(db, orderId, input.md5);
        const cents =
          tender ?? (fields.currency === 'USD' ? fields.amount : khrToCents(fields.amount, order.exchange_rate_khr));
        // the device's QR is the sale's: its store's account, for no more than its total
        const total = Number(order.total_cents);
        const within = fields.currency === 'USD' ? fields.amount <= total : true;
        if (!takesKhqr(order) || fields.account_id !== order.khqr_account_id || !within) throw invalid();
        await insertKhqr(db, {
          order_id: orderId,
          payload: input.payload,
          md5: input.md5,
          currency: fields.currency,
          amount: fields.amount,
          amount_cents: cents,
          merchant_name: fields.merchant_name,
          expires_at: new Date(fields.expires_at).toISOString(),
          paid_hash: null,
          offline: 1,
          created_by: actor.userId,
          created_at: now(),
        });
      }
      const recorded = await findKhqr(db, orderId, input.md5);
      if (!recorded) throw notFound();
      if (bakong && !recorded.paid_hash) {
        try {
          const answer = await bakong.checkByMd5(input.md5);
          if (answer.found) {
            const want = {
              account: order.khqr_account_id,
              currency: recorded.currency,
              amount: Number(recorded.amount),
            };
            if (paidAsAsked(answer, want)) await settleQr(actor, order, recorded, answer);
          } else await markChecked(db, [recorded.id]);
        } catch {
          // Bakong not reached now: the shift's close checks it
        }
      }
      return present((await findKhqr(db, orderId, input.md5)) as NonNullable<typeof recorded>);
    },
  };
}

export type KhqrService = ReturnType<typeof khqrService>;
