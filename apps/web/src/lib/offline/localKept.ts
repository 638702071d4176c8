import {
  type CurrentRates,
  type Customer,
  combo,
  comboDetail,
  currentRates,
  customer,
  type Discount,
  discount,
  single,
} from '@depot/contracts';
import type { Table } from 'dexie';
import { useSyncExternalStore } from 'react';
import type { z } from 'zod';
import { ApiError, api } from '../http.ts';
import { readChanges, removed } from './changes.ts';
import { CatalogueIndex } from './localIndex.ts';
import { outboxDb } from './outbox.ts';
import type { LocalCombo, LocalCustomer } from './rows.ts';

/**
 * The rest of the till's catalogue on the device, the same way as the products (localCatalogue.ts):
 * combos (with their items), the discounts, the customers the till picks from (only what it
 * shows), each a table of the till's database read by changes since its own cursor (changes.ts,
 * `GET /api/<path>/changes`); a 403 on one forgets that one only. And the current rates, kept whole
 * as the server last told them. Ready once a first sync of it finished (none kept is an answer
 * too: no discounts).
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
    const changed = await readChanges(set.path, set.row, `${set.path}_cursor`, (page, next) =>
      applyKept(set, page, next),
    );
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
