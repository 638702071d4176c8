import type { Db } from '../db/database.ts';
import type { DomainEvent } from './events.ts';

export type Listener = (event: DomainEvent) => void | Promise<void>;

export interface EventBus {
  /** Calls every listener with each event, in order; a listener's failure is logged, never thrown. */
  publish(events: readonly DomainEvent[]): void;
  /** Adds a listener; the function returned removes it. */
  subscribe(listener: Listener): () => void;
}

// One bus per database, as list totals are kept (kit/totals.ts): tests run several apps in a process.
const buses = new WeakMap<Db, EventBus>();

/**
 * The in-process event bus of a database's app. Writers do not call `publish` themselves: the
 * transaction helper (db/transaction.ts) publishes what a transaction `emit`ted once it has
 * committed, and the document building block (kit/document.ts) what a document's write announces.
 * The real-time layer subscribes and broadcasts.
 */
export function eventBus(db: Db): EventBus {
  let bus = buses.get(db);
  if (!bus) {
    const listeners = new Set<Listener>();
    const failed = (error: unknown) => console.error('event listener failed', error);
    bus = {
      publish(events) {
        for (const event of events) {
          for (const listener of listeners) {
            try {
              const done = listener(event);
              if (done) done.catch(failed);
            } catch (error) {
              failed(error);
            }
          }
        }
      },
      subscribe(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    };
    buses.set(db, bus);
  }
  return bus;
}

/**
 * Events of one transaction, merged: stock changes of a store become one event naming every
 * product, so a sale of 5 lines announces one StockChanged, not 5.
 */
export function coalesce(events: readonly DomainEvent[]): DomainEvent[] {
  const out: DomainEvent[] = [];
  const stock = new Map<number, Set<number>>();
  for (const event of events) {
    if (event.name !== 'StockChanged') {
      out.push(event);
      continue;
    }
    let products = stock.get(event.payload.store_id);
    if (!products) {
      products = new Set();
      stock.set(event.payload.store_id, products);
      out.push({ name: 'StockChanged', payload: { store_id: event.payload.store_id, product_ids: [] } });
    }
    for (const id of event.payload.product_ids) products.add(id);
  }
  for (const event of out) {
    if (event.name === 'StockChanged') {
      event.payload.product_ids = [...(stock.get(event.payload.store_id) ?? [])].sort((a, b) => a - b);
    }
  }
  return out;
}
