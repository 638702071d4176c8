import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  BROADCASTING_AUTH_PATH,
  BROADCASTING_USER_AUTH_PATH,
  type BroadcastingConfig,
  type broadcastingAuthResponse,
  REALTIME_CLIENT_TIMEOUTS,
} from '@depot/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Config } from '../config.ts';
import { type Db, now } from '../db/database.ts';
import { channelAuthority } from './authority.ts';
import { type ChannelAsker, displaySocketId, mayListen, presenceMember } from './channels.ts';
import { Hub } from './hub.ts';
import {
  channelKind,
  LIMITS,
  signatureSubject,
  signChannel,
  userSignatureSubject,
  validChannelName,
} from './protocol.ts';
import { pusherTransport } from './pusher.ts';
import { redisTransport } from './redis.ts';
import { embeddedTransport, type Transport } from './transport.ts';

export type BroadcastDriver = 'embedded' | 'redis' | 'pusher';

export interface RealtimeSettings {
  driver: BroadcastDriver;
  /** Given (PUSHER_APP_KEY / PUSHER_APP_SECRET), or generated once and kept in the database. */
  key?: string;
  secret?: string;
  appId?: string;
  redisUrl?: string;
  /** Redis: a process silent this long is taken for gone, with its presence members. */
  nodeTtlMs: number;
  /** The external server, for `pusher`. */
  pusher?: { host?: string; port?: number; scheme: 'http' | 'https'; cluster: string };
  activityTimeoutMs: number;
  pongTimeoutMs: number;
  maxConnections: number;
  /** How long a connection has to sign in (`pusher:signin`) before it is closed. */
  signinTimeoutMs: number;
}

export const DEFAULT_REALTIME: RealtimeSettings = {
  driver: 'embedded',
  nodeTtlMs: 15_000,
  // the same as the clients' own (spec section 9): whoever is silent that long is pinged
  activityTimeoutMs: REALTIME_CLIENT_TIMEOUTS.activityTimeout,
  pongTimeoutMs: REALTIME_CLIENT_TIMEOUTS.pongTimeout,
  maxConnections: 10_000,
  // Pusher's user authentication timeout
  signinTimeoutMs: 30_000,
};

/** The settings from the validated environment. */
export function realtimeSettings(config: Config): RealtimeSettings {
  return {
    driver: config.BROADCAST_DRIVER,
    key: config.PUSHER_APP_KEY,
    secret: config.PUSHER_APP_SECRET,
    appId: config.PUSHER_APP_ID,
    redisUrl: config.REDIS_URL,
    nodeTtlMs: config.REALTIME_NODE_TTL * 1000,
    pusher: {
      host: config.PUSHER_HOST,
      port: config.PUSHER_PORT,
      scheme: config.PUSHER_SCHEME,
      cluster: config.PUSHER_CLUSTER,
    },
    activityTimeoutMs: config.REALTIME_ACTIVITY_TIMEOUT * 1000,
    pongTimeoutMs: DEFAULT_REALTIME.pongTimeoutMs,
    maxConnections: config.REALTIME_MAX_CONNECTIONS,
    signinTimeoutMs: DEFAULT_REALTIME.signinTimeoutMs,
  };
}

export type ChannelAuth = z.infer<typeof broadcastingAuthResponse>;

export interface BroadcastOptions {
  /** The socket whose user caused the event (`X-Socket-ID`): it does not get it back (Laravel's `toOthers()`). */
  exceptSocketId?: string;
}

export interface Realtime {
  readonly driver: BroadcastDriver;
  /**
   * The one way the server sends an event: to channels by their wire names (`private-stores.3`),
   * an event name (`appEvent('StockChanged')` gives laravel-echo's `App\Events\StockChanged`) and a
   * JSON payload. Call it after the transaction commits. It never throws: a failure is logged, and
   * clients refetch what they missed when they reconnect.
   */
  broadcast(channels: string | string[], event: string, payload: object, options?: BroadcastOptions): Promise<void>;
  /** `/broadcasting/auth`: the signature for this socket and channel, or null when the asker may not listen. */
  authorize(asker: ChannelAsker, socketId: string, channel: string): ChannelAuth | null;
  /**
   * `/broadcasting/user-auth` (Pusher's user authentication, pusher-js `signin`): the asker's
   * `user_data` signed for this socket, which the socket presents in `pusher:signin`.
   */
  signin(asker: ChannelAsker, socketId: string): { auth: string; user_data: string };
  /**
   * These users' rights changed: every process closes their sockets that no longer hold (through
   * the transport, so a socket on another process is reached too); `close`: all of them (their
   * sessions ended).
   */
  recheck(userIds: readonly (number | string)[], options?: { close?: boolean }): Promise<void>;
  /** What the page is told (`window.__DEPOT__.broadcasting`): never the secret. */
  clientConfig(): BroadcastingConfig;
  /** Sockets this process holds (embedded and redis). */
  readonly connections: number;
  close(): Promise<void>;
}

const SECRET_NAMES = { key: 'broadcasting.app_key', secret: 'broadcasting.app_secret' } as const;

/**
 * The app key and secret: from the environment when given, otherwise generated on the first start
 * and kept in the database, so every process on it signs and checks with the same pair.
 */
async function credentials(db: Db, settings: RealtimeSettings): Promise<{ key: string; secret: string }> {
  if (settings.key && settings.secret) return { key: settings.key, secret: settings.secret };
  const fresh = { key: randomBytes(10).toString('hex'), secret: randomBytes(32).toString('hex') };
  await db
    .insertInto('app_secrets')
    .values([
      { name: SECRET_NAMES.key, value: fresh.key, created_at: now() },
      { name: SECRET_NAMES.secret, value: fresh.secret, created_at: now() },
    ])
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const stored = new Map(
    (
      await db
        .selectFrom('app_secrets')
        .select(['name', 'value'])
        .where('name', 'in', [SECRET_NAMES.key, SECRET_NAMES.secret])
        .execute()
    ).map((r) => [r.name, r.value]),
  );
  return {
    key: settings.key ?? (stored.get(SECRET_NAMES.key) as string),
    secret: settings.secret ?? (stored.get(SECRET_NAMES.secret) as string),
  };
}

function transportFor(settings: RealtimeSettings, key: string, secret: string, log: FastifyBaseLogger): Transport {
  if (settings.driver === 'redis') {
    if (!settings.redisUrl) throw new Error('BROADCAST_DRIVER=redis needs REDIS_URL');
    return redisTransport({ url: settings.redisUrl, namespace: key, nodeTtlMs: settings.nodeTtlMs, log });
  }
  if (settings.driver === 'pusher') {
    if (!settings.appId || !settings.pusher) throw new Error('BROADCAST_DRIVER=pusher needs PUSHER_APP_ID');
    return pusherTransport({ appId: settings.appId, key, secret, ...settings.pusher });
  }
  return embeddedTransport();
}

/**
 * Real time for one process: the transport of the chosen driver, the WebSocket endpoint on the
 * HTTP server's upgrades (embedded and redis), channel signatures, and `broadcast`.
 */
export async function createRealtime(options: {
  db: Db;
  server: Server;
  settings?: RealtimeSettings;
  log: FastifyBaseLogger;
}): Promise<Realtime> {
  const settings = options.settings ?? DEFAULT_REALTIME;
  const { log } = options;
  const { key, secret } = await credentials(options.db, settings);
  const transport = transportFor(settings, key, secret, log);
  const external = settings.driver === 'pusher';
  let hub: Hub | null = null;
  if (external) {
    await transport.start(() => {});
  } else {
    hub = new Hub(transport, {
      key,
      secret,
      activityTimeoutMs: settings.activityTimeoutMs,
      pongTimeoutMs: settings.pongTimeoutMs,
      maxConnections: settings.maxConnections,
      signinTimeoutMs: settings.signinTimeoutMs ?? DEFAULT_REALTIME.signinTimeoutMs,
      // Depot's pages send no client events: a user's would reach every other user on the channel
      clientEvents: false,
      authority: (userId) => channelAuthority(options.db, userId),
      log,
    });
    await hub.start();
  }
  // every upgrade comes here: `/app/{key}` to the endpoint (none with an external server), the rest 404
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (hub?.upgrade(request, socket, head)) return;
    socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  };
  options.server.on('upgrade', onUpgrade);

  return {
    driver: settings.driver,

    async broadcast(channels, event, payload, { exceptSocketId } = {}) {
      const list = [channels].flat();
      const data = JSON.stringify(payload);
      const bad = list.find((c) => !validChannelName(c));
      if (bad !== undefined || event.length > LIMITS.eventName || Buffer.byteLength(data) > LIMITS.broadcastBytes) {
        log.error({ channels: list, event, bytes: Buffer.byteLength(data) }, 'realtime: broadcast refused (limits)');
        return;
      }
      // Pusher's HTTP API takes 100 channels an event
      for (let i = 0; i < list.length; i += LIMITS.broadcastChannels) {
        const batch = list.slice(i, i + LIMITS.broadcastChannels);
        try {
          await transport.publish({ channels: batch, event, data, except: exceptSocketId });
        } catch (error) {
          log.error({ err: error, channels: batch, event }, 'realtime: broadcast failed');
        }
      }
    },

    authorize(asker, socketId, channel) {
      const kind = channelKind(channel);
      if (kind === 'public' || !validChannelName(channel) || !mayListen(asker, channel)) return null;
      if (kind === 'private') return { auth: signChannel(key, secret, signatureSubject(socketId, channel)) };
      const channelData = JSON.stringify(presenceMember(asker));
      return {
        auth: signChannel(key, secret, signatureSubject(socketId, channel, channelData)),
        channel_data: channelData,
      };
    },

    signin(asker, socketId) {
      const userData = JSON.stringify(
        asker.display !== undefined
          ? { id: displaySocketId(asker.display), user_info: {} }
          : { id: String(asker.userId), user_info: { name: asker.name, full_name: asker.fullName } },
      );
      return { auth: signChannel(key, secret, userSignatureSubject(socketId, userData)), user_data: userData };
    },

    async recheck(userIds, { close = false } = {}) {
      if (!userIds.length) return;
      try {
        await transport.publish({
          channels: [],
          event: 'depot_internal:recheck',
          data: null,
          recheck: userIds.map(String),
          ...(close && { close: true }),
        });
      } catch (error) {
        log.error({ err: error, user_ids: userIds }, 'realtime: recheck failed');
      }
    },

    clientConfig() {
      const base = { key, authEndpoint: BROADCASTING_AUTH_PATH, userAuthEndpoint: BROADCASTING_USER_AUTH_PATH };
      if (!external) return { ...base, broadcaster: 'reverb', host: null, port: null, scheme: null, cluster: null };
      const pusher = settings.pusher;
      return {
        ...base,
        broadcaster: 'pusher',
        host: pusher?.host ?? null,
        port: pusher?.port ?? null,
        scheme: pusher?.scheme ?? 'https',
        cluster: pusher?.cluster ?? null,
      };
    },

    get connections() {
      return hub?.connectionCount ?? 0;
    },

    async close() {
      options.server.off('upgrade', onUpgrade);
      if (hub) await hub.close();
      else await transport.close();
    },
  };
}
