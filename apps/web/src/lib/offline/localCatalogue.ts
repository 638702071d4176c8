import { type Product, product } from '@depot/contracts';
import { useSyncExternalStore } from 'react';
import { ApiError, apiBytes } from '../http.ts';
import { readChanges, removed } from './changes.ts';
import { CatalogueIndex } from './localIndex.ts';
import { syncLocalLists } from './localLists.ts';
import { seedCatalogue } from './localSeed.ts';
import {
  BUILT,
  buildSnapshot,
  CURSOR,
  KeptCatalogue,
  type LocalProduct,
  type ProductRow,
  type ProductSnapshot,
  type StockSnapshot,
  VERSION,
} from './localSnapshot.ts';
import { outboxDb } from './outbox.ts';

/**
 * The till's catalogue on the device: the active products, kept in IndexedDB (the till's dexie
 * database, outbox.ts, table `products`) and refreshed by what changed since the last sync
 * (changes.ts, `GET /api/products/changes`): a product deleted or made inactive leaves it. A new
 * till starts from the server's snapshot instead (`GET /api/products/snapshot`, written in bulk in
 * a worker, localSeed.ts), then reads the changes after it. After a sync that changed rows, the
 * table is rewritten as a snapshot (its
 * search index built, the columns the till shows; localSnapshot.ts), in a worker where there is
 * one; a cold start reads only that snapshot, in one go, and searches it as the cashier types and
 * finds a scanned code in it, with or without a connection. Until a first sync has finished (and
 * its snapshot is read) it is not ready and the till asks the server. The combos, discounts,
 * customers and rates are kept the same way in localLists.ts.
 */
export type { LocalProduct } from './localSnapshot.ts';

const SYNCED = 'catalogue_synced';

interface State {
  index: CatalogueIndex<LocalProduct> | null;
  /** A first sync finished on this device: the index holds the catalogue. */
  ready: boolean;
}

let state: State = { index: null, ready: false };
/** The snapshot read or built last, with the stock as last known. */
let current: KeptCatalogue | null = null;
/** Stock the server told in this tab: put on every snapshot read after (one built meanwhile may lack it). */
const seenStock = new Map<number, { stock: number; store: number }>();
/** Moves when the catalogue is forgotten: a snapshot built before is not shown after. */
let epoch = 0;
const listeners = new Set<() => void>();
let loading: Promise<void> | null = null;

function publish(next: Partial<State>) {
  state = { ...state, ...next };
  for (const listener of listeners) listener();
}

async function isSynced(): Promise<boolean> {
  return Boolean((await outboxDb().meta.get(SYNCED))?.value);
}

/** Shows a snapshot: the index the till searches from now on. */
function show(products: ProductSnapshot, stock: StockSnapshot | null | undefined, synced: boolean) {
  const kept = new KeptCatalogue(products, stock);
  for (const [id, seen] of seenStock) kept.setStock(id, seen.stock, seen.store);
  current = kept;
  publish({ index: kept.index, ready: synced && kept.size > 0 });
}

let worker: Worker | null = null;
let asked = 0;
type Made = [ProductSnapshot, StockSnapshot] | null;
type Shown = (made: [ProductSnapshot, StockSnapshot]) => void;
const waiting = new Map<number, { resolve: (made: Made) => void; reject: (e: Error) => void; shown?: Shown }>();

/**
 * The catalogue worker's work (catalogue.worker.ts): the snapshot rebuilt from the products table,
 * or with `bytes`, the server's snapshot written (localSeed.ts; `shown` gets it before the write).
 * Here where there is no worker (tests).
 */
function offThread(name: string, bytes?: ArrayBuffer, shown?: Shown): Promise<Made> {
  const here = () => (bytes ? seedCatalogue(name, bytes, shown) : buildSnapshot(name));
  if (typeof Worker === 'undefined' || import.meta.env.MODE === 'test') return here();
  if (!worker) {
    try {
      worker = new Worker(new URL('./catalogue.worker.ts', import.meta.url), { type: 'module' });
    } catch {
      return here();
    }
    worker.onmessage = (event: MessageEvent<{ id: number; error?: string; made: Made; shown?: Made }>) => {
      const { id, error, made, shown } = event.data;
      const one = waiting.get(id);
      if (shown) {
        one?.shown?.(shown);
        return;
      }
      waiting.delete(id);
      if (error) one?.reject(new Error(error));
      else one?.resolve(made);
    };
    worker.onerror = () => {
      for (const one of waiting.values()) one.reject(new Error('catalogue worker failed'));
      waiting.clear();
      worker = null;
    };
  }
  const id = ++asked;
  const running = worker;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject, shown });
    running.postMessage({ id, db: name, bytes }, bytes ? [bytes] : []);
  });
}

let queued: Promise<void> | null = null;
let building: Promise<void> = Promise.resolve();

/**
 * Rewrites the snapshot from the products table and shows it. One at a time; asked while one
 * runs, one more runs after it (it reads every change applied before it starts).
 */
function rebuild(): Promise<void> {
  queued ??= building.then(async () => {
    queued = null;
    const at = epoch;
    const made = await offThread(outboxDb().name);
    if (made && at === epoch) show(made[0], made[1], await isSynced());
  });
  building = queued.catch(() => undefined);
  return queued;
}

/** Reads the kept catalogue into memory once (the till's cold start): its snapshot, rebuilt if rows changed since. */
export function loadCatalogue(): Promise<void> {
  loading ??= (async () => {
    const db = outboxDb();
    const [products, stock, synced, version, any] = await db.transaction('r', db.snapshot, db.meta, db.products, () =>
      Promise.all([
        db.snapshot.get('products') as Promise<ProductSnapshot | undefined>,
        db.snapshot.get('stock') as Promise<StockSnapshot | undefined>,
        db.meta.get(SYNCED),
        db.meta.get(VERSION),
        db.products.limit(1).primaryKeys(),
      ]),
    );
    if (products) show(products, stock, Boolean(synced));
    else publish({ index: new CatalogueIndex<LocalProduct>([]), ready: false });
    // rows changed after the snapshot was written (the till closed meanwhile), or none yet (an older till)
    const stale = products ? products.version !== Number(version?.value ?? 0) : any.length > 0;
    if (stale) await rebuild();
  })();
  return loading;
}

/** What the products table keeps of a product (the server's snapshot has the same, localSeed.ts). */
const rowOf = (row: Product): ProductRow => ({
  id: row.id,
  name_en: row.name_en,
  name_kh: row.name_kh,
  sku: row.sku,
  barcode: row.barcode,
  category_id: row.category_id,
  thumbnail_url: row.thumbnail_url,
  unit_id: row.unit_id,
  unit_name_en: row.unit_name_en,
  unit_name_kh: row.unit_name_kh,
  unit_decimals: row.unit_decimals,
  price_usd_cents: row.price_usd_cents,
  taxable: row.taxable,
  serial_tracked: row.serial_tracked,
  updated_at: row.updated_at,
});

/** Applies one page of changes: kept, replaced or removed; a row older than the kept one is not taken back. */
async function apply(page: Product[], next: string | null): Promise<boolean> {
  const db = outboxDb();
  let changed = false;
  await db.transaction('rw', db.products, db.meta, async () => {
    const current = await db.products.bulkGet(page.map((row) => row.id));
    const puts: ProductRow[] = [];
    const deletes: number[] = [];
    page.forEach((row, i) => {
      const kept = current[i];
      if (kept && kept.updated_at > row.updated_at) return;
      if (kept && kept.updated_at === row.updated_at && !removed(row)) return;
      if (removed(row)) {
        if (kept) deletes.push(row.id);
        return;
      }
      // what the till sells with (no cost); the last stock it saw stays until it sees another
      puts.push({ ...rowOf(row), stock: kept?.stock, stock_store: kept?.stock_store });
    });
    if (puts.length) await db.products.bulkPut(puts);
    if (deletes.length) await db.products.bulkDelete(deletes);
    if (next) await db.meta.put({ name: CURSOR, value: next });
    changed = puts.length + deletes.length > 0;
    // the snapshot no longer says these rows: the next start rebuilds it if this tab does not
    if (changed) await db.meta.put({ name: VERSION, value: Number((await db.meta.get(VERSION))?.value ?? 0) + 1 });
  });
  return changed;
}

let running: Promise<number> | null = null;

/**
 * Reads what changed since the last sync, page by page, and keeps it. One sync at a time in a tab;
 * between tabs each applies what it reads (a row older than the kept one is never put back).
 * Answers how many records changed; a failure leaves the cursor where the last page put it.
 */
export function syncCatalogue(): Promise<number> {
  running ??= (async () => {
    try {
      return await readProducts();
    } catch (error) {
      // who may not list products here keeps no catalogue of them (another user signed in)
      if (error instanceof ApiError && error.status === 403) await forgetCatalogue();
      throw error;
    } finally {
      running = null;
    }
  })();
  return running;
}

/**
 * A device with no cursor yet (a new till, or one signed out since): the server's snapshot, shown
 * (searched) as soon as its index is built, and written in bulk, off the main thread; answers how
 * many products it held. The changes after it are read once it is written, as on every sync. A
 * server without the route (404) leaves it to the changes.
 */
async function firstSync(): Promise<number> {
  const at = epoch;
  let bytes: ArrayBuffer;
  try {
    bytes = await apiBytes('products/snapshot');
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return 0;
    throw error;
  }
  let count = 0;
  await offThread(outboxDb().name, bytes, (made) => {
    if (at !== epoch) return;
    count = made[0].ids.length;
    // the catalogue as the server built it: the changes since follow within the second
    show(made[0], made[1], true);
  });
  // signed out meanwhile: what it wrote goes too
  if (at !== epoch) {
    await clearCatalogue();
    return 0;
  }
  return count;
}

async function readProducts(): Promise<number> {
  await loadCatalogue();
  if (typeof navigator !== 'undefined' && !navigator.onLine) return 0;
  const db = outboxDb();
  const seeded = (await db.meta.get(CURSOR)) ? 0 : await firstSync();
  const changed = await readChanges('products', product, CURSOR, async (page, next) =>
    (await apply(page, next)) ? page.length : 0,
  );
  await db.meta.put({ name: SYNCED, value: 1 });
  // the till searches the catalogue as now kept (deletions gone) once this answers
  if (changed) await rebuild();
  else if (!state.ready && current) publish({ ready: current.size > 0 });
  return seeded + changed;
}

/**
 * The stock the server told for products in a store (the till's list, online): kept as the last
 * known, shown offline.
 */
export async function rememberStock(store: number, seen: readonly Pick<Product, 'id' | 'stock'>[]): Promise<void> {
  const kept = current;
  if (!kept) return;
  const known = seen.filter((row) => row.stock !== undefined && kept.byId(row.id));
  if (!known.length) return;
  for (const row of known) {
    kept.setStock(row.id, row.stock as number, store);
    seenStock.set(row.id, { stock: row.stock as number, store });
  }
  const db = outboxDb();
  await db.transaction('rw', db.products, db.snapshot, db.meta, async () => {
    await db.products.bulkUpdate(
      known.map((row) => ({ key: row.id, changes: { stock: row.stock, stock_store: store } })),
    );
    // the snapshot's stock, for the next start; only the snapshot's own (another tab may have rewritten it)
    if ((await db.meta.get(BUILT))?.value === kept.snapshot.built) await db.snapshot.put(kept.stock);
  });
}

/** A product kept on the device, by id (a combo's parts with no connection). */
export function storedProduct(id: number): LocalProduct | undefined {
  return current?.byId(id);
}

/** Signing out, or tests: the next start reads the catalogue again from the server. */
export async function forgetCatalogue(): Promise<void> {
  epoch++;
  await clearCatalogue();
  current = null;
  seenStock.clear();
  loading = null;
  publish({ index: null, ready: false });
}

async function clearCatalogue(): Promise<void> {
  const db = outboxDb();
  await db.transaction('rw', db.products, db.snapshot, db.meta, async () => {
    await db.products.clear();
    await db.snapshot.clear();
    await db.meta.bulkDelete([CURSOR, SYNCED, VERSION, BUILT]);
  });
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function catalogueState(): State {
  return state;
}

/** The local catalogue as the till reads it: its index once ready, else null (ask the server). */
export function useLocalCatalogue(): CatalogueIndex<LocalProduct> | null {
  const current = useSyncExternalStore(subscribe, catalogueState);
  return current.ready ? current.index : null;
}

const SYNC_EVERY_MS = 60_000;

/**
 * Keeps the catalogue in step while the till is open: at once, when the connection returns, every
 * minute, and when a product changes (`onChange`, the realtime event where the till has one).
 */
export function startCatalogueSync(): () => void {
  const run = () => {
    void syncCatalogue().catch(() => undefined);
    void syncLocalLists().catch(() => undefined);
  };
  run();
  const timer = setInterval(run, SYNC_EVERY_MS);
  window.addEventListener('online', run);
  void navigator.storage?.persist?.().catch(() => undefined);
  return () => {
    clearInterval(timer);
    window.removeEventListener('online', run);
  };
}
