import type { CurrentRates, Discount, OrderDetail } from '@depot/contracts';
import Dexie, { type EntityTable } from 'dexie';
import { ApiError, api, NetworkError, outcomeUnknown } from '../http.ts';
import { session } from '../session.ts';
import type { ProductRow, ProductSnapshot, StockSnapshot } from './localSnapshot.ts';
import type { LocalCombo, LocalCustomer } from './rows.ts';

/**
 * The till's offline sales (issue 13). A sale that cannot reach the server is kept here, in
 * IndexedDB, with the idempotency key it was (or would have been) sent with, a client id and a
 * receipt number unique to this device (`OFF-<device>-<n>`). When the connection returns, one tab
 * at a time (a Web Lock) sends the queue in the order it was kept, each sale with its own key: the
 * server makes a keyed sale exactly once, so a retry, a reload or a second tab sending the same
 * sale gets the first answer again instead of a second order. A sale is removed only once the
 * server answered it; a refusal stays, marked failed with the server's words, until retried.
 *
 * Each sale remembers who made it, and only its own cashier sends it: the server records a sale as
 * made by the session's user, so a sale sent by whoever signed in next would be theirs. Another
 * cashier's sales wait on the device (never dropped) until that cashier signs in here again.
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
  /** Who made it: only they send it. Absent on sales kept before sales remembered it (anyone sends those). */
  user_id?: number | null;
  user_name?: string | null;
  /**
   * False: kept without trying the server (the till was offline), so it is sent marked offline.
   * True (or absent, on older queues): a request went and got no answer; the server may hold it
   * under its key, so it goes again exactly as sent (another body with the key would be refused).
   */
  tried?: boolean;
  /** Its receipt (offlineReceipt.ts), numbered `client_id`: shown and printed until it is synced. */
  receipt?: OrderDetail | null;
  /** A KHQR made on the device for it (offline): recorded with the sale once sent, then checked with Bakong. */
  khqr?: { payload: string; md5: string } | null;
}

interface Meta {
  name: string;
  value: number | string;
}

class TillDb extends Dexie {
  sales!: EntityTable<QueuedSale, 'seq'>;
  meta!: EntityTable<Meta, 'name'>;
  /** The till's local catalogue (localCatalogue.ts): active products, by id and by barcode. */
  products!: EntityTable<ProductRow, 'id'>;
  /** The rest of it (localLists.ts): active combos with their items, discounts, customers, the rates. */
  combos!: EntityTable<LocalCombo, 'id'>;
  discounts!: EntityTable<Discount, 'id'>;
  customers!: EntityTable<LocalCustomer, 'id'>;
  rates!: EntityTable<CurrentRates & { name: string }, 'name'>;
  /** The products as the till reads them at a cold start (localSnapshot.ts): the index built, the columns, the stock. */
  snapshot!: EntityTable<ProductSnapshot | StockSnapshot, 'name'>;
  constructor(name: string) {
    super(name);
    this.version(1).stores({ sales: '++seq, &key, &client_id, status', meta: 'name' });
    this.version(2).stores({ products: 'id, barcode' });
    this.version(3).stores({ combos: 'id', discounts: 'id', customers: 'id', rates: 'name' });
    this.version(4).stores({ snapshot: 'name' });
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
export async function enqueueSale(sale: {
  key: string;
  body: unknown;
  total_cents: number;
  /** The signed-in cashier who made it. */
  user: { id: number | null; name: string | null };
  /** Whether a request with it went to the server (and got no answer). */
  tried: boolean;
  /** Its receipt, drawn with the device's number and the time it was kept. */
  receipt?: (client_id: string, sold_at: string) => OrderDetail | null;
  /** The KHQR made on the device for it. */
  khqr?: { payload: string; md5: string } | null;
}): Promise<QueuedSale> {
  const existing = await db.sales.where('key').equals(sale.key).first();
  if (existing) return existing;
  const client_id = await nextNumber();
  const sold_at = new Date().toISOString();
  const row: QueuedSale = {
    key: sale.key,
    client_id,
    body: sale.body,
    total_cents: sale.total_cents,
    sold_at,
    receipt: sale.receipt?.(client_id, sold_at) ?? null,
    status: 'waiting',
    error: null,
    user_id: sale.user.id,
    user_name: sale.user.name,
    tried: sale.tried,
    khqr: sale.khqr ?? null,
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

/** Whether this user sends the sale: their own (or one kept before sales remembered their cashier). */
export function sendsSale(sale: QueuedSale, userId: number | null): boolean {
  return userId !== null && (sale.user_id == null || sale.user_id === userId);
}

/**
 * What goes to the server: a sale made with no connection is marked made offline (when, and its
 * receipt number on this device), so the server records it even if it now takes more than the
 * stock; one whose request went unanswered goes again exactly as it was sent.
 */
export function requestBody(sale: QueuedSale): object {
  if (sale.tried !== false) return sale.body as object;
  return { ...(sale.body as object), offline: { sold_at: sale.sold_at, device_receipt_no: sale.client_id } };
}

/** Sends one sale as it was kept: its body and its key. */
export type Send = (sale: QueuedSale) => Promise<unknown>;

const post: Send = async (sale) => {
  const sold = await api('orders', { method: 'POST', body: requestBody(sale), idempotencyKey: sale.key });
  if (!sale.khqr) return sold;
  // its device-made KHQR, recorded with the sale and checked with Bakong: no answer, the sale goes
  // again (its key answers the same order) and so does this; refused (not the sale's QR), the sale stands
  const id = (sold as { data?: { id?: number } }).data?.id;
  if (id) {
    try {
      await api(`orders/${id}/khqr/offline`, { method: 'POST', body: sale.khqr });
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500) throw error;
    }
  }
  return sold;
};

export interface SyncResult {
  sent: number;
  failed: number;
  /** The connection dropped (or the server erred) before the queue was through. */
  stopped: boolean;
  /** Another tab holds the lock and is sending. */
  skipped: boolean;
}

async function sendAll(send: Send, retryFailed: boolean, userId: number | null): Promise<SyncResult> {
  const result: SyncResult = { sent: 0, failed: 0, stopped: false, skipped: false };
  for (const sale of await queuedSales()) {
    // another cashier's sale waits for them to sign in here
    if (!sendsSale(sale, userId)) continue;
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
 * Sends the signed-in user's queue (`userId`, the session's by default), in order, from one tab at
 * a time: the others find the lock taken and leave it (the sender's tab shows them the queue
 * shrinking through IndexedDB). Without Web Locks (old browsers, tests that say so) it sends
 * anyway: the keys still make each sale once.
 */
export async function syncOutbox(
  options: { send?: Send; retryFailed?: boolean; userId?: number | null } = {},
): Promise<SyncResult> {
  const send = options.send ?? post;
  const retryFailed = options.retryFailed ?? false;
  const userId = options.userId === undefined ? session.get().userId : options.userId;
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (!locks) return sendAll(send, retryFailed, userId);
  const outcome = await locks.request('depot-till-outbox', { ifAvailable: true }, async (lock) =>
    lock ? sendAll(send, retryFailed, userId) : null,
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
