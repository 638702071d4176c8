import { changesPage, type Product, product } from '@depot/contracts';
import { useSyncExternalStore } from 'react';
import { ApiError, api } from '../../lib/http.ts';
import { CatalogueIndex } from './localIndex.ts';
import { outboxDb } from './outbox.ts';

/**
 * The till's catalogue on the device (issue 13): the active products, kept in IndexedDB (the
 * till's dexie database, outbox.ts, table `products`) and refreshed by what changed since the last
 * sync (`GET /api/products/changes`, a cursor of (updated_at, id)): a product deleted or made
 * inactive leaves it. At start the rows are read once into an in-memory index (localIndex.ts):
 * the till searches it as the cashier types and finds a scanned code in it, with or without a
 * connection. Until a first sync has finished it is not ready and the till asks the server.
 */
export type LocalProduct = Product & { stock_store?: number };

const PAGE = 1000;
/**
 * Each sync starts this far before the last cursor: a write whose transaction committed after a
 * later one was read (its updated_at is older than the cursor) is still read. Rows read again are
 * the same rows, put again.
 */
const OVERLAP_MS = 30_000;
const CURSOR = 'catalogue_cursor';
const SYNCED = 'catalogue_synced';

interface State {
  index: CatalogueIndex<LocalProduct> | null;
  /** A first sync finished on this device: the index holds the catalogue. */
  ready: boolean;
}

let state: State = { index: null, ready: false };
let rows = new Map<number, LocalProduct>();
const listeners = new Set<() => void>();
let loading: Promise<void> | null = null;

function publish(next: Partial<State>) {
  state = { ...state, ...next };
  for (const listener of listeners) listener();
}

function rebuild() {
  publish({ index: new CatalogueIndex(rows.values()) });
}

/** Reads the kept catalogue into memory once (the till's cold start). */
export function loadCatalogue(): Promise<void> {
  loading ??= (async () => {
    const db = outboxDb();
    const [kept, synced] = await Promise.all([db.products.toArray(), db.meta.get(SYNCED)]);
    rows = new Map(kept.map((row) => [row.id, row]));
    publish({ index: new CatalogueIndex(kept), ready: Boolean(synced) && kept.length > 0 });
  })();
  return loading;
}

const removed = (row: Product) => row.deleted_at !== null || row.status !== 'active';

function overlapped(cursor: string | null): string | undefined {
  if (!cursor) return undefined;
  const at = Date.parse(cursor.slice(0, cursor.lastIndexOf('~')));
  return `${new Date(at - OVERLAP_MS).toISOString()}~0`;
}

/** Applies one page of changes: kept, replaced or removed; a row older than the kept one is not taken back. */
async function apply(page: Product[], next: string | null): Promise<boolean> {
  const db = outboxDb();
  let changed = false;
  await db.transaction('rw', db.products, db.meta, async () => {
    const current = await db.products.bulkGet(page.map((row) => row.id));
    const puts: LocalProduct[] = [];
    const deletes: number[] = [];
    page.forEach((row, i) => {
      const kept = current[i];
      if (kept && kept.updated_at > row.updated_at) return;
      if (kept && kept.updated_at === row.updated_at && !removed(row)) return;
      if (removed(row)) {
        if (kept) deletes.push(row.id);
        return;
      }
      // the till needs no cost; the last stock it saw stays until it sees another
      const { cost_usd_cents: _cost, ...rest } = row;
      puts.push({ ...rest, stock: kept?.stock, stock_store: kept?.stock_store });
    });
    if (puts.length) await db.products.bulkPut(puts);
    if (deletes.length) await db.products.bulkDelete(deletes);
    if (next) await db.meta.put({ name: CURSOR, value: next });
    for (const row of puts) rows.set(row.id, row);
    for (const id of deletes) rows.delete(id);
    changed = puts.length + deletes.length > 0;
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
      return await readChanges();
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

async function readChanges(): Promise<number> {
  await loadCatalogue();
  if (typeof navigator !== 'undefined' && !navigator.onLine) return 0;
  const db = outboxDb();
  let after = overlapped(((await db.meta.get(CURSOR))?.value as string | undefined) ?? null);
  let changed = 0;
  for (;;) {
    const query = new URLSearchParams({ per_page: String(PAGE), ...(after && { after }) });
    const page = await api(`products/changes?${query}`, { schema: changesPage(product) });
    if (await apply(page.data, page.next)) changed += page.data.length;
    after = page.next ?? undefined;
    if (!page.more) break;
  }
  await db.meta.put({ name: SYNCED, value: 1 });
  if (changed || !state.ready) {
    rebuild();
    publish({ ready: rows.size > 0 });
  }
  return changed;
}

/**
 * The stock the server told for products in a store (the till's list, online): kept as the last
 * known, shown offline.
 */
export async function rememberStock(store: number, seen: readonly Product[]): Promise<void> {
  const known = seen.filter((row) => row.stock !== undefined && rows.has(row.id));
  if (!known.length) return;
  for (const row of known) {
    const kept = rows.get(row.id) as LocalProduct;
    kept.stock = row.stock;
    kept.stock_store = store;
  }
  await outboxDb().products.bulkUpdate(
    known.map((row) => ({ key: row.id, changes: { stock: row.stock, stock_store: store } })),
  );
}

/** Signing out, or tests: the next start reads the catalogue again from the server. */
export async function forgetCatalogue(): Promise<void> {
  const db = outboxDb();
  await db.transaction('rw', db.products, db.meta, async () => {
    await db.products.clear();
    await db.meta.bulkDelete([CURSOR, SYNCED]);
  });
  rows = new Map();
  loading = null;
  publish({ index: null, ready: false });
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
  const run = () => void syncCatalogue().catch(() => undefined);
  run();
  const timer = setInterval(run, SYNC_EVERY_MS);
  window.addEventListener('online', run);
  void navigator.storage?.persist?.().catch(() => undefined);
  return () => {
    clearInterval(timer);
    window.removeEventListener('online', run);
  };
}
