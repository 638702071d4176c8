import {
  BROADCASTING_USER_AUTH_PATH,
  type BroadcastingConfig,
  CONNECTION_STATES,
  type ConnectionState,
  REALTIME_CLIENT_TIMEOUTS,
} from '@depot/contracts';
import { useQueryClient } from '@tanstack/react-query';
import type Echo from 'laravel-echo';
import type { EchoOptions } from 'laravel-echo';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { useSession } from './access.tsx';
import { session } from './session.ts';

/**
 * Real time in the page: one laravel-echo connection per tab (pusher-js underneath), made after
 * sign-in and dropped at sign-out, configured at run time from `window.__DEPOT__.broadcasting`.
 * The connection's state is a store the header shows; `useChannel` listens to a channel's event
 * while a component is mounted.
 */

/** Spec sections 5 and 8: a configuration the page cannot connect with. */
export class RealtimeConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RealtimeConfigError';
  }
}

type Options = EchoOptions<'reverb'> | EchoOptions<'pusher'>;

/**
 * What the header shows: the client's state, except `offline` while the browser has no network
 * (pusher-js only notices a dead socket after its pong timeout, so the dot would stay green) and
 * `reconnecting` for a connection being made again after it was up.
 */
export type ShownState = ConnectionState | 'offline' | 'reconnecting';
export const SHOWN_STATES: readonly ShownState[] = [...CONNECTION_STATES, 'offline', 'reconnecting'];

/**
 * The Echo options from the injected configuration, with the spec's checks: a `pusher` broadcaster
 * needs https, a key and a cluster; `reverb` (Depot's own endpoint) a key, and the page's host,
 * port and scheme unless it names others. Anything else is an unsupported broadcaster.
 */
export function echoOptions(
  config: BroadcastingConfig | undefined,
  page: Pick<Location, 'hostname' | 'port' | 'protocol'>,
  headers: () => Record<string, string>,
): Options {
  const broadcaster = config?.broadcaster;
  if (!config || (broadcaster !== 'reverb' && broadcaster !== 'pusher')) {
    throw new RealtimeConfigError(`Unsupported broadcaster: ${String(broadcaster)}`);
  }
  const scheme = config.scheme ?? (page.protocol === 'https:' ? 'https' : 'http');
  if (broadcaster === 'pusher') {
    if (scheme !== 'https') throw new RealtimeConfigError('Pusher requires a secure connection');
    if (!config.cluster) throw new RealtimeConfigError('Pusher requires a cluster');
  }
  if (!config.key)
    throw new RealtimeConfigError(`${broadcaster === 'pusher' ? 'Pusher' : 'Reverb'} requires an app key`);

  const secure = scheme === 'https';
  const port = config.port ?? (Number(page.port) || (secure ? 443 : 80));
  const common = {
    key: config.key,
    forceTLS: secure,
    ...REALTIME_CLIENT_TIMEOUTS,
    // our own channel authorization: the bearer token of the moment (it is renewed every hour)
    channelAuthorization: { endpoint: config.authEndpoint, transport: 'ajax' as const, headersProvider: headers },
    // the socket signs in as its user (pusher-js `signin`): the server closes a user's sockets
    // when they are disabled or lose a channel, and takes private channels only from signed-in sockets
    userAuthentication: {
      endpoint: config.userAuthEndpoint ?? BROADCASTING_USER_AUTH_PATH,
      transport: 'ajax' as const,
      // laravel-echo's type asks for fixed headers too; pusher-js adds the provider's on each request
      headers: {},
      headersProvider: headers,
    },
    disableStats: true,
  };
  if (broadcaster === 'reverb') {
    return {
      ...common,
      broadcaster,
      wsHost: config.host ?? page.hostname,
      wsPort: port,
      wssPort: port,
      // WebSockets only: no fallback to Pusher's own hosts (STACK.md)
      enabledTransports: ['ws', 'wss'],
    };
  }
  return {
    ...common,
    broadcaster,
    cluster: config.cluster as string,
    ...(config.host ? { wsHost: config.host, wsPort: port, wssPort: port } : {}),
  };
}

type Kind = 'public' | 'private' | 'presence';
type Handler = (data: never) => void;

interface Listening {
  kind: Kind;
  name: string;
  event: string;
  handler: Handler;
}

/**
 * The tab's one connection. Listeners are kept here, not only in Echo, so those registered before
 * the connection exists (it loads pusher-js on demand) are applied once it does, and a channel is
 * left when its last listener goes.
 */
class Connection {
  private echo: Echo<'reverb' | 'pusher'> | null = null;
  /** The user connected (or connecting) for; a sign-out clears it. */
  private userId: number | null = null;
  /** Bumped by every stop, so a start still loading pusher-js after one gives up. */
  private generation = 0;
  private current: ConnectionState = 'initialized';
  private wasConnected = false;
  private offline = typeof navigator !== 'undefined' && navigator.onLine === false;
  private readonly listeners = new Set<() => void>();
  private readonly connected = new Set<(since: number | null) => void>();
  private readonly listening = new Set<Listening>();

  get state(): ShownState {
    if (this.offline) return 'offline';
    if (this.current === 'connecting' && this.wasConnected) return 'reconnecting';
    return this.current;
  }

  /** The browser's `offline` / `online` events (bound once for the tab, below). */
  network(online: boolean): void {
    if (this.offline === !online) return;
    this.offline = !online;
    for (const listener of this.listeners) listener();
    if (!online || !this.echo) return;
    const connection = this.echo.connector.pusher.connection;
    // back online: a dead socket is made again at once (its reconnect reads the screens again);
    // one that survived may have missed broadcasts, so the screens read their data again
    if (this.current === 'connected') for (const listener of this.connected) listener(null);
    else connection.connect();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /**
   * After each connection: what may have been missed is to be fetched again. `since` is when the
   * first connection was made (what was read before it may have changed before the channels
   * listened: a page loaded, then its socket connected), null after a reconnect (all of it).
   */
  onConnected(listener: (since: number | null) => void): () => void {
    this.connected.add(listener);
    return () => this.connected.delete(listener);
  }

  private setState(next: ConnectionState): void {
    if (next === this.current) return;
    this.current = next;
    for (const listener of this.listeners) listener();
  }

  /** Connects for the signed-in user, once; a no-op while connected or without a session. */
  async start(config = window.__DEPOT__?.broadcasting): Promise<void> {
    const { userId } = session.get();
    // no configuration at all (the page was not served by Depot: Vite's dev server): no real time.
    // A configuration that failed stays failed for this user: no new error at every screen.
    if (!config || !session.isValid() || this.userId === userId) return;
    this.stop();
    const generation = this.generation;
    this.userId = userId;
    try {
      const options = echoOptions(config, window.location, authHeaders);
      this.setState('connecting');
      const [{ default: EchoClass }, { default: Pusher }] = await Promise.all([
        import('laravel-echo'),
        import('pusher-js'),
      ]);
      if (generation !== this.generation) return; // signed out while pusher-js loaded
      const echo = new EchoClass({ ...options, Pusher } as never) as Echo<'reverb' | 'pusher'>;
      this.echo = echo;
      const pusher = echo.connector.pusher;
      // signed in again by pusher-js after every reconnect; private channels wait for it on the server
      pusher.signin();
      this.setState(pusher.connection.state as ConnectionState);
      pusher.connection.bind('state_change', ({ current }: { current: string }) => {
        if (!(CONNECTION_STATES as readonly string[]).includes(current)) return;
        this.setState(current as ConnectionState);
        if (current !== 'connected') return;
        const since = this.wasConnected ? null : Date.now();
        this.wasConnected = true;
        for (const listener of this.connected) listener(since);
      });
      if (pusher.connection.state === 'connected') this.wasConnected = true;
      for (const entry of this.listening) this.bind(entry);
    } catch (error) {
      if (generation !== this.generation) return;
      console.error(error instanceof Error ? error.message : error);
      this.setState('failed');
    }
  }

  /** Drops the connection (sign-out): the server sees the tab leave its presence channels. */
  stop(): void {
    this.generation += 1;
    const echo = this.echo;
    this.echo = null;
    this.userId = null;
    this.wasConnected = false;
    if (!echo) return;
    echo.disconnect();
    this.setState('disconnected');
  }

  private channel(kind: Kind, name: string) {
    const echo = this.echo;
    if (!echo) return null;
    if (kind === 'private') return echo.private(name);
    if (kind === 'presence') return echo.join(name);
    return echo.channel(name);
  }

  private bind(entry: Listening): void {
    this.channel(entry.kind, entry.name)?.listen(entry.event, entry.handler);
  }

  listen(kind: Kind, name: string, event: string, handler: Handler): () => void {
    const entry = { kind, name, event, handler };
    this.listening.add(entry);
    this.bind(entry);
    return () => {
      this.listening.delete(entry);
      const channel = this.channel(kind, name);
      if (!channel) return;
      channel.stopListening(event, handler);
      const wire = kind === 'public' ? name : `${kind}-${name}`;
      if (![...this.listening].some((e) => e.kind === kind && e.name === name)) this.echo?.leaveChannel(wire);
    };
  }
}

function authHeaders(): Record<string, string> {
  const { token } = session.get();
  return { Accept: 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) };
}

export const realtime = new Connection();

if (typeof window !== 'undefined') {
  window.addEventListener('offline', () => realtime.network(false));
  window.addEventListener('online', () => realtime.network(true));
}

// sign-out (here or in another tab) drops the connection; another user's sign-in starts over
session.subscribe(() => {
  if (!session.isValid()) realtime.stop();
});

/**
 * Connects once signed in (the signed-in layout calls it), and after every reconnect has every
 * query read again: whatever was broadcast while the connection was down is not replayed. After
 * the first connection, the queries answered before it are read again (a setting saved while this
 * page loaded reached no channel of it).
 */
export function useRealtimeConnection(): void {
  const client = useQueryClient();
  const { token, userId } = useSession();
  // a new sign-in (another user on this till) connects for them
  // biome-ignore lint/correctness/useExhaustiveDependencies: the user is what the connection belongs to
  useEffect(() => {
    if (token) void realtime.start();
  }, [token, userId]);
  useEffect(
    () =>
      realtime.onConnected((since) => {
        void client.invalidateQueries(
          since === null
            ? undefined
            : { predicate: (query) => query.state.dataUpdatedAt > 0 && query.state.dataUpdatedAt <= since },
        );
      }),
    [client],
  );
}

/** Spec section 4: the connection's state, for the header. */
export function useConnectionState(): ShownState {
  return useSyncExternalStore(realtime.subscribe, () => realtime.state);
}

/**
 * Listens to an event on a channel while the component is mounted. `name` as laravel-echo takes it
 * (`channelNames.store(3)`), `event` too: `'StockChanged'` is `App\Events\StockChanged`, a leading
 * dot takes the name as it is (`'.Illuminate\\Notifications\\Events\\BroadcastNotificationCreated'`).
 * A null name listens to nothing (the user is not known yet).
 */
export function useChannel<T = unknown>(
  name: string | null,
  event: string,
  handler: (data: T) => void,
  kind: Kind = 'private',
): void {
  // the latest handler, without subscribing again on every render
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    if (!name) return;
    return realtime.listen(kind, name, event, (data: T) => latest.current(data));
  }, [kind, name, event]);
}
