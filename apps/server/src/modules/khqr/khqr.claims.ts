import { type KhqrUnchecked, type khqrTransferInput, settle } from '@depot/contracts';
import type { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { AppError, FieldError } from '../../http/errors.ts';
import { orderPolicy } from '../../policies/orders.ts';
import type { Actor } from '../../policies/policy.ts';
import type { OrderService } from '../orders/orders.service.ts';
import { shiftService } from '../shifts/shifts.service.ts';
import type { BakongAnswer, BakongClient, Md5ListAnswer } from './bakong.ts';
import {
  bakongFailure,
  confirmedForKhqr,
  decimalOf,
  paidAsAsked,
  recordBankPayment,
  refuseUsedHash,
} from './khqr.bank.ts';
import { markChecked, markPaid, takesKhqr, uncheckedOfShift } from './khqr.repository.ts';

/**
 * What Bakong is asked besides a QR's own check:
 * - "paid by transfer": the cashier types (or scans) the transfer's short hash from the customer's
 *   bank app; Bakong is asked by that hash with the amount due and its currency; the transfer
 *   must have gone into this store's account, and may pay no other sale (the hash is claimed);
 * - a shift's KHQR sales Bakong has not confirmed (confirmed by hand, or shown offline), listed at
 *   its close and checked in one call (md5 list).
 */
export function khqrClaims(db: Db, orders: OrderService, bakong: BakongClient | null) {
  const shifts = shiftService(db);

  function needBakong(): BakongClient {
    if (!bakong) throw new AppError(409, 'khqr.bakong_off');
    return bakong;
  }

  return {
    async transfer(actor: Actor, orderId: number, input: z.output<typeof khqrTransferInput>) {
      const seen = await orders.show(actor, orderId);
      const order = await confirmedForKhqr(db, orderId);
      const due = Number(order.total_cents) - Number(order.paid_cents);
      if (due <= 0) throw new FieldError({ hash: [{ key: 'order.nothing_due' }] });
      orderPolicy.authorize(actor, seen, 'pay');
      if (!takesKhqr(order)) throw new AppError(409, 'khqr.not_set_up', { store: order.store_name });
      const client = needBakong();
      // the whole hash typed: refused at once when another sale has it
      if (input.hash.length > 8) await refuseUsedHash(db, input.hash, orderId);
      const amount =
        input.currency === 'USD'
          ? due
          : settle(due, [], {
              rate_khr: order.exchange_rate_khr,
              rate_in_khr: order.rate_in_khr,
              rate_out_khr: order.rate_out_khr,
              khr_step: order.khr_step,
            }).due_khr;
      const short = input.hash.slice(0, 8);
      let answer: BakongAnswer;
      try {
        answer = await client.checkByShortHash(short, decimalOf(amount, input.currency), input.currency);
      } catch (error) {
        bakongFailure(error);
      }
      const written = input.currency === 'USD' ? { usd: amount } : { khr: amount };
      if (!answer.found || (input.hash.length > 8 && answer.hash !== input.hash)) {
        throw new FieldError({ hash: [{ key: 'khqr.transfer_not_found', params: { hash: short, amount: written } }] });
      }
      if (!paidAsAsked(answer, { account: order.khqr_account_id, currency: input.currency, amount })) {
        throw new FieldError({ hash: [{ key: 'khqr.transfer_mismatch', params: { hash: short } }] });
      }
      await recordBankPayment(db, orders, actor, orderId, answer, {
        source: 'transfer',
        method: 'bank_transfer',
        amountCents: due,
        currency: input.currency,
      });
      return orders.show(actor, orderId);
    },

    /** A shift's KHQR sales Bakong has not confirmed (whoever may see the shift). */
    async unchecked(actor: Actor, shiftId: number): Promise<KhqrUnchecked[]> {
      await shifts.show(actor, shiftId);
      return (await uncheckedOfShift(db, shiftId)).map((row) => present(row, null, null));
    },

    /**
     * Checks a shift's unconfirmed KHQR sales with Bakong in one call (50 a call): the ones paid as
     * asked keep the bank's hash; the others are listed as not found, or as paid otherwise.
     */
    async sweep(actor: Actor, shiftId: number): Promise<KhqrUnchecked[]> {
      await shifts.show(actor, shiftId);
      const client = needBakong();
      const rows = await uncheckedOfShift(db, shiftId);
      if (!rows.length) return [];
      let paid: Md5ListAnswer;
      try {
        paid = await client.checkByMd5List(rows.map((r) => r.md5));
      } catch (error) {
        bakongFailure(error);
      }
      const result: KhqrUnchecked[] = [];
      const missing: number[] = [];
      for (const row of rows) {
        const tx = paid.get(row.md5);
        const want = { account: row.khqr_account_id, currency: row.currency, amount: Number(row.amount) };
        if (!tx) {
          missing.push(row.id);
          result.push(present(row, 'not_found', null));
          continue;
        }
        if (!paidAsAsked(tx, want)) {
          result.push(present(row, 'mismatch', tx.hash));
          continue;
        }
        try {
          await recordBankPayment(db, orders, actor, row.order_id, tx, {
            source: 'khqr',
            method: 'khqr',
            amountCents: null,
            currency: row.currency,
          });
          await markPaid(db, row.id, tx.hash);
          result.push(present(row, 'confirmed', tx.hash));
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          // its hash paid another sale already
          result.push(present(row, 'mismatch', tx.hash));
        }
      }
      await markChecked(db, missing);
      return result;
    },
  };
}

function present(
  row: Awaited<ReturnType<typeof uncheckedOfShift>>[number],
  result: KhqrUnchecked['result'],
  hash: string | null,
): KhqrUnchecked {
  return {
    order_id: row.order_id,
    order_number: row.order_number,
    md5: row.md5,
    currency: row.currency,
    amount: Number(row.amount),
    offline: Boolean(Number(row.offline)),
    checked_at: row.checked_at ? new Date(row.checked_at).toISOString() : null,
    result,
    hash,
  };
}
