import { z } from 'zod';

/**
 * Real time (DESIGN.md section 5): the Pusher Channels protocol, laravel-echo's names, and what the
 * page is told about the broadcaster. Shared by the server (which signs and serves the channels)
 * and the web app (which subscribes to them).
 */

/** Spec section 4: the states a connection goes through, as pusher-js names them. */
export const CONNECTION_STATES = [
  'initialized',
  'connecting',
  'connected',
  'unavailable',
  'failed',
  'disconnected',
] as const;
export type ConnectionState = (typeof CONNECTION_STATES)[number];

/** Spec section 9: the real-time client's timeouts, in milliseconds. */
export const REALTIME_CLIENT_TIMEOUTS = {
  activityTimeout: 120_000,
  pongTimeout: 30_000,
  unavailableTimeout: 10_000,
} as const;

/** Spec section 7: laravel-echo's default namespace; `listen('StockChanged')` hears `App\Events\StockChanged`. */
export const EVENT_NAMESPACE = 'App.Events';

/** The name an event of the namespace travels under on the wire (what Laravel's broadcaster sends). */
export function appEvent(name: string): string {
  return `${EVENT_NAMESPACE}.${name}`.replace(/\./g, '\\');
}

/** The domain events a store's channel carries (the server's realtime/domain.ts `routesOf`). */
export const STORE_EVENTS = [
  'StockChanged',
  'OrderCreated',
  'OrderUpdated',
  'PurchaseReceived',
  'TransferSent',
  'TransferReceived',
] as const;

/** The domain events the `depot` channel carries for every signed-in user. */
export const DEPOT_EVENTS = ['ExchangeRateChanged', 'SettingsChanged'] as const;

/** What laravel-echo's `.notification(callback)` listens to on a user's private channel. */
export const NOTIFICATION_CREATED_EVENT = 'Illuminate\\Notifications\\Events\\BroadcastNotificationCreated';

/**
 * The channels Depot broadcasts on, by the names laravel-echo takes (`Echo.private(name)` adds the
 * `private-` prefix, `Echo.join(name)` the `presence-` one). The server authorizes each in
 * `apps/server/src/realtime/channels.ts`; nothing is broadcast on public channels.
 */
export const channelNames = {
  /** One user's: their notifications, their permissions changing (Laravel's default user channel). */
  user: (userId: number) => `App.Models.User.${userId}`,
  /** One store's: its stock, orders, purchases and transfers; for those whose coverage includes it. */
  store: (storeId: number) => `stores.${storeId}`,
  /** Every signed-in user: the exchange rate, the settings. */
  depot: 'depot',
} as const;

/** The wire names (`private-…`, `presence-…`), for the server's `broadcast`. */
export const privateChannel = (name: string) => `private-${name}`;
export const presenceChannel = (name: string) => `presence-${name}`;

/**
 * The broadcaster settings injected into the page (`window.__DEPOT__.broadcasting`). `reverb` is
 * Depot's own endpoint (the page's host, port and scheme unless given); `pusher` an external
 * Pusher-compatible service. The app secret never appears here.
 */
export const broadcastingConfig = z.object({
  broadcaster: z.string(),
  key: z.string(),
  /** null: the page's own host. */
  host: z.string().nullable(),
  /** null: the page's own port. */
  port: z.number().int().nullable(),
  /** null: the page's own scheme. */
  scheme: z.enum(['http', 'https']).nullable(),
  cluster: z.string().nullable(),
  authEndpoint: z.string(),
  /** Where a socket signs in as its user (pusher-js `signin`); absent: `/broadcasting/user-auth`. */
  userAuthEndpoint: z.string().optional(),
});
export type BroadcastingConfig = z.infer<typeof broadcastingConfig>;

/** Where channels are authorized (spec section 7: `POST /broadcasting/auth`, outside the API base). */
export const BROADCASTING_AUTH_PATH = '/broadcasting/auth';

/** Where a socket is signed in as its user (spec section 7: `/broadcasting/user-auth`, Pusher's user authentication). */
export const BROADCASTING_USER_AUTH_PATH = '/broadcasting/user-auth';

/** `POST /broadcasting/user-auth`: the socket to sign in, JSON or form-encoded (what pusher-js sends). */
export const broadcastingUserAuthBody = z.object({
  socket_id: z
    .string()
    .max(50)
    .regex(/^\d+\.\d+$/),
});

/** The signed `user_data` (a JSON string with the user's `id`) the socket presents in `pusher:signin`. */
export const broadcastingUserAuthResponse = z.object({ auth: z.string(), user_data: z.string() });

/**
 * `GET /api/broadcasting/channels`: the stores whose channel the signed-in user may listen to (their
 * coverage; every store with all_stores.view), so the page follows those stores' events.
 */
export const broadcastingChannelsResponse = z.object({
  data: z.object({ stores: z.array(z.number().int()) }),
});

/** `POST /broadcasting/auth`: JSON (the spec) or form-encoded (what pusher-js sends). */
export const broadcastingAuthBody = z.object({
  socket_id: z
    .string()
    .max(50)
    .regex(/^\d+\.\d+$/),
  channel_name: z.string().min(1).max(200),
});

export const broadcastingAuthResponse = z.object({
  auth: z.string(),
  channel_data: z.string().optional(),
});
