import type { Product } from '@depot/contracts';
import Dexie, { type EntityTable } from 'dexie';
import { ApiError, api, NetworkError, outcomeUnknown } from '../../lib/http.ts';

/**
 * The till's offline sales (issue 13). A sale that cannot reach the server is kept here, in
 * IndexedDB, with the idempotency key it was (or would have been) sent with, a client id and a
 * receipt number unique to this device (`OFF-<device>-<n>`). When the connection returns, one tab
 * at a time (a Web Lock) sends the queue in the order it was kept, each sale with its own key: the
 * server makes a keyed sale exactly once, so a retry, a reload or a second tab sending the same
 * sale gets the first answer again instead of a second order. A sale is removed only once the
 * server answered it; a refusal stays, marked failed with the server's words, until retried.
 */

export interface QueuedSale {
  /** The order kept: the queue is sent by it. */
  seq?: number;
  /** The Idempotency-Key the sale goes with, every time. */
  key: string;
  /** The device's own id of the sale, also its receipt number while unsynced. */
  client_id: string;
  body: unknown;
  total_cents: number;
  sold_at: string;
  status: 'waiting' | 'failed';
  /** Why the server refused it (its message), when it did. */
  error: string | null;
}

interface Meta {
  name: string;
  value: number | string;
}

class TillDb extends Dexie {
  sales!: EntityTable<QueuedSale, 'seq'>;
  meta!: EntityTable<Meta, 'name'>;
  /** The till's local catalogue (localCatalogue.ts): active products, by id and by barcode. */
  products!: EntityTable<Product & { stock_store?: number }, 'id'>;
  constructor(name: string) {
    super(name);
    this.version(1).stores({ sales: '++seq, &key, &client_id, status', meta: 'name' });
    this.version(2).stores({ products: 'id, barcode' });
  }
}

let db = new TillDb('depot-till');

/** Tests start from an empty database. */
export function resetOutboxDb(name = 'depot-till'): TillDb {
  db.close();
  db = new TillDb(name);
  return db;
}

export function outboxDb(): TillDb {
  return db;
}

function randomId(): string {
  return Math.random().toString(36).slice(2, 6).toUpperCase().padEnd(4, '0');
}

/** This browser's id, made once: the prefix of its offline receipt numbers. */
async function deviceId(): Promise<string> {
  return db.transaction('rw', db.meta, async () => {
    const found = await db.meta.get('device');
    if (found) return String(found.value);
    const id = randomId();
    await db.meta.put({ name: 'device', value: id });
    return id;
  });
}

/** The next receipt number of this device: its counter is kept in the same database, one transaction a number. */
async function nextNumber(): Promise<string> {
  const device = await deviceId();
  const n = await db.transaction('rw', db.meta, async () => {
    const last = Number((await db.meta.get('counter'))?.value ?? 0) + 1;
    await db.meta.put({ name: 'counter', value: last });
    return last;
  });
  return `OFF-${device}-${String(n).padStart(4, '0')}`;
}

/**
 * Keeps a sale to send later. The same key kept twice (the cashier pressed twice, a retry) is one
 * sale: the first one kept is returned.
 */
export async function enqueueSale(sale: { key: string; body: unknown; total_cents: number }): Promise<QueuedSale> {
  const existing = await db.sales.where('key').equals(sale.key).first();
  if (existing) return existing;
  const row: QueuedSale = {
    key: sale.key,
    client_id: await nextNumber(),
    body: sale.body,
    total_cents: sale.total_cents,
    sold_at: new Date().toISOString(),
    status: 'waiting',
    error: null,
  };
  try {
    row.seq = await db.sales.add(row);
    return row;
  } catch (error) {
    // another tab kept the same key at the same moment: theirs stands
    const kept = await db.sales.where('key').equals(sale.key).first();
    if (kept) return kept;
    throw error;
  }
}

export async function queuedSales(): Promise<QueuedSale[]> {
  return db.sales.orderBy('seq').toArray();
}

/** Sends one sale as it was kept: its body and its key. */
export type Send = (sale: QueuedSale) => Promise<unknown>;

const post: Send = (sale) => api('orders', { method: 'POST', body: sale.body, idempotencyKey: sale.key });

export interface SyncResult {
  sent: number;
  failed: number;
  /** The connection dropped (or the server erred) before the queue was through. */
  stopped: boolean;
  /** Another tab holds the lock and is sending. */
  skipped: boolean;
}

async function sendAll(send: Send, retryFailed: boolean): Promise<SyncResult> {
  const result: SyncResult = { sent: 0, failed: 0, stopped: false, skipped: false };
  for (const sale of await queuedSales()) {
    if (sale.status === 'failed' && !retryFailed) continue;
    try {
      await send(sale);
      await db.sales.delete(sale.seq as number);
      result.sent++;
    } catch (error) {
      if (outcomeUnknown(error) || !(error instanceof ApiError)) {
        // no answer, or the server erred: the outcome is unknown, the same key goes again later
        result.stopped = true;
        return result;
      }
      const message = error.body?.errors ? Object.values(error.body.errors).flat().join(' ') : error.message;
      await db.sales.update(sale.seq as number, { status: 'failed', error: message });
      result.failed++;
    }
  }
  return result;
}

/**
 * Sends the queue, in order, from one tab at a time: the others find the lock taken and leave it
 * (the sender's tab shows them the queue shrinking through IndexedDB). Without Web Locks (old
 * browsers, tests that say so) it sends anyway: the keys still make each sale once.
 */
export async function syncOutbox(options: { send?: Send; retryFailed?: boolean } = {}): Promise<SyncResult> {
  const send = options.send ?? post;
  const retryFailed = options.retryFailed ?? false;
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (!locks) return sendAll(send, retryFailed);
  const outcome = await locks.request('depot-till-outbox', { ifAvailable: true }, async (lock) =>
    lock ? sendAll(send, retryFailed) : null,
  );
  return outcome ?? { sent: 0, failed: 0, stopped: false, skipped: true };
}

/** Whether a failed checkout is kept for later: no answer at all (offline, a dropped connection). */
export function keepForLater(error: unknown): boolean {
  return error instanceof NetworkError;
}

/** The browser says it has no connection: the till does not even try the server. */
export function isOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}
