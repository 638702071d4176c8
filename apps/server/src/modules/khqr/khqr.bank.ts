import type { KhqrCurrency, MessageKey, TENDER_METHODS } from '@depot/contracts';
import type { Db } from '../../db/database.ts';
import { now } from '../../db/database.ts';
import { transaction } from '../../db/transaction.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { Actor } from '../../policies/policy.ts';
import type { OrderService } from '../orders/orders.service.ts';
import { BakongError, type BakongTransaction } from './bakong.ts';
import { bankTransaction, claimBankTransaction, orderForKhqr, referenceElsewhere } from './khqr.repository.ts';

/* What the KHQR check, the transfer claim and the shift's bulk check share: Bakong's answers read
   against the sale, and the one way a Bakong transaction is recorded on a sale. */

/** The sale a QR is made for or a transfer claimed on: 404 when there is none, 409 unless confirmed. */
export async function confirmedForKhqr(db: Db, orderId: number) {
  const order = await orderForKhqr(db, orderId);
  if (!order) throw notFound();
  if (order.status !== 'confirmed') {
    throw new AppError(409, 'order.state', {
      number: order.number,
      status: { key: `status.${order.status}` as MessageKey },
      action: { key: 'action.paid' },
    });
  }
  return order;
}

/** Bakong's problem as the till reads it: 502, in the reader's language, never a stack trace. */
export function bakongFailure(error: unknown): never {
  if (error instanceof BakongError) {
    const key =
      error.problem === 'refused'
        ? 'khqr.bakong_refused'
        : error.problem === 'token'
          ? 'khqr.bakong_token'
          : 'khqr.bakong_unreachable';
    throw new AppError(502, key);
  }
  throw error;
}

/** Bakong's decimal amount in the currency's minor units: cents for dollars, whole riel. */
export const minorOf = (amount: number, currency: string) => Math.round(amount * (currency === 'USD' ? 100 : 1));

/** The decimal amount Bakong is asked about: dollars with cents, whole riel. */
export const decimalOf = (minor: number, currency: KhqrCurrency) => (currency === 'USD' ? minor / 100 : minor);

/** Whether a transaction paid this account this amount (in minor units) in this currency. */
export function paidAsAsked(
  tx: BakongTransaction,
  want: { account: string | null; currency: KhqrCurrency; amount: number },
): boolean {
  return (
    want.account !== null &&
    tx.toAccountId === want.account &&
    tx.currency === want.currency &&
    minorOf(tx.amount, tx.currency) === want.amount
  );
}

/** Refuses a hash another sale was paid with (claimed, or typed on one of its tenders). */
export async function refuseUsedHash(db: Db, hash: string, orderId: number): Promise<'mine' | null> {
  const claimed = await bankTransaction(db, hash);
  if (claimed && claimed.order_id !== orderId) throw new AppError(409, 'khqr.hash_used', { number: claimed.number });
  if (claimed) return 'mine';
  const typed = await referenceElsewhere(db, hash, orderId);
  if (typed) throw new AppError(409, 'khqr.hash_used', { number: typed.number });
  return null;
}

type TenderMethod = (typeof TENDER_METHODS)[number];

/**
 * Records a Bakong transaction on a sale: the hash is claimed (unique) in the same transaction as
 * the payment, so two requests with one hash pay once; the loser is told which sale has it, or,
 * when it was its own sale (a check repeated, a sale finished twice), answers as done. With
 * `amountCents` null the sale is paid already (by hand with the QR's md5): only the claim is written.
 */
export async function recordBankPayment(
  db: Db,
  orders: OrderService,
  actor: Actor,
  orderId: number,
  tx: BakongTransaction,
  pay: { source: 'khqr' | 'transfer'; method: TenderMethod; amountCents: number | null; currency: KhqrCurrency },
): Promise<void> {
  if ((await refuseUsedHash(db, tx.hash, orderId)) === 'mine') return;
  const claim = (trx: Db) =>
    claimBankTransaction(trx, {
      hash: tx.hash,
      order_id: orderId,
      source: pay.source,
      currency: pay.currency,
      amount: minorOf(tx.amount, tx.currency),
      from_account: tx.fromAccountId ?? null,
      created_by: actor.userId,
      created_at: now(),
    });
  try {
    if (pay.amountCents === null) await transaction(db, claim);
    else {
      await orders.pay(
        actor,
        orderId,
        [{ method: pay.method, amount: pay.amountCents, transaction_id: tx.hash }],
        'split',
        claim,
      );
    }
  } catch (error) {
    // another request claimed it meanwhile (the unique hash, or the sale found paid once its lock
    // was let go): its sale's is done here; another sale's is refused; anything else is the error
    if ((await refuseUsedHash(db, tx.hash, orderId)) === 'mine') return;
    throw error;
  }
}
