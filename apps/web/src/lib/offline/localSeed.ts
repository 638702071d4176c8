import type { ProductSnapshotAnswer } from '@depot/contracts';
import {
  BUILT,
  CURSOR,
  type ProductRow,
  type ProductSnapshot,
  request,
  type StockSnapshot,
  snapshotOf,
  VERSION,
} from './localSnapshot.ts';

/**
 * A new till's first sync (issue 34): the server's snapshot of the catalogue (`GET
 * /api/products/snapshot`, one compressed answer) written to the products table in bulk, the
 * till's own snapshot (localSnapshot.ts) built from the same rows, and the cursor the changes
 * after it start from, in one transaction. In a worker (catalogue.worker.ts): the page keeps
 * drawing the till meanwhile. 100,000 products had been a hundred pages of changes, each parsed,
 * checked and written on the main thread, then read back to build the snapshot.
 */

/** The columns that hold one value a product. */
const COLUMNS = [
  'id',
  'name_en',
  'name_kh',
  'sku',
  'barcode',
  'category_id',
  'thumbnail_url',
  'unit',
  'price_usd_cents',
  'taxable',
  'serial_tracked',
  'updated_at',
] as const satisfies readonly (keyof ProductSnapshotAnswer)[];
/** Every column of the answer is checked: a column added to contracts `productSnapshot` fails here. */
const _everyColumn: Exclude<keyof ProductSnapshotAnswer, 'cursor' | 'units' | (typeof COLUMNS)[number]> extends never
  ? true
  : never = true;

/**
 * The rows of a snapshot's answer. Checked by hand rather than with its zod schema (contracts
 * `productSnapshot`): a million values through zod, and zod in the worker, for what a few checks
 * of the lists' shape tell as well; the values came from the server's own query.
 */
export function rowsOfAnswer(answer: ProductSnapshotAnswer): ProductRow[] {
  const ok =
    answer !== null &&
    typeof answer === 'object' &&
    (answer.cursor === null || typeof answer.cursor === 'string') &&
    Array.isArray(answer.units) &&
    COLUMNS.every((c) => Array.isArray(answer[c]) && answer[c].length === answer.id.length);
  if (!ok) throw new Error('The catalogue snapshot is not in the expected shape');
  const rows: ProductRow[] = new Array(answer.id.length);
  for (let i = 0; i < rows.length; i++) {
    const unit = answer.units[answer.unit[i]];
    if (!unit) throw new Error('The catalogue snapshot is not in the expected shape');
    rows[i] = {
      id: answer.id[i],
      name_en: answer.name_en[i],
      name_kh: answer.name_kh[i],
      sku: answer.sku[i],
      barcode: answer.barcode[i],
      category_id: answer.category_id[i],
      thumbnail_url: answer.thumbnail_url[i],
      unit_id: unit.id,
      unit_name_en: unit.name_en,
      unit_name_kh: unit.name_kh,
      unit_decimals: unit.decimals ?? 0,
      price_usd_cents: answer.price_usd_cents[i],
      taxable: answer.taxable[i],
      serial_tracked: answer.serial_tracked[i],
      updated_at: answer.updated_at[i],
    };
  }
  return rows;
}

/**
 * Writes the snapshot answered (its JSON's bytes) as the device's catalogue and answers the till's
 * snapshot of it; null when the device already has a cursor (another tab synced first: nothing is
 * written, its rows stay). `shown` gets the till's snapshot as soon as it is built, before the
 * write: writing 100,000 rows takes longer than building their index, and the till searches the
 * index (the rows are for the next sync and the next start).
 */
export async function seedCatalogue(
  name: string,
  bytes: ArrayBuffer,
  shown?: (made: [ProductSnapshot, StockSnapshot]) => void,
): Promise<[ProductSnapshot, StockSnapshot] | null> {
  const answer = JSON.parse(new TextDecoder().decode(bytes)) as ProductSnapshotAnswer;
  const rows = rowsOfAnswer(answer);
  // its version is set below, from the device's counter
  const built = snapshotOf(rows, 0);
  shown?.(built);
  const db = await request(indexedDB.open(name));
  db.onversionchange = () => db.close();
  try {
    return await new Promise((resolve, reject) => {
      const tx = db.transaction(['products', 'meta', 'snapshot'], 'readwrite');
      const meta = tx.objectStore('meta');
      const cursor = meta.get(CURSOR);
      const version = meta.get(VERSION);
      let made: [ProductSnapshot, StockSnapshot] | null = null;
      // requests answer in order: both are there
      version.onsuccess = () => {
        if (cursor.result) return;
        const products = tx.objectStore('products');
        products.clear();
        for (const row of rows) products.put(row);
        const next = Number(version.result?.value ?? 0) + 1;
        made = built;
        made[0].version = next;
        const snapshots = tx.objectStore('snapshot');
        snapshots.put(made[0]);
        snapshots.put(made[1]);
        meta.put({ name: VERSION, value: next });
        meta.put({ name: BUILT, value: made[0].built });
        if (answer.cursor) meta.put({ name: CURSOR, value: answer.cursor });
      };
      tx.oncomplete = () => resolve(made);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error ?? new Error('aborted'));
    });
  } finally {
    db.close();
  }
}

/** The buffers of a snapshot's typed arrays: sent to the page, not copied. */
export function buffersOf(value: unknown, found = new Set<ArrayBuffer>()): ArrayBuffer[] {
  if (ArrayBuffer.isView(value)) {
    if (value.buffer instanceof ArrayBuffer) found.add(value.buffer);
  } else if (value && typeof value === 'object') {
    for (const item of Object.values(value)) buffersOf(item, found);
  }
  return [...found];
}
