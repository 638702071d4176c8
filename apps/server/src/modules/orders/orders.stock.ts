import type { Insertable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { OrderItemBatchesTable } from '../../db/schema.ts';
import { issueAll, lockProducts, receive, share } from '../stock/ledger.ts';
import type { SaleLine } from './orders.cart.ts';
import { markTakenBack, orderLineIds, takenBy, updateLine, updateOrder, writeTaken } from './orders.repository.ts';

/* A sale's stock, through the ledger: taken by a sale, put back by a void or a return. */

/**
 * The stock of a sale leaves the store: each line's units, first to expire first, as sales. A sale
 * made offline (`allowNegative`) takes units beyond the stock too: each line keeps how many base
 * units it oversold and the order is marked; the answer says whether any did.
 */
export async function takeStock(
  trx: Db,
  order: { id: number; storeId: number; userId: number; allowNegative?: boolean },
  lines: SaleLine[],
  itemIds: number[],
): Promise<boolean> {
  // every line's products at once, set-wise (the ledger locks them in id order, then a few statements)
  const ops = lines.flatMap((line, i) =>
    line.takes.map((take) => ({
      line: i,
      productId: take.product_id,
      issue: {
        storeId: order.storeId,
        productId: take.product_id,
        type: line.kind === 'combo' ? ('bundle_consumption' as const) : ('sale' as const),
        quantity: take.units,
        document: { type: 'order' as const, id: order.id },
        userId: order.userId,
        allowNegative: order.allowNegative === true,
      },
    })),
  );
  // the ledger's writes are left for the transaction's end (db/later.ts), but for an offline sale's
  // (its shortage is written in between): the products stay locked until the commit either way
  const picked = await issueAll(
    trx,
    ops.map((op) => op.issue),
    { late: true },
  );
  const oversold = new Map<number, number>();
  const taken: Insertable<OrderItemBatchesTable>[] = ops.flatMap((op, k) =>
    picked[k].map((pick) => {
      const itemId = itemIds[op.line];
      if (pick.beyond) oversold.set(itemId, (oversold.get(itemId) ?? 0) + pick.beyond);
      return {
        order_item_id: itemId,
        product_id: op.productId,
        batch_id: pick.batchId,
        quantity: pick.quantity,
        value_cents: pick.valueCents,
        returned: 0,
      };
    }),
  );
  // which batches each line took, for returns: one statement (6 parameters a row)
  await writeTaken(trx, taken);
  for (const [itemId, units] of oversold) await updateLine(trx, itemId, { oversold: units });
  if (oversold.size) await updateOrder(trx, order.id, { oversold: 1 });
  return oversold.size > 0;
}

/** Lines given back, each with the part of it that is back so far (returned / quantity). */
export type Back = { itemId: number; share: [number, number] }[];

/**
 * Puts back, as returns through the ledger, the part `share` (returned so far / quantity) of what
 * some lines took: per line and product the units due back so far, less those already back,
 * batch by batch; a line given back whole returns exactly its units and their value.
 */
export async function putBack(
  trx: Db,
  order: { id: number; storeId: number; userId: number },
  back: Back,
  note: string | null,
) {
  if (!back.length) return;
  const rows = await takenBy(
    trx,
    back.map((b) => b.itemId),
  );
  await lockProducts(
    trx,
    rows.map((r) => r.product_id),
  );
  for (const {
    itemId,
    share: [part, whole],
  } of back) {
    for (const productId of new Set(rows.filter((r) => r.order_item_id === itemId).map((r) => r.product_id))) {
      const group = rows.filter((r) => r.order_item_id === itemId && r.product_id === productId);
      const taken = group.reduce((sum, r) => sum + Number(r.quantity), 0);
      const already = group.reduce((sum, r) => sum + Number(r.returned), 0);
      // a line's units are its quantity times the units of one: the part is always whole units
      let need = (taken * part) / whole - already;
      for (const row of group) {
        if (need <= 0) break;
        const quantity = Number(row.quantity);
        const returned = Number(row.returned);
        const units = Math.min(need, quantity - returned);
        if (units <= 0) continue;
        const value = Number(row.value_cents);
        const worth =
          returned + units === quantity
            ? value - share(value, returned, quantity)
            : share(value, returned + units, quantity) - share(value, returned, quantity);
        await receive(trx, {
          storeId: order.storeId,
          productId,
          type: 'return',
          batch: { id: row.batch_id },
          quantity: units,
          valueCents: worth,
          document: { type: 'order', id: order.id },
          userId: order.userId,
          note,
        });
        await markTakenBack(trx, row.id, returned + units);
        need -= units;
      }
    }
  }
}

/** Every line of a sale, whole: what a void gives back. */
export async function everyLine(trx: Db, orderId: number): Promise<Back> {
  const items = await orderLineIds(trx, orderId);
  return items.map((i) => ({ itemId: i.id, share: [1, 1] }));
}
