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

type ListName = 'combos' | 'discounts' | 'customers';
type ListRow = { id: number; updated_at: string; deleted_at: string | null; status: string };

interface LocalList<R extends ListRow, T extends ListRow> {
  path: ListName;
  row: z.ZodType<R>;
  /** The rows to keep, as kept (the combos' items read from their detail); a row answered null is gone. */
  shape(rows: R[]): Promise<(T | null)[]>;
}

const combos: LocalList<z.output<typeof combo>, LocalCombo> = {
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
const discounts: LocalList<Discount, Discount> = { path: 'discounts', row: discount, shape: async (rows) => rows };
const customers: LocalList<Customer, LocalCustomer> = {
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

export interface LocalListsState {
  /** Each is null until a first sync of it finished on this device. */
  combos: CatalogueIndex<LocalCombo> | null;
  discounts: Discount[] | null;
  customers: LocalCustomer[] | null;
  rates: CurrentRates | null;
}

let state: LocalListsState = { combos: null, discounts: null, customers: null, rates: null };
const listRows: Record<ListName, Map<number, ListRow>> = {
  combos: new Map(),
  discounts: new Map(),
  customers: new Map(),
};
const listeners = new Set<() => void>();
let loading: Promise<void> | null = null;

function publish(name: ListName | 'rates', ready: boolean, rates?: CurrentRates | null) {
  let value: unknown = null;
  if (name === 'rates') value = rates ?? null;
  else if (ready) {
    const rows = [...listRows[name].values()];
    value = name === 'combos' ? new CatalogueIndex(rows as LocalCombo[]) : rows;
  }
  state = { ...state, [name]: value };
  for (const listener of listeners) listener();
}

/** Reads the stored combos, discounts, customers and rates into memory once. */
export function loadLocalLists(): Promise<void> {
  loading ??= (async () => {
    const db = outboxDb();
    for (const name of ['combos', 'discounts', 'customers'] as const) {
      const [rows, synced] = await Promise.all([db[name].toArray(), db.meta.get(`${name}_synced`)]);
      listRows[name] = new Map(rows.map((row) => [row.id, row]));
      publish(name, Boolean(synced));
    }
    const rates = await db.rates.get('current');
    if (rates) {
      const { name: _name, ...rest } = rates;
      publish('rates', true, rest);
    }
  })();
  return loading;
}

/** One page of a list's changes: added, replaced or removed, never an older copy back. */
async function applyPage<R extends ListRow, T extends ListRow>(set: LocalList<R, T>, page: R[], next: string | null) {
  const db = outboxDb();
  const table = db[set.path] as unknown as Table<ListRow, number>;
  const newer = (row: ListRow, was: ListRow | undefined) =>
    !was || was.updated_at < row.updated_at || (was.updated_at === row.updated_at && removed(row));
  const before = await table.bulkGet(page.map((row) => row.id));
  const wanted = page.filter((row, i) => newer(row, before[i]) && !removed(row));
  const shaped = new Map((await set.shape(wanted)).map((row, i) => [wanted[i].id, row]));
  let changed = 0;
  await db.transaction('rw', table, db.meta, async () => {
    const current = await table.bulkGet(page.map((row) => row.id));
    const puts: ListRow[] = [];
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
    for (const row of puts) listRows[set.path].set(row.id, row);
    for (const id of deletes) listRows[set.path].delete(id);
    changed = puts.length + deletes.length;
  });
  return changed;
}

async function syncSet<R extends ListRow, T extends ListRow>(set: LocalList<R, T>): Promise<number> {
  const db = outboxDb();
  try {
    const changed = await readChanges(set.path, set.row, `${set.path}_cursor`, (page, next) =>
      applyPage(set, page, next),
    );
    await db.meta.put({ name: `${set.path}_synced`, value: 1 });
    if (changed || !state[set.path]) publish(set.path, true);
    return changed;
  } catch (error) {
    // who may not list these here keeps none of them (another user signed in)
    if (error instanceof ApiError && error.status === 403) await forgetSet(set.path);
    throw error;
  }
}

async function forgetSet(name: ListName) {
  const db = outboxDb();
  await db.transaction('rw', db[name], db.meta, async () => {
    await db[name].clear();
    await db.meta.bulkDelete([`${name}_cursor`, `${name}_synced`]);
  });
  listRows[name] = new Map();
  publish(name, false);
}

/** The current rates, kept as the server last told them (who may not read them keeps none). */
async function syncRates(): Promise<number> {
  const db = outboxDb();
  try {
    const { data } = await api('exchange-rates/current', { schema: single(currentRates) });
    await saveRates(data);
    return 1;
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) {
      await db.rates.clear();
      publish('rates', false, null);
    }
    throw error;
  }
}

/** The rates the till was just told (its own query's answer too): kept for when there is no connection. */
export async function saveRates(rates: CurrentRates): Promise<void> {
  await outboxDb().rates.put({ ...rates, name: 'current' });
  publish('rates', true, rates);
}

let running: Promise<number> | null = null;

/**
 * Syncs the combos, discounts, customers and rates, each on its own (one refused or failing does
 * not stop the others; the first failure is thrown after). Answers how many records changed.
 */
export function syncLocalLists(): Promise<number> {
  running ??= (async () => {
    try {
      await loadLocalLists();
      if (typeof navigator !== 'undefined' && !navigator.onLine) return 0;
      const runs = await Promise.allSettled([syncSet(combos), syncSet(discounts), syncSet(customers), syncRates()]);
      const failed = runs.find((run) => run.status === 'rejected');
      if (failed) throw failed.reason;
      return runs.reduce((sum, run) => sum + (run.status === 'fulfilled' ? run.value : 0), 0);
    } finally {
      running = null;
    }
  })();
  return running;
}

/** Signing out, or tests: every list forgotten. */
export async function forgetLocalLists(): Promise<void> {
  for (const name of ['combos', 'discounts', 'customers'] as const) await forgetSet(name);
  await outboxDb().rates.clear();
  publish('rates', false, null);
  loading = null;
}

function subscribeKept(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function localListsState(): LocalListsState {
  return state;
}

/** The stored combos, discounts, customers and rates as the till reads them (each null until ready). */
export function useLocalLists(): LocalListsState {
  return useSyncExternalStore(subscribeKept, localListsState);
}
