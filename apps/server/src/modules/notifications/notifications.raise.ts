import { DEFAULT_EXPIRING_DAYS, todayInCambodia } from '@depot/contracts';
import { sql } from 'kysely';
import { type Db, now } from '../../db/database.ts';
import { transaction } from '../../db/transaction.ts';
import { eventBus } from '../../events/bus.ts';
import type { DomainEvent, EventPayloads } from '../../events/events.ts';
import { usersCovering } from '../../policies/coverage.ts';
import { lowStock as isLow } from '../stock/low.ts';
import type { NotificationService, StoredNotification } from './notifications.service.ts';

/**
 * Who is told of what (the permission a recipient holds; their coverage must include the store):
 * stock matters to those who keep it, a parcel to those who work the orders, a receipt to those
 * who follow purchases.
 */
export const NOTIFIED = {
  low_stock: 'stocks.update',
  batch_expiring: 'stocks.update',
  transfer_arriving: 'stocks.update',
  delivery_to_prepare: 'orders.update',
  purchase_received: 'purchases.view',
  // those who approve at the till: the stock is below zero until counted or received
  offline_oversold: 'orders.approve',
} as const;

/** Claims a mark in `trx`: true for the one caller that inserted it (the one to notify). */
async function claim(trx: Db, kind: string, subject: string): Promise<boolean> {
  const rows = await trx
    .insertInto('notification_marks')
    .values({ kind, subject, created_at: now() })
    .onConflict((oc) => oc.columns(['kind', 'subject']).doNothing())
    .returning('kind')
    .execute();
  return rows.length > 0;
}

async function storeName(db: Db, id: number): Promise<string> {
  const row = await db.selectFrom('stores').select('name').where('id', '=', id).executeTakeFirst();
  return row?.name ?? String(id);
}

/**
 * Notifications are raised from the domain events, after the transaction that caused them has
 * committed (the bus publishes only then): each is stored with its mark in a transaction of its own
 * and broadcast on the recipients' channels once that commits. A process that stops between the
 * two commits loses the notification, never the sale. Conditions that last are told once (marks).
 */
export function notificationRaiser(db: Db, notifications: NotificationService) {
  /** Stores in one transaction what `work` raises, then broadcasts it. */
  async function raise(work: (trx: Db) => Promise<StoredNotification[]>): Promise<StoredNotification[]> {
    const stored = await transaction(db, work);
    await notifications.announce(stored);
    return stored;
  }

  /**
   * A product at or under its reorder level in a store, told on crossing: the first movement that
   * takes it there marks it, later sales while it stays low tell nobody; once a movement takes it
   * above the level the mark goes, and the next fall is told again.
   */
  async function lowStock({ store_id, product_ids }: EventPayloads['StockChanged']) {
    if (!product_ids.length) return [];
    const subject = (productId: number) => `${store_id}:${productId}`;
    /** The products' levels in the store, and whether each is marked as told. */
    const levelsAndMarks = (q: Db) =>
      q
        .selectFrom('products')
        .leftJoin('stock_levels', (join) =>
          join.onRef('stock_levels.product_id', '=', 'products.id').on('stock_levels.store_id', '=', store_id),
        )
        .select([
          'products.id',
          'products.name_en',
          'products.name_kh',
          'products.reorder_level',
          sql<number>`coalesce(sum(stock_levels.quantity), 0)`.as('quantity'),
          isLow(sql<number>`coalesce(sum(stock_levels.quantity), 0)`).as('low'),
          sql<number | boolean>`exists (select 1 from notification_marks where notification_marks.kind = 'low_stock'
            and notification_marks.subject = ${`${store_id}:`} || cast(products.id as varchar(20)))`.as('marked'),
        ])
        .where('products.id', 'in', product_ids)
        .where('products.deleted_at', 'is', null)
        .groupBy(['products.id', 'products.name_en', 'products.name_kh', 'products.reorder_level'])
        .execute();
    const low = (r: { low: boolean | number }) => Boolean(r.low);
    // read first, outside a transaction: after a sale of goods that are neither low nor marked (the
    // usual case, every sale) there is nothing to write, and no transaction is opened
    if (!(await levelsAndMarks(db)).some((r) => low(r) !== Boolean(r.marked))) return [];
    return raise(async (trx) => {
      const rows = await levelsAndMarks(trx);
      const stored: StoredNotification[] = [];
      const marked = new Set(rows.filter((r) => Boolean(r.marked)).map((r) => subject(r.id)));
      const recovered = rows.filter((r) => !low(r) && marked.has(subject(r.id)));
      if (recovered.length) {
        await trx
          .deleteFrom('notification_marks')
          .where('kind', '=', 'low_stock')
          .where(
            'subject',
            'in',
            recovered.map((r) => subject(r.id)),
          )
          .execute();
      }
      const told = rows.filter((r) => low(r) && !marked.has(subject(r.id)));
      if (!told.length) return stored;
      const users = await usersCovering(trx, store_id, NOTIFIED.low_stock);
      const store = await storeName(trx, store_id);
      for (const r of told) {
        if (!(await claim(trx, 'low_stock', subject(r.id)))) continue;
        stored.push(
          ...(await notifications.store(trx, users, 'low_stock', {
            product_id: r.id,
            product_name_en: r.name_en,
            product_name_kh: r.name_kh,
            store_id,
            store_name: store,
            quantity: Number(r.quantity),
            reorder_level: r.reorder_level,
          })),
        );
      }
      return stored;
    });
  }

  /** A transfer sent: those keeping stock in the destination store are told it is on its way. */
  function transferArriving({ id, to_store_id }: EventPayloads['TransferSent']) {
    return raise(async (trx) => {
      const transfer = await trx
        .selectFrom('stock_transfers')
        .innerJoin('stores as from_store', 'from_store.id', 'stock_transfers.from_store_id')
        .innerJoin('stores as to_store', 'to_store.id', 'stock_transfers.to_store_id')
        .select(['stock_transfers.number', 'from_store.name as from_name', 'to_store.name as to_name'])
        .where('stock_transfers.id', '=', id)
        .executeTakeFirst();
      if (!transfer) return [];
      const users = await usersCovering(trx, to_store_id, NOTIFIED.transfer_arriving);
      return notifications.store(trx, users, 'transfer_arriving', {
        transfer_id: id,
        number: transfer.number,
        from_store_name: transfer.from_name,
        to_store_id,
        to_store_name: transfer.to_name,
      });
    });
  }

  /** A sale with delivery confirmed (created so, or a held cart checked out): its parcel, once. */
  function deliveryToPrepare(order: EventPayloads['OrderCreated']) {
    if (order.status !== 'confirmed' || order.delivery_status !== 'preparing') return Promise.resolve([]);
    return raise(async (trx) => {
      if (!(await claim(trx, 'delivery_to_prepare', String(order.id)))) return [];
      const row = await trx
        .selectFrom('orders')
        .innerJoin('stores', 'stores.id', 'orders.store_id')
        .leftJoin('customers', 'customers.id', 'orders.customer_id')
        .select(['orders.number', 'stores.name as store_name', 'customers.name as customer_name'])
        .where('orders.id', '=', order.id)
        .executeTakeFirst();
      if (!row) return [];
      const users = await usersCovering(trx, order.store_id, NOTIFIED.delivery_to_prepare);
      return notifications.store(trx, users, 'delivery_to_prepare', {
        order_id: order.id,
        number: row.number,
        store_id: order.store_id,
        store_name: row.store_name,
        customer_name: row.customer_name,
      });
    });
  }

  /**
   * A sale made offline that took more than the store had: the managers of the store are told,
   * once per order (a replayed sale, or its update, tells nobody again).
   */
  function offlineOversold(order: EventPayloads['OrderCreated']) {
    if (!order.oversold) return Promise.resolve([]);
    return raise(async (trx) => {
      if (!(await claim(trx, 'offline_oversold', String(order.id)))) return [];
      const row = await trx
        .selectFrom('orders')
        .innerJoin('stores', 'stores.id', 'orders.store_id')
        .leftJoin('users', 'users.id', 'orders.cashier_id')
        .select(['orders.number', 'stores.name as store_name', 'users.name as cashier_name'])
        .where('orders.id', '=', order.id)
        .executeTakeFirst();
      if (!row) return [];
      const users = await usersCovering(trx, order.store_id, NOTIFIED.offline_oversold);
      return notifications.store(trx, users, 'offline_oversold', {
        order_id: order.id,
        number: row.number,
        store_id: order.store_id,
        store_name: row.store_name,
        cashier_name: row.cashier_name,
      });
    });
  }

  /** Goods received on a purchase (each receipt, a partial one too). */
  function purchaseReceived({ id, store_id }: EventPayloads['PurchaseReceived']) {
    return raise(async (trx) => {
      const row = await trx
        .selectFrom('purchases')
        .innerJoin('stores', 'stores.id', 'purchases.store_id')
        .leftJoin('suppliers', 'suppliers.id', 'purchases.supplier_id')
        .select(['purchases.number', 'stores.name as store_name', 'suppliers.name as supplier_name'])
        .where('purchases.id', '=', id)
        .executeTakeFirst();
      if (!row) return [];
      const users = await usersCovering(trx, store_id, NOTIFIED.purchase_received);
      return notifications.store(trx, users, 'purchase_received', {
        purchase_id: id,
        number: row.number,
        store_id,
        store_name: row.store_name,
        supplier_name: row.supplier_name,
      });
    });
  }

  return {
    /** What an event raises (the bus's listener; tests await it). */
    handle(event: DomainEvent): Promise<StoredNotification[]> {
      switch (event.name) {
        case 'StockChanged':
          return lowStock(event.payload);
        case 'TransferSent':
          return transferArriving(event.payload);
        case 'OrderCreated':
          return Promise.all([deliveryToPrepare(event.payload), offlineOversold(event.payload)]).then((all) =>
            all.flat(),
          );
        case 'OrderUpdated':
          return deliveryToPrepare(event.payload);
        case 'PurchaseReceived':
          return purchaseReceived(event.payload);
        default:
          return Promise.resolve([]);
      }
    },

    /**
     * Batches in stock that expire within DEFAULT_EXPIRING_DAYS (the expiring list's window) from
     * `today` (Cambodia's): each batch in each store told once. Run at start and every few hours.
     */
    expiringBatches(today = todayInCambodia()): Promise<StoredNotification[]> {
      const until = new Date(`${today}T00:00:00Z`);
      until.setUTCDate(until.getUTCDate() + DEFAULT_EXPIRING_DAYS);
      return raise(async (trx) => {
        const rows = await trx
          .selectFrom('stock_levels')
          .innerJoin('stock_batches', 'stock_batches.id', 'stock_levels.batch_id')
          .innerJoin('products', 'products.id', 'stock_levels.product_id')
          .innerJoin('stores', 'stores.id', 'stock_levels.store_id')
          .select([
            'stock_levels.store_id',
            'stores.name as store_name',
            'stock_levels.product_id',
            'products.name_en',
            'products.name_kh',
            'stock_batches.id as batch_id',
            'stock_batches.lot',
            'stock_batches.expiry_date',
            'stock_levels.quantity',
          ])
          .where('stock_levels.quantity', '>', 0)
          .where('stock_batches.expiry_date', '>=', today)
          .where('stock_batches.expiry_date', '<=', until.toISOString().slice(0, 10))
          .where('products.deleted_at', 'is', null)
          .where('stores.deleted_at', 'is', null)
          .orderBy('stock_batches.expiry_date')
          .orderBy('stock_levels.id')
          .execute();
        const stored: StoredNotification[] = [];
        const recipients = new Map<number, number[]>();
        for (const r of rows) {
          if (!(await claim(trx, 'batch_expiring', `${r.batch_id}:${r.store_id}`))) continue;
          let users = recipients.get(r.store_id);
          if (!users) {
            users = await usersCovering(trx, r.store_id, NOTIFIED.batch_expiring);
            recipients.set(r.store_id, users);
          }
          stored.push(
            ...(await notifications.store(trx, users, 'batch_expiring', {
              product_id: r.product_id,
              product_name_en: r.name_en,
              product_name_kh: r.name_kh,
              store_id: r.store_id,
              store_name: r.store_name,
              batch_id: r.batch_id,
              lot: r.lot,
              expiry_date: String(r.expiry_date).slice(0, 10),
              quantity: Number(r.quantity),
            })),
          );
        }
        return stored;
      });
    },
  };
}

export type NotificationRaiser = ReturnType<typeof notificationRaiser>;

/** The raiser listening to the database's events; the function returned stops it. */
export function raiseNotifications(db: Db, raiser: NotificationRaiser): () => void {
  return eventBus(db).subscribe((event) => raiser.handle(event).then(() => undefined));
}

const HOUR_MS = 3_600_000;

/**
 * The expiring-batch check at start (after a minute, so start-up is not slowed) and every
 * `everyHours`; every process may run it, the marks keep each batch told once. `stop` ends it.
 */
export function scheduleExpiryChecks(
  raiser: NotificationRaiser,
  log: { error(details: object, message: string): void },
  everyHours = 6,
): { stop(): void } {
  const run = () => {
    raiser.expiringBatches().catch((error: unknown) => log.error({ err: error }, 'expiring batches check failed'));
  };
  const first = setTimeout(run, 60_000);
  const timer = setInterval(run, everyHours * HOUR_MS);
  first.unref();
  timer.unref();
  return {
    stop() {
      clearTimeout(first);
      clearInterval(timer);
    },
  };
}
