import { type ChangeIn, type DeliveryStatus, todayInCambodia } from '@depot/contracts';
import type { Db } from '../../db/database.ts';
import { FieldError } from '../../http/errors.ts';
import { documentService, type StepContext } from '../../kit/document.ts';
import { orderScope } from '../../policies/orders.ts';
import type { Actor, Approver } from '../../policies/policy.ts';
import { auditWho, recordAudit } from '../audit/audit.ts';
import { checkCredit } from '../credit/credit.steps.ts';
import { saleRates } from '../rates/rates.service.ts';
import { claimSerials, returnSerials, voidSerials } from '../serials/serials.ledger.ts';
import { attachShift } from '../shifts/shifts.service.ts';
import { creditNoteFor, creditVoid } from '../tax/tax.issue.ts';
import {
  type OrderInput,
  orderValues,
  priceOrder,
  type ReturnInput,
  readCart,
  saleStore,
  type Tender,
} from './orders.cart.ts';
import { orderDocument } from './orders.document.ts';
import { issueInvoice, openInvoice, recordPayments } from './orders.payments.ts';
import { cashiers, updateOrder } from './orders.repository.ts';
import {
  markCancelled,
  moveDelivery,
  recordReturn,
  refundTheRest,
  returnLines,
  voidInvoice,
} from './orders.returns.ts';
import { numberSale, writeLines, writeOrder } from './orders.sale.ts';
import { everyLine, putBack, takeStock } from './orders.stock.ts';

/** How old an offline sale may be when it reaches the server, and how far a till's clock may run ahead. */
const OFFLINE_DAYS = 30;
const DAY_MS = 86_400_000;
const CLOCK_SKEW_MS = 5 * 60_000;

/**
 * Selling, as steps (orders.cart.ts, .sale, .payments, .stock, .returns) run by the document building block (kit/document.ts), which
 * locks the order, asks its policy (policies/orders.ts), runs the steps in one transaction and
 * answers the order with its abilities.
 */
export function orderService(db: Db) {
  const documents = documentService(db, orderDocument);

  /** The cart as the till sends it, priced and written as the order's lines: held, or sold. */
  async function writeCart({ trx, at, actor }: StepContext, orderId: number | null, input: OrderInput) {
    const { store, customer } = await saleStore(trx, actor, input);
    const cart = await readCart(trx, input, todayInCambodia(), customer);
    const rates = await saleRates(trx);
    const priced = priceOrder(cart, rates, input.delivery);
    const values = orderValues(input, {
      storeId: store.id,
      cashierId: actor.userId,
      cart,
      priced,
      rates,
      held: input.hold,
      at,
    });
    const id = await writeOrder(trx, orderId, values);
    const itemIds = await writeLines(trx, id, cart.lines, priced, orderId !== null, values);
    return { id, storeId: store.id, storeCode: store.code, lines: cart.lines, itemIds, values };
  }

  /**
   * A sale's money, its invoice (under a provisional number), then its stock. Taking the stock
   * locks the products until the commit (on PostgreSQL, other tills selling them wait), so it comes
   * last: the ledger locks and reads, and its writes, the numbers (`numberSale`, the caller's last
   * step: the counters every till shares), the rollups and the key's result are the transaction's
   * last statement (db/later.ts). A refusal of any undoes all. Answers the invoice to number.
   */
  async function sell(
    ctx: StepContext,
    sale: Awaited<ReturnType<typeof writeCart>>,
    payments: Tender[],
    changeIn: ChangeIn,
    approver: Approver | null,
    awaitingKhqr: boolean,
  ) {
    const { trx, actor } = ctx;
    // the sale belongs to its cashier's open shift at the store (or is refused, when one is required)
    // (its tenders and change are that shift's drawer's)
    const shiftId = await attachShift(trx, actor, sale.id, sale.storeId);
    const paid = payments.length
      ? await recordPayments(trx, { ...sale.values, id: sale.id }, payments, actor.userId, changeIn, shiftId)
      : null;
    const status = paid?.status ?? null;
    // what is left unpaid must stay within the customer's credit limit, or a manager allows it
    await checkCredit(
      trx,
      {
        id: sale.id,
        storeId: sale.storeId,
        customerId: sale.values.customer_id,
        totalCents: sale.values.total_cents,
        paidCents: paid?.paid_cents ?? 0,
        awaitingKhqr,
      },
      actor,
      approver,
    );
    // the invoice before the stock; its number, like the order's, is a counter every till shares:
    // taken last (numberSale)
    const invoiced = status === 'paid' || (!payments.length && sale.values.total_cents === 0);
    // a new or held order has no invoice yet: its draft is the order as written
    const invoice = invoiced
      ? await openInvoice(trx, sale.id, {
          store_id: sale.storeId,
          code: sale.storeCode,
          total_cents: sale.values.total_cents,
          tax_cents: sale.values.tax_cents,
          items_count: sale.values.items_count,
        })
      : null;
    const allowNegative = sale.values.offline_sold_at !== null;
    const oversold = await takeStock(
      trx,
      { id: sale.id, storeId: sale.storeId, userId: actor.userId, allowNegative },
      sale.lines,
      sale.itemIds,
    );
    // the units sold by their serials, each on hand in the store until this transaction claims it
    const serials = await claimSerials(
      trx,
      sale.storeId,
      sale.lines.map((line, i) => ({
        field: `items.${i}.serials`,
        productId: line.product_id ?? 0,
        serials: line.serials,
      })),
      { status: 'sold', orderItemIds: sale.itemIds, at: ctx.at, anyway: allowNegative },
    );
    // beyond the stock, or a serial the server knows elsewhere: in the audit trail, and the
    // managers are told (notifications.raise.ts)
    const { elsewhere } = serials;
    if (elsewhere.length && !oversold) await updateOrder(trx, sale.id, { oversold: 1 });
    if (oversold || elsewhere.length) {
      await recordAudit(trx, auditWho(actor), {
        action: 'order.sold_offline_beyond_stock',
        subject: { type: 'order', id: sale.id },
        after: {
          offline_sold_at: sale.values.offline_sold_at,
          offline_receipt_no: sale.values.offline_receipt_no,
          ...(elsewhere.length ? { serials_elsewhere: elsewhere } : {}),
        },
      });
    }
    // numbered by numberSale, the caller's last step
    return invoice;
  }

  /** A cart is held or paid for, not both. */
  function assertHoldUnpaid(input: OrderInput) {
    if (input.hold && input.payments.length) throw new FieldError({ payments: [{ key: 'validation.choice' }] });
  }

  /**
   * Who may say a sale was made offline: whoever may sell (the till queues its cashier's own sales
   * and sends them as that cashier, the session's user: nothing in the body names the cashier).
   * The claim lifts only the stock check, so it is bounded: a new sale, not held, made in the last
   * OFFLINE_DAYS and not later than now; a claim that oversells is audited and told to the store's
   * managers at once, so it cannot quietly stand in for an online sale's check.
   */
  function assertOfflineClaim(input: OrderInput, isNew: boolean) {
    if (!input.offline) return;
    if (!isNew || input.hold) throw new FieldError({ offline: [{ key: 'order.offline_only_new' }] });
    const soldAt = Date.parse(input.offline.sold_at);
    const nowMs = Date.now();
    if (soldAt > nowMs + CLOCK_SKEW_MS || soldAt < nowMs - OFFLINE_DAYS * DAY_MS) {
      throw new FieldError({ 'offline.sold_at': [{ key: 'order.offline_sold_at' }] });
    }
  }

  return {
    /** An order with its abilities; 404 outside the actor's stores. */
    show: (actor: Actor, id: number) => documents.show(actor, id),
    /** A list row with the actor's abilities (the kit's list). */
    present: documents.present,
    /** Everyone who has recorded a sale in the actor's stores: the orders list's cashier filter. */
    cashiers: (actor: Actor) => cashiers(db, (query) => orderScope(query, actor)),

    /**
     * A sale from the till: held, or sold at once (stock out, tenders recorded, invoice when paid;
     * beyond the customer's credit limit, with a manager's approval).
     */
    create(actor: Actor, input: OrderInput, approver: Approver | null = null) {
      return documents.create(actor, async (ctx) => {
        assertHoldUnpaid(input);
        assertOfflineClaim(input, true);
        const sale = await writeCart(ctx, null, input);
        const invoice = input.hold
          ? null
          : await sell(ctx, sale, input.payments, input.change_in, approver, input.awaiting_khqr);
        await numberSale(ctx, {
          order: { id: sale.id, note: sale.values.note, shipping_address: sale.values.shipping_address },
          invoice,
        });
        return sale.id;
      });
    },

    /** A held order changed, or (hold: false) checked out: the cart as the till sends it now. */
    update(actor: Actor, id: number, input: OrderInput, approver: Approver | null = null) {
      return documents.act(actor, id, 'update', async (ctx) => {
        assertHoldUnpaid(input);
        assertOfflineClaim(input, false);
        const sale = await writeCart(ctx, id, input);
        if (input.hold) return;
        const invoice = await sell(ctx, sale, input.payments, input.change_in, approver, input.awaiting_khqr);
        if (invoice) await numberSale(ctx, { invoice });
      });
    },

    /**
     * Tenders against what is still due; paid in full, the invoice. `first` runs in the payment's
     * transaction before it (a bank transaction's hash claimed: modules/khqr).
     */
    pay(actor: Actor, id: number, tenders: Tender[], changeIn: ChangeIn = 'split', first?: (trx: Db) => Promise<void>) {
      return documents.act(actor, id, 'pay', async ({ trx, row }) => {
        await first?.(trx);
        const { status } = await recordPayments(trx, row, tenders, actor.userId, changeIn);
        if (status === 'paid') await issueInvoice(trx, id);
      });
    },

    /**
     * A void: a held order is dropped; a sold one gives back every unit still out (through the
     * ledger, as returns), refunds what was paid in dollars, and voids its invoice.
     */
    cancel(actor: Actor, id: number, reason: string | null, approver: Approver | null) {
      return documents.act(
        actor,
        id,
        'cancel',
        async ({ trx, at, row, approvedBy }) => {
          if (row.status === 'confirmed') {
            const order = { id, storeId: row.store_id, userId: actor.userId };
            // an invoiced sale's void credits what was left of it (before its units go back)
            await creditVoid(trx, id, reason, actor.userId);
            await putBack(trx, order, await everyLine(trx, id), reason);
            await voidSerials(trx, id, row.store_id, at);
            await refundTheRest(trx, row, actor.userId, at);
            await voidInvoice(trx, id, at);
          }
          await markCancelled(trx, id, { at, userId: actor.userId, reason, approvedBy });
          await recordAudit(trx, auditWho(actor), {
            action: 'order.void',
            subject: { type: 'order', id },
            before: { status: row.status, payment_status: row.payment_status },
            after: { status: 'cancelled', reason, approved_by: approvedBy ?? null },
          });
        },
        approver,
      );
    },

    /** A return of some or all of a paid order's lines: the units go back, the money goes out. */
    giveBack(actor: Actor, id: number, input: ReturnInput, approver: Approver | null) {
      return documents.act(
        actor,
        id,
        'return',
        async ({ trx, at, row, approvedBy }) => {
          const { refund, back, parts } = await returnLines(trx, id, input.items);
          await putBack(trx, { id, storeId: row.store_id, userId: actor.userId }, back, input.note);
          await returnSerials(
            trx,
            row.store_id,
            input.items.map((item, i) => ({
              field: `items.${i}.serials`,
              orderItemId: item.order_item_id,
              serials: item.serials,
            })),
            at,
          );
          const returnId = await recordReturn(
            trx,
            row,
            { cents: refund, method: input.refund_method, note: input.note },
            { userId: actor.userId, approvedBy, at },
          );
          // an invoiced sale's return is credited against its invoice, at the invoice's rate
          await creditNoteFor(trx, id, parts, {
            returnId,
            reason: input.note,
            delivery: false,
            userId: actor.userId,
          });
          await recordAudit(trx, auditWho(actor), {
            action: 'order.refund',
            subject: { type: 'order', id },
            after: {
              refund_cents: refund,
              method: input.refund_method,
              items: input.items,
              note: input.note,
              approved_by: approvedBy ?? null,
            },
          });
        },
        approver,
      );
    },

    /** Moves a delivery along its allowed steps. */
    deliver(actor: Actor, id: number, status: DeliveryStatus) {
      return documents.act(actor, id, 'deliver', ({ trx, row }) => moveDelivery(trx, row, status));
    },
  };
}

export type OrderService = ReturnType<typeof orderService>;
