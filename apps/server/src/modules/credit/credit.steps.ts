import type { Db } from '../../db/database.ts';
import { salePolicy } from '../../policies/credit.ts';
import type { Actor, Approver } from '../../policies/policy.ts';
import { auditWho, recordAudit } from '../audit/audit.ts';
import { storeTakesKhqr } from '../khqr/khqr.repository.ts';
import { customerBalance } from './credit.ledger.ts';
import { lockCustomer } from './credit.service.ts';

/**
 * A sale's credit check, in the sale's transaction after its payments: a sale leaving money unpaid
 * must not take the customer past their credit limit unless a manager allows it
 * (policies/credit.ts). No limit set (null: the walk-in customer, a customer nobody gave credit) is
 * no credit: anything left unpaid needs the manager. The customer's row is locked first
 * (PostgreSQL; SQLite writes one transaction at a time), so two tills cannot each sell up to the
 * limit at once. The manager who approved is recorded on the order and in the audit trail.
 */
export async function checkCredit(
  trx: Db,
  sale: {
    id: number;
    storeId: number;
    customerId: number;
    totalCents: number;
    paidCents: number;
    awaitingKhqr?: boolean;
  },
  actor: Actor,
  approver: Approver | null,
): Promise<void> {
  if (sale.paidCents >= sale.totalCents) return;
  // the customer at the counter is scanning the sale's QR for what is due: not credit, where the
  // store can take KHQR at all. Left unpaid, the order stays on the list as unpaid, and voiding it
  // still needs a manager (policies/orders.ts).
  if (sale.awaitingKhqr && (await storeTakesKhqr(trx, sale.storeId))) return;
  const customer = await lockCustomer(trx, sale.customerId);
  if (!customer) return;
  const limit = customer.credit_limit_cents === null ? null : Number(customer.credit_limit_cents);
  const owed = await customerBalance(trx, sale.customerId);
  const over = owed > (limit ?? 0);
  const { approvedBy } = salePolicy.authorize(
    actor,
    {
      store_id: sale.storeId,
      over_limit: over,
      why:
        limit === null
          ? { key: 'credit.no_limit', params: { customer: customer.name, owed: { usd: owed } } }
          : {
              key: 'credit.over_limit',
              params: { customer: customer.name, owed: { usd: owed }, limit: { usd: limit } },
            },
    },
    'exceed_limit',
    approver,
  );
  if (!over) return;
  await trx
    .updateTable('orders')
    .set({ credit_approved_by: approvedBy ?? actor.userId })
    .where('id', '=', sale.id)
    .execute();
  await recordAudit(trx, auditWho(actor), {
    action: 'order.credit_over_limit',
    subject: { type: 'order', id: sale.id },
    after: {
      customer_id: sale.customerId,
      owed_cents: owed,
      limit_cents: limit,
      approved_by: approvedBy ?? actor.userId,
    },
  });
}
