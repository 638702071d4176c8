import {
  type AdjustmentReason,
  type adjustmentInput,
  LINE_TOTAL_MAX_CENTS,
  type OpeningStockLine,
  todayInCambodia,
  type writeOffInput,
} from '@depot/contracts';
import type { z } from 'zod';
import { type Db, now } from '../../db/database.ts';
import { transaction } from '../../db/transaction.ts';
import { FieldError, notFound } from '../../http/errors.ts';
import { findLive } from '../../kit/resource.ts';
import { type Actor, assertStoreInput } from '../../policies/policy.ts';
import { authorizeStockWrite } from '../../policies/stock.ts';
import { auditWho, recordAudit } from '../audit/audit.ts';
import { batchFor, issue, lockProducts, quantityOf, receive, worthNow } from './ledger.ts';
import { movementRows } from './stock.repository.ts';

type Adjustment = z.output<typeof adjustmentInput>;
type WriteOff = z.output<typeof writeOffInput>;

/** The store an adjustment or a write-off happens in: live, active, and one the actor covers. */
async function storeOfWrite(trx: Db, actor: Actor, storeId: number) {
  const store = await findLive(trx, 'stores', storeId);
  if (!store) throw new FieldError({ store_id: [{ key: 'validation.exists' }] });
  if (store.status !== 'active') throw new FieldError({ store_id: [{ key: 'validation.store_inactive' }] });
  authorizeStockWrite(actor, storeId);
  return store;
}

/**
 * The batch a line means: the one named (it must be the product's), or the only batch the product
 * has in the store, or (nothing there yet) its open batch. Several and none named: the user chooses.
 */
async function batchOfLine(
  trx: Db,
  storeId: number,
  item: Adjustment['items'][number],
  index: number,
  required: boolean,
): Promise<number | null> {
  if (item.batch_id) {
    const batch = await trx
      .selectFrom('stock_batches')
      .select('id')
      .where('id', '=', item.batch_id)
      .where('product_id', '=', item.product_id)
      .executeTakeFirst();
    if (!batch) throw new FieldError({ [`items.${index}.batch_id`]: [{ key: 'validation.exists' }] });
    return batch.id;
  }
  const held = await trx
    .selectFrom('stock_levels')
    .select('batch_id')
    .where('store_id', '=', storeId)
    .where('product_id', '=', item.product_id)
    .where('quantity', '>', 0)
    .execute();
  if (held.length === 1) return held[0].batch_id;
  if (held.length === 0) return required ? batchFor(trx, item.product_id, null, null) : null;
  if (required) throw new FieldError({ [`items.${index}.batch_id`]: [{ key: 'stock.batch_required' }] });
  return null;
}

export interface AdjustmentHead {
  store_id: number;
  reason: AdjustmentReason;
  note: string | null;
}

/** An adjustment's document (store, reason, who, when) and what each of its movements carries. */
export async function openAdjustment(trx: Db, actor: Actor, head: AdjustmentHead) {
  const { id } = await trx
    .insertInto('stock_adjustments')
    .values({
      store_id: head.store_id,
      reason: head.reason,
      note: head.note,
      created_by: actor.userId,
      created_at: now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const common = {
    storeId: head.store_id,
    type: 'adjustment' as const,
    document: { type: 'adjustment' as const, id },
    userId: actor.userId,
    reason: head.reason,
    note: head.note,
  };
  return { id, common };
}

/** An adjustment's movements as written, and its line of the audit trail. */
export async function closeAdjustment(trx: Db, actor: Actor, id: number, head: AdjustmentHead, items: unknown[]) {
  const movements = await movementRows(trx, (q) =>
    q
      .where('stock_movements.document_type', '=', 'adjustment')
      .where('stock_movements.document_id', '=', id)
      .orderBy('stock_movements.id'),
  );
  await recordAudit(trx, auditWho(actor), {
    action: 'stock.adjustment',
    subject: { type: 'stock_adjustment', id },
    after: {
      store_id: head.store_id,
      reason: head.reason,
      note: head.note,
      items,
      changes: movements.map((m) => ({ product_id: m.product_id, quantity: m.quantity })),
    },
  });
  return movements;
}

/**
 * A new product's opening stock, in the transaction that creates it: per store (live, active,
 * covered; a line's field named in the refusal) one `opening` adjustment whose lines are received
 * into their lot and expiry date at their unit cost (absent: the product's cost price). Who may do
 * it at all (`stocks.create`) is the product policy's, before anything is written.
 */
export async function receiveOpeningStock(
  trx: Db,
  actor: Actor,
  productId: number,
  lines: readonly OpeningStockLine[],
  costCents: number,
): Promise<void> {
  if (lines.length === 0) return;
  for (const [index, line] of lines.entries()) {
    const field = `opening_stock.${index}.store_id`;
    const store = await findLive(trx, 'stores', line.store_id);
    if (!store) throw new FieldError({ [field]: [{ key: 'validation.exists' }] });
    if (store.status !== 'active') throw new FieldError({ [field]: [{ key: 'validation.store_inactive' }] });
    assertStoreInput(actor, field, line.store_id);
    // a line's money stays an exact integer, as a purchase's does
    if (line.quantity * (line.unit_cost_cents ?? costCents) > LINE_TOTAL_MAX_CENTS) {
      throw new FieldError({
        [`opening_stock.${index}.quantity`]: [
          { key: 'purchase.line_too_large', params: { max: { usd: LINE_TOTAL_MAX_CENTS } } },
        ],
      });
    }
  }
  await lockProducts(trx, [productId]);
  const storeIds = [...new Set(lines.map((line) => line.store_id))];
  for (const storeId of storeIds) {
    const head = { store_id: storeId, reason: 'opening' as const, note: null };
    const { id, common } = await openAdjustment(trx, actor, head);
    const mine = lines.filter((line) => line.store_id === storeId);
    for (const line of mine) {
      await receive(trx, {
        ...common,
        productId,
        batch: { lot: line.lot, expiryDate: line.expiry_date },
        quantity: line.quantity,
        valueCents: line.quantity * (line.unit_cost_cents ?? costCents),
      });
    }
    await closeAdjustment(
      trx,
      actor,
      id,
      head,
      mine.map((line) => ({ product_id: productId, ...line })),
    );
  }
}

export function stockService(db: Db) {
  return {
    /**
     * A hand adjustment of one store, all lines in one transaction: a count sets the counted
     * quantity (the difference is the movement), found adds, damage, loss and expired take away
     * (from the batch named, else first to expire first).
     */
    adjust(actor: Actor, input: Adjustment) {
      return transaction(
        db,
        async (trx) => {
          await storeOfWrite(trx, actor, input.store_id);
          for (const [index, item] of input.items.entries()) {
            const product = await findLive(trx, 'products', item.product_id);
            if (!product) throw new FieldError({ [`items.${index}.product_id`]: [{ key: 'validation.exists' }] });
          }
          await lockProducts(
            trx,
            input.items.map((i) => i.product_id),
          );
          const { id, common } = await openAdjustment(trx, actor, input);
          let moved = 0;
          for (const [index, item] of input.items.entries()) {
            const adding = input.reason === 'found' || input.reason === 'count';
            const batchId = await batchOfLine(trx, input.store_id, item, index, adding);
            let change = input.reason === 'found' ? item.quantity : -item.quantity;
            if (input.reason === 'count') {
              change = item.quantity - (await quantityOf(trx, input.store_id, item.product_id, batchId));
            }
            if (change === 0) continue;
            const line = { ...common, productId: item.product_id };
            if (change > 0) {
              const valueCents = await worthNow(trx, item.product_id, change);
              await receive(trx, { ...line, batch: { id: batchId as number }, quantity: change, valueCents });
            } else {
              await issue(trx, { ...line, quantity: -change, batchId });
            }
            moved++;
          }
          if (moved === 0) throw new FieldError({ 'items.0.quantity': [{ key: 'stock.nothing_changed' }] });
          const movements = await closeAdjustment(trx, actor, id, input, input.items);
          return { id, movements };
        },
        actor,
      );
    },

    /** Every unit of an expired batch in a store leaves it, at its value (an expiry write-off). */
    writeOff(actor: Actor, input: WriteOff) {
      const userId = actor.userId;
      return transaction(
        db,
        async (trx) => {
          await storeOfWrite(trx, actor, input.store_id);
          const batch = await trx
            .selectFrom('stock_batches')
            .select(['id', 'product_id', 'expiry_date'])
            .where('id', '=', input.batch_id)
            .executeTakeFirst();
          if (!batch) throw notFound();
          if (!batch.expiry_date || batch.expiry_date >= todayInCambodia()) {
            throw new FieldError({ batch_id: [{ key: 'stock.not_expired' }] });
          }
          await lockProducts(trx, [batch.product_id]);
          const quantity = await quantityOf(trx, input.store_id, batch.product_id, batch.id);
          if (quantity === 0) throw new FieldError({ batch_id: [{ key: 'stock.nothing_to_write_off' }] });
          await issue(trx, {
            storeId: input.store_id,
            productId: batch.product_id,
            type: 'expiry_write_off',
            batchId: batch.id,
            quantity,
            document: { type: 'write_off', id: batch.id },
            userId,
            reason: 'expired',
            note: input.note,
          });
          await recordAudit(trx, auditWho(actor), {
            action: 'stock.write_off',
            subject: { type: 'stock_batch', id: batch.id },
            before: { quantity },
            after: { quantity: 0, store_id: input.store_id, product_id: batch.product_id, note: input.note },
          });
          return movementRows(trx, (q) =>
            q
              .where('stock_movements.type', '=', 'expiry_write_off')
              .where('stock_movements.batch_id', '=', batch.id)
              .where('stock_movements.store_id', '=', input.store_id)
              .orderBy('stock_movements.id', 'desc')
              .limit(1),
          );
        },
        actor,
      );
    },
  };
}

export type StockService = ReturnType<typeof stockService>;
