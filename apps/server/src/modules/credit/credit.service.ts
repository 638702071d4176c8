import {
  allocatePayment,
  type CreditAccount,
  type CreditReport,
  type CustomerPayment,
  type CustomerPaymentAction,
  type customerPaymentInput,
  khrToCents,
  type MessageKey,
  type OpenDocument,
  type Statement,
  type SupplierPayment,
  type supplierPaymentInput,
  type TenderMethod,
  todayInCambodia,
} from '@depot/contracts';
import type { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { tallyPaid, tallyPayments } from '../../db/rollups.ts';
import { nextDocumentNumber } from '../../db/sequences.ts';
import { transaction } from '../../db/transaction.ts';
import { FieldError, notFound } from '../../http/errors.ts';
import { type DocumentDefinition, documentService } from '../../kit/document.ts';
import { findLive, type Read } from '../../kit/resource.ts';
import { tableChanged } from '../../kit/totals.ts';
import { assertSeesCredit, customerPaymentPolicy } from '../../policies/credit.ts';
import { type Actor, assertStoreInput } from '../../policies/policy.ts';
import { assertPaysSuppliers } from '../../policies/purchases.ts';
import { auditWho, recordAudit } from '../audit/audit.ts';
import { paymentStatus } from '../orders/orders.cart.ts';
import { issueInvoice } from '../orders/orders.payments.ts';
import { assertNotFuture, payPurchaseWithin } from '../purchases/purchases.service.ts';
import { saleRates } from '../rates/rates.service.ts';
import { drawerShift, movesCash } from '../shifts/shifts.service.ts';
import {
  ageDocuments,
  creditReport,
  customerEntries,
  customerOrders,
  statementOf,
  supplierEntries,
  supplierPurchases,
} from './credit.ledger.ts';

export type CustomerPaymentInput = z.output<typeof customerPaymentInput>;
export type SupplierPaymentInput = z.output<typeof supplierPaymentInput>;
type PaymentDetail = Omit<CustomerPayment, 'abilities'>;

/** A customer payment as the API shows it: the tender and the orders it paid. */
async function paymentDetail(db: Db, id: number): Promise<PaymentDetail> {
  const row = await db
    .selectFrom('customer_payments as cp')
    .innerJoin('customers as c', 'c.id', 'cp.customer_id')
    .selectAll('cp')
    .select('c.name as customer_name')
    .where('cp.id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound();
  const allocations = await db
    .selectFrom('order_payments as op')
    .innerJoin('orders as o', 'o.id', 'op.order_id')
    .select(['op.order_id', 'o.number', 'op.amount_cents'])
    .where('op.customer_payment_id', '=', id)
    .orderBy('op.id')
    .execute();
  return {
    id: row.id,
    number: row.number,
    customer_id: row.customer_id,
    customer_name: row.customer_name,
    store_id: row.store_id,
    method: row.method as TenderMethod,
    amount: Number(row.amount),
    amount_cents: Number(row.amount_cents),
    exchange_rate_khr: Number(row.exchange_rate_khr),
    transaction_id: row.transaction_id,
    note: row.note,
    received_by: row.received_by,
    created_at: row.created_at,
    updated_at: row.updated_at,
    allocations: allocations.map((a) => ({
      order_id: a.order_id,
      number: a.number,
      amount_cents: Number(a.amount_cents),
    })),
  };
}

const paymentDocument: DocumentDefinition<'customer_payments', Read<PaymentDetail>, CustomerPaymentAction> = {
  table: 'customer_payments',
  list: { table: 'customer_payments', searchable: ['customer_payments.number'] },
  changes: ['orders', 'invoices'],
  policy: customerPaymentPolicy,
  detail: paymentDetail,
};

/** A riel tender's shares of each allocated order, in riel: proportional, the last taking the rest. */
export function rielShares(riel: number, shares: readonly number[]): number[] {
  const total = shares.reduce((a, b) => a + b, 0);
  let before = 0;
  let cumulative = 0;
  return shares.map((s) => {
    cumulative += s;
    const upTo = Number((BigInt(riel) * BigInt(cumulative)) / BigInt(total || 1));
    const part = upTo - before;
    before = upTo;
    return part;
  });
}

/** Locks a customer's row for the rest of the transaction (PostgreSQL; SQLite writes one at a time). */
export async function lockCustomer(trx: Db, customerId: number) {
  return trx
    .updateTable('customers')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', customerId)
    .returning(['id', 'name', 'credit_limit_cents', 'payment_terms_days', 'deleted_at'])
    .executeTakeFirst();
}

/** How a payment on account names its fields and its refusals (a customer's or a supplier's). */
export interface OnAccount {
  chosenField: string;
  amountField: string;
  notOpen: MessageKey;
  nothingOwed: MessageKey;
  overPaid: MessageKey;
}

const CUSTOMER_ACCOUNT: OnAccount = {
  chosenField: 'order_ids',
  amountField: 'amount',
  notOpen: 'credit.not_open',
  nothingOwed: 'credit.nothing_owed',
  overPaid: 'credit.over_paid',
};
const SUPPLIER_ACCOUNT: OnAccount = {
  chosenField: 'purchase_ids',
  amountField: 'amount_cents',
  notOpen: 'credit.supplier_not_open',
  nothingOwed: 'credit.supplier_nothing_owed',
  overPaid: 'credit.supplier_over_paid',
};

/**
 * A payment on account's shares of a party's open documents (customers' orders, suppliers'
 * purchases), by contracts' `allocatePayment`: every chosen document must be open (else 422 on
 * it), something must be owed, and the amount be at most what the targets owe (no surplus kept).
 */
export function allocateOnAccount(
  open: readonly OpenDocument[],
  chosen: readonly number[] | null,
  how: OnAccount,
  amount: number,
): { id: number; amount_cents: number }[] {
  if (chosen) {
    const problems: Record<string, { key: MessageKey }[]> = {};
    for (const [i, id] of chosen.entries()) {
      if (!open.some((d) => d.id === id)) problems[`${how.chosenField}.${i}`] = [{ key: how.notOpen }];
    }
    if (Object.keys(problems).length) throw new FieldError(problems);
  }
  const targets = chosen ? open.filter((d) => chosen.includes(d.id)) : open;
  const owed = targets.reduce((sum, d) => sum + d.due_cents, 0);
  if (owed === 0) throw new FieldError({ [how.amountField]: [{ key: how.nothingOwed }] });
  if (amount > owed)
    throw new FieldError({ [how.amountField]: [{ key: how.overPaid, params: { due: { usd: owed } } }] });
  if (amount <= 0) throw new FieldError({ [how.amountField]: [{ key: 'validation.number_min', params: { min: 1 } }] });
  return allocatePayment(targets, amount);
}

/** Locks a supplier's row for the rest of the transaction (as lockCustomer). */
async function lockSupplier(trx: Db, supplierId: number) {
  return trx
    .updateTable('suppliers')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', supplierId)
    .returning(['id', 'deleted_at'])
    .executeTakeFirst();
}

export function creditService(db: Db) {
  const payments = documentService(db, paymentDocument);

  async function liveCustomer(id: number) {
    const party = await findLive(db, 'customers', id);
    if (!party) throw notFound();
    return party;
  }
  async function liveSupplier(id: number) {
    const party = await findLive(db, 'suppliers', id);
    if (!party) throw notFound();
    return party;
  }

  return {
    /** A customer's account: balance, limit, terms, ageing and open orders (of the actor's stores). */
    async customerAccount(actor: Actor, id: number): Promise<CreditAccount> {
      assertSeesCredit(actor, 'customer');
      const customer = await liveCustomer(id);
      const terms = Number(customer.payment_terms_days);
      const { balance, ageing, open } = ageDocuments(await customerOrders(db, actor, { partyId: id }), terms);
      const limit = customer.credit_limit_cents === null ? null : Number(customer.credit_limit_cents);
      return {
        id,
        name: customer.name,
        balance_cents: balance,
        credit_limit_cents: limit,
        available_cents: limit === null ? null : Math.max(0, limit - balance),
        payment_terms_days: terms,
        ageing,
        open,
      };
    },

    /** A supplier's account: what the depot owes them, aged, and the purchases still open. */
    async supplierAccount(actor: Actor, id: number): Promise<CreditAccount> {
      assertSeesCredit(actor, 'supplier');
      const supplier = await liveSupplier(id);
      const terms = Number(supplier.payment_terms_days);
      const { balance, ageing, open } = ageDocuments(await supplierPurchases(db, actor, { partyId: id }), terms);
      return {
        id,
        name: supplier.name,
        balance_cents: balance,
        credit_limit_cents: null,
        available_cents: null,
        payment_terms_days: terms,
        ageing,
        open,
      };
    },

    async customerStatement(actor: Actor, id: number, from: string, to: string): Promise<Statement> {
      assertSeesCredit(actor, 'customer');
      const c = await liveCustomer(id);
      return {
        party: { kind: 'customer', id, name: c.name, phone: c.phone, address: c.address },
        from,
        to,
        ...statementOf(await customerEntries(db, id, actor), from, to),
      };
    },

    async supplierStatement(actor: Actor, id: number, from: string, to: string): Promise<Statement> {
      assertSeesCredit(actor, 'supplier');
      const s = await liveSupplier(id);
      return {
        party: { kind: 'supplier', id, name: s.name, phone: s.phone, address: s.address },
        from,
        to,
        ...statementOf(await supplierEntries(db, id, actor), from, to),
      };
    },

    /** What customers owe now, aged (the actor's stores, or one of them). */
    async receivables(actor: Actor, storeId: number | null): Promise<CreditReport> {
      assertSeesCredit(actor, 'customer');
      if (storeId) assertStoreInput(actor, 'store_id', storeId);
      const docs = await customerOrders(db, actor, { storeId, unpaidOnly: true });
      const ids = [...new Set(docs.map((d) => d.party_id))];
      const parties = ids.length
        ? await db
            .selectFrom('customers')
            .select(['id', 'name', 'phone', 'credit_limit_cents', 'payment_terms_days'])
            .where('id', 'in', ids)
            .execute()
        : [];
      return creditReport(parties, docs);
    },

    /** What the depot owes its suppliers now, aged. */
    async payables(actor: Actor, storeId: number | null): Promise<CreditReport> {
      assertSeesCredit(actor, 'supplier');
      if (storeId) assertStoreInput(actor, 'store_id', storeId);
      const docs = await supplierPurchases(db, actor, { storeId, unpaidOnly: true });
      const ids = [...new Set(docs.map((d) => d.party_id))];
      const parties = ids.length
        ? await db
            .selectFrom('suppliers')
            .select(['id', 'name', 'phone', 'payment_terms_days'])
            .where('id', 'in', ids)
            .execute()
        : [];
      return creditReport(
        parties.map((p) => ({ ...p, credit_limit_cents: null })),
        docs,
      );
    },

    /** A customer payment with its allocations; 404 outside the actor's stores. */
    showPayment: (actor: Actor, id: number) => payments.show(actor, id),

    /**
     * A customer's payment on account: one tender, allocated oldest first to their open orders in
     * the actor's stores (or to those chosen); each share an order payment carrying the payment's
     * id; an order paid in full gets its invoice. The customer's row is locked first, so two tills
     * never allocate the same debt twice.
     */
    payCustomer(actor: Actor, customerId: number, input: CustomerPaymentInput) {
      return payments.create(actor, async ({ trx, at }) => {
        const storeId = input.store_id ?? actor.storeId;
        if (!storeId) throw new FieldError({ store_id: [{ key: 'validation.required' }] });
        assertStoreInput(actor, 'store_id', storeId);
        const customer = await lockCustomer(trx, customerId);
        if (!customer || customer.deleted_at) throw notFound();
        const open = ageDocuments(await customerOrders(trx, actor, { partyId: customerId }), 0).open;
        // cash taken on account goes into the drawer of whoever takes it (or, shifts required: refused)
        const shiftId = await drawerShift(trx, actor.userId, storeId, movesCash([input.method]) ? 'cash' : null);
        const rates = await saleRates(trx);
        const rateIn = rates.rate_in_khr || rates.rate_khr;
        const cents = input.method === 'cash_khr' ? khrToCents(input.amount, rateIn) : input.amount;
        const shares = allocateOnAccount(open, input.order_ids, CUSTOMER_ACCOUNT, cents);
        const riel =
          input.method === 'cash_khr'
            ? rielShares(
                input.amount,
                shares.map((s) => s.amount_cents),
              )
            : null;
        const { id } = await trx
          .insertInto('customer_payments')
          .values({
            number: await nextDocumentNumber(trx, 'CP', todayInCambodia().slice(0, 4)),
            customer_id: customerId,
            store_id: storeId,
            method: input.method,
            amount: input.amount,
            amount_cents: cents,
            exchange_rate_khr: rateIn,
            transaction_id: input.transaction_id,
            note: input.note,
            received_by: actor.userId,
            created_at: at,
            updated_at: at,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        for (const [i, share] of shares.entries()) {
          const order = await trx
            .updateTable('orders')
            .set({ updated_at: at })
            .where('id', '=', share.id)
            .returning([
              'id',
              'total_cents',
              'paid_cents',
              'shipping_address',
              'change_given_cents',
              'change_given_khr',
            ])
            .executeTakeFirstOrThrow();
          const payment = {
            order_id: share.id,
            kind: 'payment' as const,
            method: input.method,
            amount: riel ? riel[i] : share.amount_cents,
            amount_cents: share.amount_cents,
            transaction_id: input.transaction_id,
            received_by: actor.userId,
            shift_id: shiftId,
            created_at: at,
          };
          await trx
            .insertInto('order_payments')
            .values({ ...payment, customer_payment_id: id })
            .execute();
          await tallyPayments(trx, share.id, [payment]);
          const total = Number(order.total_cents);
          const paid = Number(order.paid_cents) + share.amount_cents;
          const status = paymentStatus(total, paid, order.shipping_address !== null);
          await trx
            .updateTable('orders')
            .set({ paid_cents: paid, payment_status: status })
            .where('id', '=', share.id)
            .execute();
          const change = { change_cents: Number(order.change_given_cents), change_khr: Number(order.change_given_khr) };
          await tallyPaid(
            trx,
            share.id,
            { ...change, paid_cents: Number(order.paid_cents) },
            { ...change, paid_cents: paid },
          );
          if (status === 'paid') await issueInvoice(trx, share.id);
        }
        return id;
      });
    },

    /**
     * One payment to a supplier over its unpaid purchases in the actor's stores (oldest first, or
     * those chosen), by `allocateOnAccount` as a customer's payment on account; each share a
     * purchase payment, the purchase's paid amount and payment status following; one audit line
     * naming the shares. The supplier's row is locked first, and each purchase is written only if
     * its paid amount is still the one allocated against (else 409), all in one transaction.
     */
    async paySupplier(actor: Actor, supplierId: number, input: SupplierPaymentInput): Promise<SupplierPayment> {
      assertPaysSuppliers(actor);
      assertNotFuture('paid_at', input.paid_at);
      const result = await transaction(
        db,
        async (trx) => {
          const supplier = await lockSupplier(trx, supplierId);
          if (!supplier || supplier.deleted_at) throw notFound();
          const open = ageDocuments(await supplierPurchases(trx, actor, { partyId: supplierId }), 0).open;
          const shares = allocateOnAccount(open, input.purchase_ids, SUPPLIER_ACCOUNT, input.amount_cents);
          const allocations: SupplierPayment['allocations'] = [];
          for (const share of shares) {
            const doc = open.find((d) => d.id === share.id) as OpenDocument;
            // each share is a payment of its purchase, written as the purchase's own Pay writes one
            await payPurchaseWithin(
              trx,
              actor,
              share.id,
              {
                amount_cents: share.amount_cents,
                method: input.method,
                paid_at: input.paid_at,
                reference: input.reference,
                note: input.note,
              },
              doc.paid_cents,
            );
            allocations.push({ purchase_id: share.id, number: doc.number, amount_cents: share.amount_cents });
          }
          const result: SupplierPayment = {
            supplier_id: supplierId,
            amount_cents: input.amount_cents,
            method: input.method,
            paid_at: input.paid_at,
            allocations,
          };
          await recordAudit(trx, auditWho(actor), {
            action: 'supplier.payment',
            subject: { type: 'supplier', id: supplierId },
            after: { ...result, reference: input.reference },
          });
          return result;
        },
        actor,
      );
      // the purchases list's counted totals are of the old paid amounts (as every document write)
      await tableChanged(db, 'purchases');
      return result;
    },
  };
}

export type CreditService = ReturnType<typeof creditService>;
