import { channelNames, privateChannel } from '@depot/contracts';
import type { Db } from '../db/database.ts';
import { eventBus } from '../events/bus.ts';
import { broadcastName, type DomainEvent } from '../events/events.ts';
import type { Realtime } from './realtime.ts';

const store = (id: number) => privateChannel(channelNames.store(id));
const depot = privateChannel(channelNames.depot);

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
    const name = broadcastName(event.name);
    await Promise.all(routesOf(event).map(({ channels, payload }) => realtime.broadcast(channels, name, payload)));
  });
}
