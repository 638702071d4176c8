import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import {
  channelKind,
  ERRORS,
  type ErrorName,
  errorFrame,
  frame,
  LIMITS,
  newSocketId,
  PROTOCOL_VERSIONS,
  SUBSCRIPTION_ERRORS,
  signatureSubject,
  userSignatureSubject,
  validChannelName,
  verifyChannel,
} from './protocol.ts';
import type { Envelope, Member, Transport } from './transport.ts';

export interface HubOptions {
  key: string;
  secret: string;
  /** Silence after which the server pings a client (and the `activity_timeout` it announces). */
  activityTimeoutMs: number;
  /** How long a pinged client has to answer before it is dropped (close code 4201). */
  pongTimeoutMs: number;
  /** Whether clients may send `client-*` events (Depot's pages send none: off). */
  clientEvents: boolean;
  /** Connections this process holds at most; the next is refused with 4100 (reconnect after backing off). */
  maxConnections: number;
  /**
   * How long a connection has to sign in (`pusher:signin`, Pusher's user authentication) before it
   * is closed (4009): every socket belongs to a user, so a user's sockets can be closed.
   */
  signinTimeoutMs: number;
  /**
   * What a signed-in user may listen to now: a test of channel names, or null when the user may no
   * longer connect (disabled, deleted). Asked at sign-in and again when their rights change.
   */
  authority: (userId: string) => Promise<((channel: string) => boolean) | null>;
  log: FastifyBaseLogger;
}

/** The user a connection signed in as, and what they may listen to. */
interface SignedIn {
  id: string;
  mayListen: (channel: string) => boolean;
}

/** What a connection holds on one channel: on a presence channel, who it is there as. */
interface Subscription {
  userKey?: string;
  userId?: unknown;
}

class Connection {
  readonly id = newSocketId();
  readonly subscriptions = new Map<string, Subscription>();
  readonly openedAt = Date.now();
  /** Who the connection signed in as (`pusher:signin`); private and presence channels wait for it. */
  user: SignedIn | null = null;
  /** Subscriptions to private and presence channels that came before the sign-in, handled after it. */
  pending: Record<string, unknown>[] = [];
  lastSeen = Date.now();
  pingedAt = 0;
  /** The connection's messages are handled one after another, its close last of all. */
  queue: Promise<void> = Promise.resolve();
  private windowStart = 0;
  private clientEvents = 0;

  constructor(readonly ws: WebSocket) {}

  touch(): void {
    this.lastSeen = Date.now();
    this.pingedAt = 0;
  }

  send(data: string | Buffer): void {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    // a client that stopped reading: drop it rather than keep its backlog in memory
    if (this.ws.bufferedAmount > LIMITS.backlogBytes) {
      this.ws.terminate();
      return;
    }
    this.ws.send(data, { binary: false });
  }

  error(name: ErrorName): void {
    this.send(errorFrame(name));
  }

  /** Pusher's limit: ten client events a second. */
  allowClientEvent(now = Date.now()): boolean {
    if (now - this.windowStart >= 1000) {
      this.windowStart = now;
      this.clientEvents = 0;
    }
    this.clientEvents += 1;
    return this.clientEvents <= LIMITS.clientEventsPerSecond;
  }
}

function parse(raw: RawData): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(raw.toString());
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** `data` as pusher-js sends it (an object) or as some clients do (a JSON string). */
function dataOf(message: Record<string, unknown>): Record<string, unknown> {
  let data = message.data;
  if (typeof data === 'string') {
    try {
      data = JSON.parse(data);
    } catch {
      return {};
    }
  }
  return data && typeof data === 'object' ? (data as Record<string, unknown>) : {};
}

/** A presence channel's signed `channel_data`: an object with a `user_id`. */
function memberOf(channelData: string): Member | null {
  try {
    const value = JSON.parse(channelData) as Record<string, unknown>;
    const id = value?.user_id;
    if ((typeof id !== 'string' && typeof id !== 'number') || id === '') return null;
    return { user_id: id, user_info: value.user_info };
  } catch {
    return null;
  }
}

/**
 * The WebSocket endpoint (`/app/{key}`) and this process's sockets: who is connected, who listens
 * to which channel, and the delivery of what the transport hands over.
 */
export class Hub {
  private readonly connections = new Map<string, Connection>();
  private readonly channels = new Map<string, Set<Connection>>();
  private readonly wss = new WebSocketServer({
    noServer: true,
    // a message over the protocol's limit is answered with a pusher:error; one far over it (which
    // ws would have to buffer) closes the connection (1009)
    maxPayload: LIMITS.messageBytes * 8,
    perMessageDeflate: false,
    clientTracking: false,
  });
  private sweeper: NodeJS.Timeout | undefined;
  private closing = false;

  constructor(
    private readonly transport: Transport,
    private readonly options: HubOptions,
  ) {}

  async start(): Promise<void> {
    await this.transport.start((envelope) => this.deliver(envelope));
    const every = Math.min(
      5000,
      Math.max(50, Math.min(this.options.activityTimeoutMs, this.options.pongTimeoutMs) / 4),
    );
    this.sweeper = setInterval(() => this.sweep(), every);
    this.sweeper.unref();
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  /** Takes an HTTP upgrade to `/app/{key}`; false for any other path (the caller refuses it). */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const match = /^\/app\/([^/]+)\/?$/.exec(url.pathname);
    if (!match) return false;
    this.wss.handleUpgrade(request, socket, head, (ws) =>
      this.open(ws, decodeURIComponent(match[1]), url.searchParams),
    );
    return true;
  }

  /** Why a new connection is turned away, if it is (Pusher's codes: the client knows whether to retry). */
  private refusal(key: string, params: URLSearchParams): [ErrorName, number] | null {
    if (this.closing) return ['closing', 4200];
    if (key !== this.options.key) return ['appNotFound', 4001];
    if (!params.has('protocol')) return ['noProtocol', 4008];
    if (!PROTOCOL_VERSIONS.includes(Number(params.get('protocol')))) return ['unsupportedProtocol', 4007];
    if (this.connections.size >= this.options.maxConnections) return ['overCapacity', 4100];
    return null;
  }

  private open(ws: WebSocket, key: string, params: URLSearchParams): void {
    const refusal = this.refusal(key, params);
    if (refusal) {
      ws.send(errorFrame(refusal[0]));
      ws.close(refusal[1]);
      return;
    }
    const connection = new Connection(ws);
    this.connections.set(connection.id, connection);
    const run = (task: () => Promise<void>) => {
      connection.queue = connection.queue.then(task).catch((error: unknown) => {
        this.options.log.error({ err: error, socket_id: connection.id }, 'realtime: message failed');
      });
    };
    ws.on('message', (raw) => {
      connection.touch();
      run(() => this.handle(connection, raw));
    });
    ws.on('pong', () => connection.touch());
    ws.on('error', (error) =>
      this.options.log.debug({ err: error, socket_id: connection.id }, 'realtime: socket error'),
    );
    ws.on('close', () => run(() => this.disconnect(connection)));
    connection.send(
      frame('pusher:connection_established', {
        socket_id: connection.id,
        activity_timeout: Math.max(1, Math.ceil(this.options.activityTimeoutMs / 1000)),
      }),
    );
  }

  private async handle(connection: Connection, raw: RawData): Promise<void> {
    const size = Array.isArray(raw) ? raw.reduce((n, b) => n + b.length, 0) : (raw as Buffer).byteLength;
    if (size > LIMITS.messageBytes) return connection.error('messageTooLarge');
    const message = parse(raw);
    if (!message || typeof message.event !== 'string') return connection.error('invalidMessage');
    const { event } = message;
    if (event === 'pusher:ping') return connection.send(frame('pusher:pong', {}));
    if (event === 'pusher:pong') return;
    if (event === 'pusher:signin') return this.signin(connection, dataOf(message));
    if (event === 'pusher:subscribe') return this.subscribe(connection, dataOf(message));
    if (event === 'pusher:unsubscribe') {
      const { channel } = dataOf(message);
      if (typeof channel === 'string') await this.leave(connection, channel);
      return;
    }
    if (event.startsWith('client-')) return this.clientEvent(connection, message, event);
    return connection.error('invalidMessage');
  }

  private subscriptionError(connection: Connection, channel: string, name: keyof typeof SUBSCRIPTION_ERRORS): void {
    connection.send(frame('pusher:subscription_error', SUBSCRIPTION_ERRORS[name], channel));
  }

  private add(connection: Connection, channel: string, subscription: Subscription): void {
    connection.subscriptions.set(channel, subscription);
    let listeners = this.channels.get(channel);
    if (!listeners) {
      listeners = new Set();
      this.channels.set(channel, listeners);
    }
    listeners.add(connection);
  }

  private async succeeded(connection: Connection, channel: string): Promise<void> {
    if (channelKind(channel) !== 'presence') {
      return connection.send(frame('pusher_internal:subscription_succeeded', {}, channel));
    }
    const members = [...(await this.transport.presence.members(channel)).values()];
    const presence = {
      count: members.length,
      ids: members.map((m) => m.user_id),
      hash: Object.fromEntries(members.map((m) => [String(m.user_id), m.user_info ?? null])),
    };
    connection.send(frame('pusher_internal:subscription_succeeded', { presence }, channel));
  }

  private async subscribe(connection: Connection, data: Record<string, unknown>): Promise<void> {
    const { channel } = data;
    if (typeof channel !== 'string') return connection.error('invalidMessage');
    if (!validChannelName(channel)) return this.subscriptionError(connection, channel, 'invalidName');
    // subscribing again (pusher-js does after a reconnect of the channel) only confirms
    if (connection.subscriptions.has(channel)) return this.succeeded(connection, channel);
    if (connection.subscriptions.size >= LIMITS.channelsPerConnection) {
      return this.subscriptionError(connection, channel, 'tooMany');
    }
    const kind = channelKind(channel);
    if (kind === 'public') {
      this.add(connection, channel, {});
      return this.succeeded(connection, channel);
    }
    // a private or presence channel is a user's: it waits for the connection's sign-in (pusher-js
    // asks for both at once, so the subscription may come first)
    if (!connection.user) {
      if (connection.pending.length >= LIMITS.channelsPerConnection) {
        return this.subscriptionError(connection, channel, 'tooMany');
      }
      connection.pending.push(data);
      return;
    }
    const channelData = kind === 'presence' ? data.channel_data : undefined;
    if (kind === 'presence' && typeof channelData !== 'string') {
      return this.subscriptionError(connection, channel, 'unauthorized');
    }
    const subject = signatureSubject(connection.id, channel, channelData as string | undefined);
    if (!verifyChannel(this.options.key, this.options.secret, subject, data.auth)) {
      return this.subscriptionError(connection, channel, 'unauthorized');
    }
    // signed for this socket, and the user it signed in as may listen there now (a signature got
    // by one user is no use on another's socket, nor after the user lost the channel)
    if (!connection.user.mayListen(channel)) {
      // the rights read at sign-in may be older than the signature, which was made from the user's
      // rights at its request (a store given since): read them again once before refusing
      const now = await this.options.authority(connection.user.id);
      if (!now?.(channel)) return this.subscriptionError(connection, channel, 'unauthorized');
      connection.user.mayListen = now;
    }
    if (kind === 'private') {
      this.add(connection, channel, {});
      return this.succeeded(connection, channel);
    }

    const member = memberOf(channelData as string);
    // a presence member is the user the connection signed in as, nobody else
    if (!member || String(member.user_id) !== connection.user.id) {
      return this.subscriptionError(connection, channel, 'unauthorized');
    }
    if (Buffer.byteLength(JSON.stringify(member.user_info ?? null)) > LIMITS.userInfoBytes) {
      return this.subscriptionError(connection, channel, 'memberTooLarge');
    }
    const userKey = String(member.user_id);
    const present = await this.transport.presence.members(channel);
    if (!present.has(userKey) && present.size >= LIMITS.presenceMembers) {
      return this.subscriptionError(connection, channel, 'presenceFull');
    }
    this.add(connection, channel, { userKey, userId: member.user_id });
    if (await this.transport.presence.join(channel, userKey, member)) {
      await this.transport.publish({
        channels: [channel],
        event: 'pusher_internal:member_added',
        data: JSON.stringify({ user_id: member.user_id, user_info: member.user_info }),
        except: connection.id,
      });
    }
    return this.succeeded(connection, channel);
  }

  /**
   * `pusher:signin` (Pusher's user authentication): `user_data` signed for this socket by
   * `/broadcasting/user-auth`, with the user's `id`. Answers `pusher:signin_success`, then handles
   * the subscriptions that waited for it. A bad signature, or a user who may not connect: 4009, closed.
   */
  private async signin(connection: Connection, data: Record<string, unknown>): Promise<void> {
    const { auth, user_data: userData } = data;
    if (connection.user) return connection.send(frame('pusher:signin_success', { user_data: userData }));
    let id: unknown;
    try {
      id = typeof userData === 'string' ? (JSON.parse(userData) as Record<string, unknown>)?.id : undefined;
    } catch {
      id = undefined;
    }
    const subject = typeof userData === 'string' ? userSignatureSubject(connection.id, userData) : '';
    const valid =
      typeof id === 'string' && id !== '' && verifyChannel(this.options.key, this.options.secret, subject, auth);
    const mayListen = valid ? await this.options.authority(id as string) : null;
    if (!mayListen) return this.refuse(connection, 'unauthorized', 4009);
    connection.user = { id: id as string, mayListen };
    connection.send(frame('pusher:signin_success', { user_data: userData }));
    const waiting = connection.pending.splice(0);
    for (const subscription of waiting) await this.subscribe(connection, subscription);
  }

  /** Tells the client why and closes its connection. */
  private refuse(connection: Connection, name: ErrorName, code: number): void {
    connection.error(name);
    connection.ws.close(code);
  }

  /**
   * These users' rights changed: each of this process's sockets signed in as one of them is asked
   * again (`close`: none is asked, all are closed: the user's sessions ended). A user who may no
   * longer connect is closed (4009: do not reconnect); one who lost a
   * channel they listen to is closed with 4200 (reconnect: their client signs in and subscribes
   * again, and is refused what they lost); the others keep listening, with their new rights.
   */
  async recheck(userIds: readonly string[], close = false): Promise<void> {
    const wanted = new Set(userIds);
    const affected = [...this.connections.values()].filter((c) => c.user && wanted.has(c.user.id));
    const rights = new Map<string, Promise<((channel: string) => boolean) | null>>();
    for (const connection of affected) {
      const id = (connection.user as SignedIn).id;
      if (!close && !rights.has(id)) rights.set(id, this.options.authority(id));
      const mayListen = close ? null : await rights.get(id);
      if (!mayListen) {
        this.refuse(connection, 'unauthorized', 4009);
        continue;
      }
      if ([...connection.subscriptions.keys()].some((c) => channelKind(c) !== 'public' && !mayListen(c))) {
        this.refuse(connection, 'accessChanged', 4200);
        continue;
      }
      (connection.user as SignedIn).mayListen = mayListen;
    }
  }

  private async leave(connection: Connection, channel: string): Promise<void> {
    const subscription = connection.subscriptions.get(channel);
    if (!subscription) return;
    connection.subscriptions.delete(channel);
    const listeners = this.channels.get(channel);
    listeners?.delete(connection);
    if (listeners?.size === 0) this.channels.delete(channel);
    if (subscription.userKey === undefined) return;
    if (await this.transport.presence.leave(channel, subscription.userKey)) {
      await this.transport.publish({
        channels: [channel],
        event: 'pusher_internal:member_removed',
        data: JSON.stringify({ user_id: subscription.userId }),
        except: connection.id,
      });
    }
  }

  /**
   * `client-*` events: refused unless the hub accepts them (`clientEvents`; Depot's pages send none);
   * then private and presence channels only, from a member, never back to the sender.
   */
  private async clientEvent(connection: Connection, message: Record<string, unknown>, event: string): Promise<void> {
    if (event.length > LIMITS.eventName) return connection.error('eventNameTooLong');
    const { channel } = message;
    if (typeof channel !== 'string' || channelKind(channel) === 'public') return connection.error('clientEventChannel');
    // Depot's pages send none: a client event would reach every other user on the channel
    if (!this.options.clientEvents) {
      return connection.send(frame('pusher:error', ERRORS.clientEventsDisabled, channel));
    }
    const subscription = connection.subscriptions.get(channel);
    if (!subscription) return connection.error('notMember');
    if (!connection.allowClientEvent()) return connection.error('clientEventRate');
    await this.transport.publish({
      channels: [channel],
      event,
      data: message.data,
      except: connection.id,
      userId: subscription.userId,
    });
  }

  private async disconnect(connection: Connection): Promise<void> {
    if (!this.connections.delete(connection.id)) return;
    for (const channel of [...connection.subscriptions.keys()]) await this.leave(connection, channel);
  }

  /** Sends an envelope to this process's sockets on its channels (one encoding per channel). */
  deliver(envelope: Envelope): void {
    if (envelope.recheck) {
      this.recheck(envelope.recheck, envelope.close === true).catch((error: unknown) =>
        this.options.log.error({ err: error }, 'realtime: recheck failed'),
      );
      return;
    }
    for (const channel of envelope.channels) {
      const listeners = this.channels.get(channel);
      if (!listeners?.size) continue;
      const message: Record<string, unknown> = { event: envelope.event, channel, data: envelope.data };
      if (envelope.userId !== undefined) message.user_id = envelope.userId;
      const encoded = Buffer.from(JSON.stringify(message));
      for (const connection of listeners) {
        if (connection.id !== envelope.except) connection.send(encoded);
      }
    }
  }

  /** Pings the silent, drops those who did not answer (Pusher: 4201, reconnect at once). */
  private sweep(now = Date.now()): void {
    for (const connection of this.connections.values()) {
      if (!connection.user && now - connection.openedAt >= this.options.signinTimeoutMs) {
        this.refuse(connection, 'signinTimeout', 4009);
        continue;
      }
      if (connection.pingedAt) {
        if (now - connection.pingedAt >= this.options.pongTimeoutMs) {
          connection.error('pongTimeout');
          connection.ws.close(4201);
        }
      } else if (now - connection.lastSeen >= this.options.activityTimeoutMs) {
        connection.pingedAt = now;
        connection.send(frame('pusher:ping', {}));
      }
    }
  }

  /** Tells every client to come back shortly (4200), leaves their presence channels, stops the transport. */
  async close(): Promise<void> {
    this.closing = true;
    clearInterval(this.sweeper);
    const connections = [...this.connections.values()];
    for (const connection of connections) {
      connection.error('closing');
      connection.ws.close(4200);
    }
    const left = Promise.all(connections.map((c) => c.queue.then(() => this.disconnect(c))));
    await Promise.race([left, new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
    for (const connection of connections) connection.ws.terminate();
    await this.transport.close();
  }
}
