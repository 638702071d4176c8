import { randomUUID } from 'node:crypto';
import { todayInCambodia } from '@depot/contracts';
import type { Db } from '../../db/database.ts';
import { writeLast } from '../../db/later.ts';
import { tallyOrder } from '../../db/rollups.ts';
import type { StepContext } from '../../kit/document.ts';
import { termRows, termsOf } from '../../kit/search.ts';
import type { OrderValues, Priced, SaleLine } from './orders.cart.ts';
import { deleteLines, insertLines, insertOrder, numberWrites, updateOrder } from './orders.repository.ts';

/* A sale's writes (the steps of orders.cart.ts priced them): its order row, its lines, its numbers. */

/**
 * Writes the order row: a held order's new values, or a new one under a provisional number that
 * `numberSale` replaces in the sale's last statement (see there).
 */
export async function writeOrder(trx: Db, orderId: number | null, values: OrderValues): Promise<number> {
  if (orderId !== null) {
    await updateOrder(trx, orderId, values);
    return orderId;
  }
  return insertOrder(trx, {
    ...values,
    number: `ORD~${randomUUID().replaceAll('-', '').slice(0, 24)}`,
    created_at: values.updated_at,
  });
}

/**
 * A sale's numbers, taken last: its invoice's (INV-<store>-<year>-<6 digits>, when `openInvoice`
 * made one) and a new order's (ORD-<year>-<6 digits>). Their counters' rows are one for every till
 * of the store (the invoice's) or of the depot (the order's), and on PostgreSQL locked until the
 * commit: taken first they made every sale wait for the whole of the one before (12 sales/s at 32
 * tills). So the counters, the numbers and their search terms are all among the transaction's last
 * writes (db/later.ts: on PostgreSQL one statement, the counters' upsert a WITH the others read),
 * and a counter is held for that statement and the commit only. A new order's terms are written
 * here (its number's, its note's and address's): the kit does not read it back (`ctx.indexed`).
 */
export async function numberSale(
  ctx: StepContext,
  sale: {
    order?: { id: number; note: string | null; shipping_address: string | null };
    invoice?: { id: number; code: string } | null;
  },
): Promise<void> {
  const { trx } = ctx;
  const year = todayInCambodia().slice(0, 4);
  const numbered = [
    ...(sale.invoice
      ? [{ table: 'invoices' as const, id: sale.invoice.id, prefix: `INV-${sale.invoice.code}`, texts: [] }]
      : []),
    ...(sale.order
      ? [
          {
            table: 'orders' as const,
            id: sale.order.id,
            prefix: 'ORD',
            texts: [sale.order.note, sale.order.shipping_address],
          },
        ]
      : []),
  ];
  if (!numbered.length) return;
  const writes = numberWrites(
    trx,
    year,
    numbered.map((n) => ({
      ...n,
      // the number's terms end with its digits (contracts termsOf: the whole, and what follows each
      // separator): their heads are known
      heads: termsOf([`${n.prefix}-${year}-000000`]).map((term) => term.slice(0, -6)),
      // the note's and address's terms, all of them (a phone number's digits too): one the number
      // also has (the note repeating it) is written once, whichever insert comes first
      terms: termRows(n.table, [{ id: n.id, sortKey: null, texts: n.texts }]),
    })),
  );
  if (sale.order) ctx.indexed = true;
  await writeLast(trx, ...writes);
}

/**
 * Writes the priced lines of an order (replacing a held order's) in one statement; answers their
 * ids in order. A sale's (the order's values as written: confirmed) count in the reports' rollups.
 */
export async function writeLines(
  trx: Db,
  orderId: number,
  lines: SaleLine[],
  priced: Priced,
  replace: boolean,
  order: OrderValues,
) {
  if (replace) await deleteLines(trx, orderId);
  const ids = await insertLines(
    trx,
    lines.map((line, i) => {
      const p = priced.lines[i];
      return {
        order_id: orderId,
        kind: line.kind,
        product_id: line.product_id,
        combo_id: line.combo_id,
        name_en: line.name_en,
        name_kh: line.name_kh,
        sku: line.sku,
        unit_id: line.unit_id,
        factor: line.factor,
        quantity: line.quantity,
        unit_price_cents: line.unit_price_cents,
        discount_id: line.discount?.id ?? null,
        discount_name: line.discount?.name ?? null,
        line_discount_cents: p.line_discount_cents,
        order_discount_cents: p.order_discount_cents,
        net_cents: p.net_cents,
        tax_cents: p.tax_cents,
        total_cents: p.total_cents,
        taxable: line.taxable ? 1 : 0,
        returned_quantity: 0,
        price_source: line.price_source,
        list_price_cents: line.list_price_cents,
        price_list_en: line.price_list_en,
        price_list_kh: line.price_list_kh,
        serials: line.serials.length ? JSON.stringify(line.serials) : null,
      };
    }),
  );
  // a sale (not a held cart) counts in the reports' daily rollups (db/rollups.ts) from now on: the
  // order and lines as just written, not read back
  if (order.status === 'confirmed') {
    await tallyOrder(trx, orderId, 1, {
      order,
      lines: lines.map((line, i) => ({
        kind: line.kind,
        product_id: line.product_id,
        combo_id: line.combo_id,
        quantity: line.quantity,
        returned_quantity: 0,
        unit_price_cents: line.unit_price_cents,
        line_discount_cents: priced.lines[i].line_discount_cents,
        order_discount_cents: priced.lines[i].order_discount_cents,
        net_cents: priced.lines[i].net_cents,
        tax_cents: priced.lines[i].tax_cents,
      })),
    });
  }
  // one statement numbers its rows in the order given, on both databases (insertLines answers them so)
  return ids;
}
