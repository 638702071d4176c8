import {
  LINE_TOTAL_MAX_CENTS,
  type MessageKey,
  type MessageParams,
  paymentStatusOf,
  type purchaseInput,
  type purchasePaymentInput,
  purchaseTotals,
  QUANTITY_MAX,
  receiptValueCents,
  type receiveInput,
  todayInCambodia,
} from '@depot/contracts';
import type { z } from 'zod';
import { type Db, now } from '../../db/database.ts';
import { nextDocumentNumber } from '../../db/sequences.ts';
import { AppError, FieldError } from '../../http/errors.ts';
import { type ActionContext, documentService } from '../../kit/document.ts';
import { findLive } from '../../kit/resource.ts';
import { type Actor, covers } from '../../policies/policy.ts';
import { assertSeesPurchases } from '../../policies/purchases.ts';
import { checkItem } from '../products/products.items.ts';
import { addSerials, checkSerialCount, trackedProducts } from '../serials/serials.ledger.ts';
import { lockProducts, receive } from '../stock/ledger.ts';
import { purchaseDocument } from './purchases.document.ts';
import {
  addReceived,
  insertPayment,
  insertPurchase,
  itemsForReceipt,
  type LineRow,
  productsByIds,
  replaceItems,
  unitsByIds,
  updatePurchase,
} from './purchases.repository.ts';

type Input = z.output<typeof purchaseInput>;
type Receipt = z.output<typeof receiveInput>;
type Payment = z.output<typeof purchasePaymentInput>;
type Problems = Record<string, { key: MessageKey; params?: MessageParams }[]>;

/** "PO-2026-000042": counted per year (the year in Cambodia when the purchase is created). */
function nextNumber(trx: Db): Promise<string> {
  return nextDocumentNumber(trx, 'PO', todayInCambodia().slice(0, 4));
}

/** A date's timestamp: now for today, else the start of that day in Cambodia (UTC+7). */
function stampOf(date: string | null | undefined): string {
  if (!date || date === todayInCambodia()) return now();
  return new Date(`${date}T00:00:00+07:00`).toISOString();
}

export function assertNotFuture(field: string, date: string | null | undefined) {
  if (date && date > todayInCambodia()) throw new FieldError({ [field]: [{ key: 'validation.date_future' }] });
}

/**
 * The rules of a purchase's body, all checked before anything is written (one 422 naming every
 * field at fault): the supplier and the store are live (the store active), each product is live and
 * active, each unit is the product's own or one made of it (its factor kept on the line). Answers
 * the lines and money as they are stored, from `purchaseTotals`, the same formula as the web app's
 * review screen.
 */
async function checkInput(trx: Db, actor: Actor, input: Input) {
  const problems: Problems = {};
  const add = (field: string, key: MessageKey, params?: MessageParams) => {
    problems[field] = [{ key, params }];
  };
  if (!(await findLive(trx, 'suppliers', input.supplier_id))) add('supplier_id', 'validation.exists');
  const store = await findLive(trx, 'stores', input.store_id);
  if (!store) add('store_id', 'validation.exists');
  else if (store.status !== 'active') add('store_id', 'validation.store_inactive');
  else if (!covers(actor, store.id)) add('store_id', 'policy.store');

  const products = await productsByIds(trx, [...new Set(input.items.map((i) => i.product_id))]);
  const units = await unitsByIds(trx, [...new Set(input.items.map((i) => i.unit_id))]);
  const factors: number[] = [];
  for (const [index, item] of input.items.entries()) {
    const field = `items.${index}`;
    const checked = checkItem(item, field, { products, units }, add);
    if (!checked) continue;
    const { factor } = checked;
    factors[index] = factor;
    // base units fit the ledger's quantities; a line's money stays an exact integer
    if (item.quantity * factor > QUANTITY_MAX) {
      add(`${field}.quantity`, 'validation.number_max', { max: Math.floor(QUANTITY_MAX / factor) });
    } else if (item.quantity * item.unit_price_cents > LINE_TOTAL_MAX_CENTS) {
      add(`${field}.unit_price_cents`, 'purchase.line_too_large', { max: { usd: LINE_TOTAL_MAX_CENTS } });
    }
  }
  if (Object.keys(problems).length) throw new FieldError(problems);

  const totals = purchaseTotals(input.items, input.shipping_cents, input.tax_cents);
  const lines: LineRow[] = input.items.map((item, index) => ({
    product_id: item.product_id,
    unit_id: item.unit_id,
    factor: factors[index],
    quantity: item.quantity,
    unit_price_cents: item.unit_price_cents,
    line_total_cents: totals.lines[index].line_total_cents,
    shipping_share_cents: totals.lines[index].shipping_share_cents,
    lot: item.lot,
    expiry_date: item.expiry_date,
  }));
  return {
    lines,
    values: {
      supplier_id: input.supplier_id,
      store_id: input.store_id,
      purchase_date: input.purchase_date,
      notes: input.notes,
      status: input.ordered ? ('ordered' as const) : ('draft' as const),
      subtotal_cents: totals.subtotal_cents,
      shipping_cents: input.shipping_cents,
      tax_cents: input.tax_cents,
      grand_total_cents: totals.grand_total_cents,
      items_count: lines.length,
    },
  };
}

export function purchaseService(db: Db) {
  const documents = documentService(db, purchaseDocument);

  return {
    /** A purchase with its abilities; 404 outside the actor's stores. */
    show(actor: Actor, id: number) {
      assertSeesPurchases(actor);
      return documents.show(actor, id);
    },

    /** A new purchase, numbered PO-<year>-<6 digits>: ordered, or a draft with `ordered: false`. */
    create(actor: Actor, input: Input) {
      assertSeesPurchases(actor);
      return documents.create(actor, async ({ trx, at }) => {
        const { lines, values } = await checkInput(trx, actor, input);
        const id = await insertPurchase(trx, {
          ...values,
          number: await nextNumber(trx),
          payment_status: paymentStatusOf(0, values.grand_total_cents),
          created_by: actor.userId,
          created_at: at,
          updated_at: at,
        });
        await replaceItems(trx, id, lines);
        return id;
      });
    },

    /** Replaces the whole purchase, lines included: only a draft or an order of which nothing arrived. */
    update(actor: Actor, id: number, input: Input) {
      return documents.act(actor, id, 'update', async ({ trx, at, row }) => {
        const { lines, values } = await checkInput(trx, actor, input);
        const paid = Number(row.paid_cents);
        if (values.grand_total_cents < paid) {
          throw new FieldError({
            items: [
              {
                key: 'purchase.below_paid',
                params: { total: { usd: values.grand_total_cents }, paid: { usd: paid } },
              },
            ],
          });
        }
        await updatePurchase(trx, id, {
          ...values,
          payment_status: paymentStatusOf(paid, values.grand_total_cents),
          updated_at: at,
        });
        await replaceItems(trx, id, lines);
      });
    },

    /** A draft is sent to the supplier. */
    order(actor: Actor, id: number) {
      return documents.act(actor, id, 'order', ({ trx }) => updatePurchase(trx, id, { status: 'ordered' }));
    },

    /**
     * Goods arrive: each line's quantity (in its unit) goes into the purchase's store through the
     * stock ledger, as quantity × factor base units in the batch of the line's lot and expiry date,
     * all in one transaction. What enters stock is the landed cost: the line total plus its share of
     * the shipping, in proportion to what arrives, the receipt completing a line taking exactly what
     * is left of it (receiptValueCents). Tax is not stock value: input VAT is claimed back from the
     * tax office, so it never enters the products' cost.
     */
    receive(actor: Actor, id: number, input: Receipt) {
      return documents.act(actor, id, 'receive', async ({ trx, at, row }) => {
        assertNotFuture('received_at', input.received_at);
        // read after the lock: a receipt that committed meanwhile is counted
        const items = new Map((await itemsForReceipt(trx, id)).map((item) => [item.id, item]));
        const problems: Problems = {};
        const tracked = await trackedProducts(
          trx,
          [...items.values()].map((item) => item.product_id),
        );
        const serialLines: Parameters<typeof addSerials>[1] = [];
        const receipts: { item: NonNullable<ReturnType<typeof items.get>>; quantity: number; value: number }[] = [];
        for (const [index, line] of input.items.entries()) {
          const item = items.get(line.item_id);
          if (!item) {
            problems[`items.${index}.item_id`] = [{ key: 'purchase.not_item' }];
            continue;
          }
          const due = item.quantity - item.received_quantity;
          if (line.quantity > due) {
            problems[`items.${index}.quantity`] = [{ key: 'purchase.over_received', params: { due } }];
            continue;
          }
          // a serial-tracked product arrives with one serial per base unit, scanned or typed
          const product = tracked.get(item.product_id);
          checkSerialCount(problems, `items.${index}.serials`, {
            tracked: product !== undefined,
            units: line.quantity * item.factor,
            serials: line.serials,
          });
          if (product) {
            serialLines.push({
              field: `items.${index}.serials`,
              productId: item.product_id,
              storeId: row.store_id,
              purchaseItemId: item.id,
              warrantyMonths: product.warranty_months,
              serials: line.serials,
            });
          }
          const value = receiptValueCents(item, line.quantity);
          receipts.push({ item, quantity: line.quantity, value });
          // a line named twice: the second receipt counts from where the first left it
          item.received_quantity += line.quantity;
          item.received_value_cents += value;
        }
        if (Object.keys(problems).length) throw new FieldError(problems);

        await lockProducts(
          trx,
          receipts.map((r) => r.item.product_id),
        );
        for (const { item, quantity, value } of receipts) {
          await receive(trx, {
            storeId: row.store_id,
            productId: item.product_id,
            type: 'purchase_receipt',
            batch: { lot: item.lot, expiryDate: item.expiry_date },
            quantity: quantity * item.factor,
            valueCents: value,
            document: { type: 'purchase', id },
            userId: actor.userId,
          });
          if (!(await addReceived(trx, item.id, quantity, value))) {
            throw new AppError(409, 'resource.conflict');
          }
        }
        await addSerials(trx, serialLines, at);
        const complete = [...items.values()].every((item) => item.received_quantity >= item.quantity);
        await updatePurchase(trx, id, {
          status: complete ? 'received' : 'partially_received',
          received_at: complete ? stampOf(input.received_at) : null,
        });
      });
    },

    /**
     * A payment to the supplier, up to what is still due; the payment status follows. A draft may
     * take a deposit; a cancelled purchase takes nothing.
     */
    pay(actor: Actor, id: number, input: Payment) {
      return documents.act(actor, id, 'pay', payStep(input));
    },

    /** A draft or an order of which nothing arrived and nothing was paid. */
    cancel(actor: Actor, id: number) {
      return documents.act(actor, id, 'cancel', ({ trx, at }) =>
        updatePurchase(trx, id, { status: 'cancelled', cancelled_at: at }),
      );
    },
  };
}

export type PurchaseService = ReturnType<typeof purchaseService>;

/**
 * What paying a purchase writes, on its locked row: the payment, up to what is still due, and the
 * paid amount and payment status that follow. `allocatedFrom`: the paid amount a payment on account
 * was shared out from; another payment since then is a conflict (409), not a smaller share.
 */
function payStep(input: Payment, allocatedFrom?: number) {
  return async ({ trx, at, actor, row }: ActionContext<'purchases'>) => {
    assertNotFuture('paid_at', input.paid_at);
    const total = Number(row.grand_total_cents);
    const before = Number(row.paid_cents);
    if (allocatedFrom !== undefined && before !== allocatedFrom) throw new AppError(409, 'resource.conflict');
    const due = total - before;
    if (input.amount_cents > due) {
      throw new FieldError({ amount_cents: [{ key: 'purchase.over_paid', params: { due: { usd: due } } }] });
    }
    await insertPayment(trx, {
      purchase_id: row.id,
      amount_cents: input.amount_cents,
      method: input.method,
      paid_at: input.paid_at,
      reference: input.reference,
      note: input.note,
      created_by: actor.userId,
      created_at: at,
    });
    const paid = before + input.amount_cents;
    await updatePurchase(trx, row.id, { paid_cents: paid, payment_status: paymentStatusOf(paid, total) });
  };
}

/**
 * A purchase paid inside a transaction already open, as its own Pay pays it (locked, the purchase
 * policy's `pay` rule, `payStep`): a supplier's payment on account pays each purchase it is shared
 * over this way (credit.service). The caller announces the write (the purchases' totals).
 */
export function payPurchaseWithin(
  trx: Db,
  actor: Actor,
  id: number,
  input: Payment,
  allocatedFrom: number,
): Promise<void> {
  return documentService(trx, purchaseDocument).actWithin(trx, actor, id, 'pay', payStep(input, allocatedFrom));
}
