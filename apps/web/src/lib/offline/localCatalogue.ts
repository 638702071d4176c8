import {
  type CurrentRates,
  type Customer,
  changesPage,
  combo,
  comboDetail,
  currentRates,
  customer,
  type Discount,
  discount,
  type Product,
  product,
  single,
} from '@depot/contracts';
import type { Table } from 'dexie';
import { useSyncExternalStore } from 'react';
import type { z } from 'zod';
import { ApiError, api } from '../http.ts';
import { CatalogueIndex } from './localIndex.ts';
import {
  BUILT,
  buildSnapshot,
  KeptCatalogue,
  type LocalProduct,
  type ProductSnapshot,
  type StockSnapshot,
  VERSION,
} from './localSnapshot.ts';
import { outboxDb } from './outbox.ts';
import type { LocalCombo, LocalCustomer } from './rows.ts';

/**
 * The till's catalogue on the device (issue 13): the active products, kept in IndexedDB (the
 * till's dexie database, outbox.ts, table `products`) and refreshed by what changed since the last
 * sync (`GET /api/products/changes`, a cursor of (updated_at, id)): a product deleted or made
 * inactive leaves it. After a sync that changed rows, the table is rewritten as a snapshot (its
 * search index built, the columns the till shows; localSnapshot.ts), in a worker where there is
 * one; a cold start reads only that snapshot, in one go, and searches it as the cashier types and
 * finds a scanned code in it, with or without a connection. Until a first sync has finished (and
 * its snapshot is read) it is not ready and the till asks the server.
 */
export type { LocalProduct } from './localSnapshot.ts';

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
const waiting = new Map<
  number,
  { resolve: (made: [ProductSnapshot, StockSnapshot]) => void; reject: (e: Error) => void }
>();

/** The snapshot built by the worker (a browser), else here (tests: no Worker). */
function buildOffThread(name: string): Promise<[ProductSnapshot, StockSnapshot]> {
  if (typeof Worker === 'undefined' || import.meta.env.MODE === 'test') return buildSnapshot(name);
  if (!worker) {
    try {
      worker = new Worker(new URL('./catalogue.worker.ts', import.meta.url), { type: 'module' });
    } catch {
      return buildSnapshot(name);
    }
    worker.onmessage = (
      event: MessageEvent<{ id: number; error?: string; products: ProductSnapshot; stock: StockSnapshot }>,
    ) => {
      const { id, error, products, stock } = event.data;
      const one = waiting.get(id);
      waiting.delete(id);
      if (error) one?.reject(new Error(error));
      else one?.resolve([products, stock]);
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
    waiting.set(id, { resolve, reject });
    running.postMessage({ id, db: name });
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
    const [products, stock] = await buildOffThread(outboxDb().name);
    if (at === epoch) show(products, stock, await isSynced());
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

const removed = (row: { deleted_at: string | null; status: string }) =>
  row.deleted_at !== null || row.status !== 'active';

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
    const puts: (Product & { stock_store?: number })[] = [];
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
  // the till searches the catalogue as now kept (deletions gone) once this answers
  if (changed) await rebuild();
  else if (!state.ready && current) publish({ ready: current.size > 0 });
  return changed;
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
export function keptProduct(id: number): LocalProduct | undefined {
  return current?.byId(id);
}

/** Signing out, or tests: the next start reads the catalogue again from the server. */
export async function forgetCatalogue(): Promise<void> {
  epoch++;
  const db = outboxDb();
  await db.transaction('rw', db.products, db.snapshot, db.meta, async () => {
    await db.products.clear();
    await db.snapshot.clear();
    await db.meta.bulkDelete([CURSOR, SYNCED, VERSION, BUILT]);
  });
  current = null;
  seenStock.clear();
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
  const run = () => {
    void syncCatalogue().catch(() => undefined);
    void syncKept().catch(() => undefined);
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

/*
 * The rest of the till's catalogue on the device, the same way: combos (with their items), the
 * discounts, the customers the till picks from (only what it shows), each a table of the same
 * database read by changes since its own cursor (`GET /api/<path>/changes`), with the same overlap
 * and the same rule (an older copy never taken back; deleted and inactive rows leave); a 403 on
 * one forgets that one only. And the current rates, kept whole as the server last told them.
 * Ready once a first sync of it finished (none kept is an answer too: no discounts).
 */

type KeptName = 'combos' | 'discounts' | 'customers';
type KeptRow = { id: number; updated_at: string; deleted_at: string | null; status: string };

interface KeptSet<R extends KeptRow, T extends KeptRow> {
  path: KeptName;
  row: z.ZodType<R>;
  /** The rows to keep, as kept (the combos' items read from their detail); a row answered null is gone. */
  shape(rows: R[]): Promise<(T | null)[]>;
}

const combos: KeptSet<z.output<typeof combo>, LocalCombo> = {
  path: 'combos',
  row: combo,
  shape: (rows) =>
    Promise.all(
      rows.map(async (row) => {
        try {
          const { data } = await api(`combos/${row.id}`, { schema: single(comboDetail) });
          const { total_cost_cents: _c, profit_cents: _p, margin_bp: _m, items, ...rest } = data;
          return { ...rest, items: items.map(({ cost_cents: _cost, ...item }) => item) };
        } catch (error) {
          // deleted since the page was read: its change comes on the next sync
          if (error instanceof ApiError && error.status === 404) return null;
          throw error;
        }
      }),
    ),
};
const discounts: KeptSet<Discount, Discount> = { path: 'discounts', row: discount, shape: async (rows) => rows };
const customers: KeptSet<Customer, LocalCustomer> = {
  path: 'customers',
  row: customer,
  shape: async (rows) =>
    rows.map(
      ({ id, name, phone, status, is_walk_in, customer_group_id, created_at, updated_at, deleted_at, ...rest }) => ({
        id,
        name,
        phone,
        address: rest.address,
        shipping_address: rest.shipping_address,
        status,
        is_walk_in,
        customer_group_id: customer_group_id ?? null,
        created_at,
        updated_at,
        deleted_at,
      }),
    ),
};

export interface KeptState {
  /** Each is null until a first sync of it finished on this device. */
  combos: CatalogueIndex<LocalCombo> | null;
  discounts: Discount[] | null;
  customers: LocalCustomer[] | null;
  rates: CurrentRates | null;
}

let kept: KeptState = { combos: null, discounts: null, customers: null, rates: null };
const keptRows: Record<KeptName, Map<number, KeptRow>> = {
  combos: new Map(),
  discounts: new Map(),
  customers: new Map(),
};
const keptListeners = new Set<() => void>();
let keptLoading: Promise<void> | null = null;

function publishKept(name: KeptName | 'rates', ready: boolean, rates?: CurrentRates | null) {
  let value: unknown = null;
  if (name === 'rates') value = rates ?? null;
  else if (ready) {
    const rows = [...keptRows[name].values()];
    value = name === 'combos' ? new CatalogueIndex(rows as LocalCombo[]) : rows;
  }
  kept = { ...kept, [name]: value };
  for (const listener of keptListeners) listener();
}

/** Reads the kept combos, discounts, customers and rates into memory once. */
export function loadKept(): Promise<void> {
  keptLoading ??= (async () => {
    const db = outboxDb();
    for (const name of ['combos', 'discounts', 'customers'] as const) {
      const [rows, synced] = await Promise.all([db[name].toArray(), db.meta.get(`${name}_synced`)]);
      keptRows[name] = new Map(rows.map((row) => [row.id, row]));
      publishKept(name, Boolean(synced));
    }
    const rates = await db.rates.get('current');
    if (rates) {
      const { name: _name, ...rest } = rates;
      publishKept('rates', true, rest);
    }
  })();
  return keptLoading;
}

/** One page of a kept set's changes: kept, replaced or removed, never an older copy back. */
async function applyKept<R extends KeptRow, T extends KeptRow>(set: KeptSet<R, T>, page: R[], next: string | null) {
  const db = outboxDb();
  const table = db[set.path] as unknown as Table<KeptRow, number>;
  const newer = (row: KeptRow, was: KeptRow | undefined) =>
    !was || was.updated_at < row.updated_at || (was.updated_at === row.updated_at && removed(row));
  const before = await table.bulkGet(page.map((row) => row.id));
  const wanted = page.filter((row, i) => newer(row, before[i]) && !removed(row));
  const shaped = new Map((await set.shape(wanted)).map((row, i) => [wanted[i].id, row]));
  let changed = 0;
  await db.transaction('rw', table, db.meta, async () => {
    const current = await table.bulkGet(page.map((row) => row.id));
    const puts: KeptRow[] = [];
    const deletes: number[] = [];
    page.forEach((row, i) => {
      const was = current[i];
      if (!newer(row, was)) return;
      const value = shaped.get(row.id);
      if (removed(row) || value === null) {
        if (was) deletes.push(row.id);
      } else if (value && (!was || was.updated_at <= value.updated_at)) puts.push(value);
    });
    if (puts.length) await table.bulkPut(puts);
    if (deletes.length) await table.bulkDelete(deletes);
    if (next) await db.meta.put({ name: `${set.path}_cursor`, value: next });
    for (const row of puts) keptRows[set.path].set(row.id, row);
    for (const id of deletes) keptRows[set.path].delete(id);
    changed = puts.length + deletes.length;
  });
  return changed;
}

async function syncSet<R extends KeptRow, T extends KeptRow>(set: KeptSet<R, T>): Promise<number> {
  const db = outboxDb();
  try {
    let after = overlapped(((await db.meta.get(`${set.path}_cursor`))?.value as string | undefined) ?? null);
    let changed = 0;
    for (;;) {
      const query = new URLSearchParams({ per_page: String(PAGE), ...(after && { after }) });
      const page = await api(`${set.path}/changes?${query}`, { schema: changesPage(set.row) });
      changed += await applyKept(set, page.data as R[], page.next);
      after = page.next ?? undefined;
      if (!page.more) break;
    }
    await db.meta.put({ name: `${set.path}_synced`, value: 1 });
    if (changed || !kept[set.path]) publishKept(set.path, true);
    return changed;
  } catch (error) {
    // who may not list these here keeps none of them (another user signed in)
    if (error instanceof ApiError && error.status === 403) await forgetSet(set.path);
    throw error;
  }
}

async function forgetSet(name: KeptName) {
  const db = outboxDb();
  await db.transaction('rw', db[name], db.meta, async () => {
    await db[name].clear();
    await db.meta.bulkDelete([`${name}_cursor`, `${name}_synced`]);
  });
  keptRows[name] = new Map();
  publishKept(name, false);
}

/** The current rates, kept as the server last told them (who may not read them keeps none). */
async function syncRates(): Promise<number> {
  const db = outboxDb();
  try {
    const { data } = await api('exchange-rates/current', { schema: single(currentRates) });
    await keepRates(data);
    return 1;
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) {
      await db.rates.clear();
      publishKept('rates', false, null);
    }
    throw error;
  }
}

/** The rates the till was just told (its own query's answer too): kept for when there is no connection. */
export async function keepRates(rates: CurrentRates): Promise<void> {
  await outboxDb().rates.put({ ...rates, name: 'current' });
  publishKept('rates', true, rates);
}

let keptRunning: Promise<number> | null = null;

/**
 * Syncs the combos, discounts, customers and rates, each on its own (one refused or failing does
 * not stop the others; the first failure is thrown after). Answers how many records changed.
 */
export function syncKept(): Promise<number> {
  keptRunning ??= (async () => {
    try {
      await loadKept();
      if (typeof navigator !== 'undefined' && !navigator.onLine) return 0;
      const runs = await Promise.allSettled([syncSet(combos), syncSet(discounts), syncSet(customers), syncRates()]);
      const failed = runs.find((run) => run.status === 'rejected');
      if (failed) throw failed.reason;
      return runs.reduce((sum, run) => sum + (run.status === 'fulfilled' ? run.value : 0), 0);
    } finally {
      keptRunning = null;
    }
  })();
  return keptRunning;
}

/** Signing out, or tests: every kept set forgotten. */
export async function forgetKept(): Promise<void> {
  for (const name of ['combos', 'discounts', 'customers'] as const) await forgetSet(name);
  await outboxDb().rates.clear();
  publishKept('rates', false, null);
  keptLoading = null;
}

function subscribeKept(listener: () => void) {
  keptListeners.add(listener);
  return () => keptListeners.delete(listener);
}

export function keptState(): KeptState {
  return kept;
}

/** The kept combos, discounts, customers and rates as the till reads them (each null until ready). */
export function useKept(): KeptState {
  return useSyncExternalStore(subscribeKept, keptState);
}
