/**
 * The domain events Depot announces, each after the transaction that caused it has committed (never
 * on a rollback). Names and payloads are what a real-time layer broadcasts, as Laravel would name
 * them: the class `App\Events\<Name>`, which laravel-echo listens to as `.listen('<Name>')` under
 * its default namespace `App.Events`. Payloads carry ids and states only: a screen that hears one
 * refetches what it shows, through the API and its policies, rather than trusting the event.
 */
export interface EventPayloads {
  /** Levels changed: a sale, a return, a receipt, a transfer, an adjustment, a write-off. */
  StockChanged: { store_id: number; product_ids: number[] };
  OrderCreated: OrderState;
  /** Held cart changed or checked out, paid, cancelled, returned, delivery moved. */
  OrderUpdated: OrderState;
  PurchaseReceived: { id: number; store_id: number };
  TransferSent: TransferStores;
  TransferReceived: TransferStores;
  /**
   * A stock count was scanned into or moved on (issue 28): heard only by the count's own screen
   * (other counters' phones, the manager's review), not by every screen of the store.
   */
  StockCountChanged: { id: number; store_id: number; status: string };
  /** A new current exchange rate (riel per dollar). */
  ExchangeRateChanged: { rate_khr: number; rate_in_khr: number | null; rate_out_khr: number | null };
  /** System or sale settings saved: which keys. */
  SettingsChanged: { keys: string[] };
  /** What these users may do changed (their roles, a role's permissions, their stores). */
  PermissionsChanged: { user_ids: number[] };
  /**
   * A user's access shrank: disabled, deleted, their sessions ended by a password reset, or taken off
   * some stores (`store_ids`, those lost). Not broadcast: the real-time layer closes or narrows the
   * user's own sockets.
   */
  UserAccessRevoked: {
    user_id: number;
    reason: 'disabled' | 'deleted' | 'sessions_ended' | 'stores_removed';
    store_ids: number[];
  };
}

interface OrderState {
  id: number;
  store_id: number;
  status: string;
  payment_status: string;
  delivery_status: string | null;
  /** A sale made offline that took more than the store had (the managers are told). */
  oversold?: boolean;
}

interface TransferStores {
  id: number;
  from_store_id: number;
  to_store_id: number;
}

export type EventName = keyof EventPayloads;

export type DomainEvent = { [N in EventName]: { name: N; payload: EventPayloads[N] } }[EventName];

export function event<N extends EventName>(name: N, payload: EventPayloads[N]): DomainEvent {
  return { name, payload } as DomainEvent;
}
