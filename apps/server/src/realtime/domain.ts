import { appEvent, channelNames, type DEPOT_EVENTS, privateChannel, type STORE_EVENTS } from '@depot/contracts';
import type { Db } from '../db/database.ts';
import { eventBus } from '../events/bus.ts';
import type { DomainEvent, EventName } from '../events/events.ts';
import type { Realtime } from './realtime.ts';

const store = (id: number) => privateChannel(channelNames.store(id));
const depot = privateChannel(channelNames.depot);

/** What the web listens to (contracts `STORE_EVENTS`, `DEPOT_EVENTS`): domain events, or no build. */
type Domain<N extends EventName> = N;
export type ListenedEvent = Domain<(typeof STORE_EVENTS | typeof DEPOT_EVENTS)[number]>;

/**
 * Where each domain event goes (wire names), with the payload sent there. The one map from events
 * to channels: no module broadcasts its own events. A store's events go to the store's channel
 * (a transfer's to both stores); the exchange rate and the sale settings to every signed-in user
 * (`depot`); a change of rights to each affected user's own channel, naming only that user.
 */
export function routesOf(event: DomainEvent): { channels: string[]; payload: object }[] {
  switch (event.name) {
    case 'StockChanged':
    case 'OrderCreated':
    case 'OrderUpdated':
    case 'PurchaseReceived':
    case 'StockCountChanged':
      return [{ channels: [store(event.payload.store_id)], payload: event.payload }];
    case 'TransferSent':
    case 'TransferReceived': {
      const { from_store_id, to_store_id } = event.payload;
      return [{ channels: [...new Set([store(from_store_id), store(to_store_id)])], payload: event.payload }];
    }
    case 'ExchangeRateChanged':
    case 'SettingsChanged':
      return [{ channels: [depot], payload: event.payload }];
    case 'PermissionsChanged':
      return event.payload.user_ids.map((id) => ({
        channels: [privateChannel(channelNames.user(id))],
        payload: { user_ids: [id] },
      }));
    case 'UserAccessRevoked':
      // not announced: the real-time layer acts on the user's own sockets
      return [];
  }
}

/**
 * Broadcasts every domain event once its transaction has committed (the bus publishes only then),
 * under Laravel's name (`App\Events\StockChanged`, heard by laravel-echo as `.listen('StockChanged')`).
 * Payloads are ids and states: a screen that hears one refetches through the API and its policies.
 */
export function broadcastDomainEvents(db: Db, realtime: Realtime): () => void {
  return eventBus(db).subscribe(async (event) => {
    const name = appEvent(event.name);
    await Promise.all(routesOf(event).map(({ channels, payload }) => realtime.broadcast(channels, name, payload)));
    // after the event reached them: sockets of users whose rights no longer hold are closed
    if (event.name === 'PermissionsChanged') await realtime.recheck(event.payload.user_ids);
    if (event.name === 'UserAccessRevoked') {
      const { user_id, reason } = event.payload;
      // disabled, deleted or signed out by a reset: every socket of theirs goes, whatever it listens to
      await realtime.recheck([user_id], { close: reason !== 'stores_removed' });
    }
  });
}
