import { SERIAL_ON_HAND } from '@depot/contracts';
import type { Db } from '../../db/database.ts';
import { FieldError } from '../../http/errors.ts';

/*
 * Serial numbers' moves (issue 28), each in the transaction of the document that moves the units
 * (a purchase's receipt, a sale, a return or void, a transfer): the stock ledger counts the units,
 * `product_serials` says which ones. Each claim is a conditional update (the unit on hand in that
 * store), so two tills selling the same phone at once cannot both win: the second's update finds
 * it sold (PostgreSQL re-reads the row after the first commits; SQLite has one writer) and its sale
 * is refused and rolled back.
 */

type Problems = ConstructorParameters<typeof FieldError>[0];

/** A serial-tracked line's serials against its base units; a serial on a product without them is refused. */
export function checkSerialCount(
  problems: Problems,
  field: string,
  line: { tracked: boolean; units: number; serials: readonly string[] },
) {
  if (!line.tracked) {
    if (line.serials.length) problems[field] = [{ key: 'serial.not_tracked' }];
  } else if (line.serials.length !== line.units) {
    problems[field] = [{ key: 'serial.count', params: { count: line.units } }];
  }
}

/** The products among `ids` that carry serials. */
export async function trackedProducts(trx: Db, ids: number[]): Promise<Map<number, { warranty_months: number }>> {
  if (!ids.length) return new Map();
  const rows = await trx
    .selectFrom('products')
    .select(['id', 'warranty_months'])
    .where('id', 'in', [...new Set(ids)])
    .where('serial_tracked', '=', 1)
    .execute();
  return new Map(rows.map((r) => [r.id, { warranty_months: Number(r.warranty_months) }]));
}

/** Units received with a purchase line: new serials in its store (one already recorded is refused). */
export async function addSerials(
  trx: Db,
  lines: {
    field: string;
    productId: number;
    storeId: number;
    purchaseItemId: number;
    warrantyMonths: number;
    serials: string[];
  }[],
  at: string,
) {
  const problems: Problems = {};
  const named = new Set<string>();
  for (const line of lines) {
    // one serial named on two lines of the same product
    for (const serial of line.serials) {
      const key = `${line.productId} ${serial}`;
      if (named.has(key)) problems[line.field] = [{ key: 'serial.duplicate' }];
      named.add(key);
    }
    if (!line.serials.length) continue;
    const known = await trx
      .selectFrom('product_serials')
      .select('serial')
      .where('product_id', '=', line.productId)
      .where('serial', 'in', line.serials)
      .execute();
    if (known.length) problems[line.field] = known.map((k) => ({ key: 'serial.exists', params: { serial: k.serial } }));
  }
  if (Object.keys(problems).length) throw new FieldError(problems);
  const rows = lines.flatMap((line) =>
    line.serials.map((serial) => ({
      product_id: line.productId,
      serial,
      store_id: line.storeId,
      status: 'in_stock' as const,
      purchase_item_id: line.purchaseItemId,
      warranty_months: line.warrantyMonths,
      created_at: at,
      updated_at: at,
    })),
  );
  for (let i = 0; i < rows.length; i += 500)
    await trx
      .insertInto('product_serials')
      .values(rows.slice(i, i + 500))
      .execute();
}

/**
 * Claims each named unit, on hand in `storeId`, for what moves it (a sale's line: sold; a
 * transfer: moved). A unit not on hand there is refused on its line's field, every one at once.
 * `anyway` (a sale made offline, which the till could not check) keeps the sale all the same, as
 * the ledger takes its stock below zero: a unit the server never knew is recorded as sold there; a
 * known one elsewhere (another store, on a transfer, sold to someone else) keeps its record, and is
 * answered among the serials to review (the caller tells the managers), so no sale can take a unit
 * from another store, a transfer or an earlier buyer.
 */
export async function claimSerials(
  trx: Db,
  storeId: number,
  lines: { field: string; productId: number; serials: string[] }[],
  to:
    | { status: 'sold'; orderItemIds: number[]; at: string; anyway: boolean }
    | { status: 'moved'; transferId: number; at: string },
) {
  const problems: Problems = {};
  const elsewhere: string[] = [];
  for (const [index, line] of lines.entries()) {
    for (const serial of line.serials) {
      const sold =
        to.status === 'sold'
          ? { status: to.status, order_item_id: to.orderItemIds[index], sold_at: to.at, updated_at: to.at }
          : null;
      const set = sold ?? {
        status: 'moved' as const,
        transfer_id: to.status === 'moved' ? to.transferId : null,
        updated_at: to.at,
      };
      const claimed = await trx
        .updateTable('product_serials')
        .set(set)
        .where('product_id', '=', line.productId)
        .where('serial', '=', serial)
        .where('store_id', '=', storeId)
        .where('status', 'in', SERIAL_ON_HAND)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) === 1) continue;
      if (sold && to.status === 'sold' && to.anyway) {
        if (!(await soldUnknown(trx, storeId, line.productId, serial, sold))) elsewhere.push(serial);
        continue;
      }
      problems[line.field] = [...(problems[line.field] ?? []), { key: 'serial.not_in_stock', params: { serial } }];
    }
  }
  if (Object.keys(problems).length) throw new FieldError(problems);
  return { elsewhere };
}

/**
 * An offline sale's unit the server did not have on hand: recorded as sold there when the server
 * never knew it (true); a known unit keeps its record (false).
 */
async function soldUnknown(
  trx: Db,
  storeId: number,
  productId: number,
  serial: string,
  set: { status: 'sold'; order_item_id: number; sold_at: string; updated_at: string },
): Promise<boolean> {
  const known = await trx
    .selectFrom('product_serials')
    .select('id')
    .where('product_id', '=', productId)
    .where('serial', '=', serial)
    .executeTakeFirst();
  if (known) return false;
  const product = await trx
    .selectFrom('products')
    .select('warranty_months')
    .where('id', '=', productId)
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('product_serials')
    .values({
      product_id: productId,
      serial,
      store_id: storeId,
      warranty_months: Number(product.warranty_months),
      created_at: set.updated_at,
      ...set,
    })
    .execute();
  return true;
}

/**
 * The units a return names come back to the sale's store: each must be one the line sold and not
 * yet returned; every mistake at once.
 */
export async function returnSerials(
  trx: Db,
  storeId: number,
  lines: { field: string; orderItemId: number; serials: string[] }[],
  at: string,
) {
  const problems: Problems = {};
  for (const line of lines) {
    for (const serial of line.serials) {
      const back = await trx
        .updateTable('product_serials')
        .set({ status: 'returned', store_id: storeId, updated_at: at })
        .where('order_item_id', '=', line.orderItemId)
        .where('serial', '=', serial)
        .where('status', '=', 'sold')
        .executeTakeFirst();
      if (Number(back.numUpdatedRows) !== 1) {
        problems[line.field] = [...(problems[line.field] ?? []), { key: 'serial.not_on_sale', params: { serial } }];
      }
    }
  }
  if (Object.keys(problems).length) throw new FieldError(problems);
}

/** A voided sale's units, every one still sold by its lines, back in its store. */
export async function voidSerials(trx: Db, orderId: number, storeId: number, at: string) {
  await trx
    .updateTable('product_serials')
    .set({ status: 'returned', store_id: storeId, updated_at: at })
    .where('status', '=', 'sold')
    .where('order_item_id', 'in', (q) => q.selectFrom('order_items').select('id').where('order_id', '=', orderId))
    .execute();
}

/** A transfer's units on their way arrive (its destination) or go back (its origin, on cancel). */
export async function landSerials(trx: Db, transferId: number, storeId: number, at: string) {
  await trx
    .updateTable('product_serials')
    .set({ status: 'in_stock', store_id: storeId, updated_at: at })
    .where('transfer_id', '=', transferId)
    .where('status', '=', 'moved')
    .execute();
}
