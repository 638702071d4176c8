import { createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import Pusher, { type Channel, type PresenceChannel } from 'pusher-js';
import WebSocket from 'ws';
import type { Db } from '../db/database.ts';

/** A server on a real port, as clients reach it: its HTTP base, its port and the app key. */
export interface Endpoint {
  base: string;
  port: number;
  key: string;
}

/** Listens on a free port (once per app) and says where. */
export async function listening(app: FastifyInstance): Promise<Endpoint> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, port, key: app.realtime.clientConfig().key };
}

/** The app secret the server generated and signs with (for tests that sign what no client would). */
export async function appSecret(db: Db): Promise<string> {
  const row = await db
    .selectFrom('app_secrets')
    .select('value')
    .where('name', '=', 'broadcasting.app_secret')
    .executeTakeFirstOrThrow();
  return row.value;
}

/**
 * The real pusher-js client, as the web app configures it (Depot's endpoint over plain ws, the
 * bearer token for `/broadcasting/auth` and `/broadcasting/user-auth`, which pusher-js posts
 * form-encoded), signed in as its user once connected (`signin`: false leaves it anonymous).
 */
export function pusherClient(endpoint: Endpoint, token?: string, { signin = true } = {}): Pusher {
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  const client = new Pusher(endpoint.key, {
    cluster: 'depot',
    wsHost: '127.0.0.1',
    wsPort: endpoint.port,
    forceTLS: false,
    enabledTransports: ['ws'],
    disableStats: true,
    channelAuthorization: { endpoint: `${endpoint.base}/broadcasting/auth`, transport: 'ajax', headers },
    userAuthentication: { endpoint: `${endpoint.base}/broadcasting/user-auth`, transport: 'ajax', headers },
  });
  if (signin) client.signin();
  return client;
}

/** Resolves once the server has signed the client in (`pusher:signin_success`). */
export function signedIn(client: Pusher): Promise<void> {
  return new Promise((resolve) => {
    if (client.user.user_data) return resolve();
    client.bind('pusher:signin_success', () => resolve());
  });
}

/** Resolves with the socket id once connected. */
export function connected(client: Pusher): Promise<string> {
  return new Promise((resolve, reject) => {
    if (client.connection.state === 'connected') return resolve(client.connection.socket_id);
    client.connection.bind('connected', () => resolve(client.connection.socket_id));
    client.connection.bind('failed', () => reject(new Error('connection failed')));
  });
}

/** Subscribes and resolves when the server confirms; rejects with the subscription error's data. */
export function subscribe<C extends Channel = Channel>(client: Pusher, name: string): Promise<C> {
  return new Promise((resolve, reject) => {
    const channel = client.subscribe(name) as C;
    channel.bind('pusher:subscription_succeeded', () => resolve(channel));
    channel.bind('pusher:subscription_error', (error: unknown) => reject(error));
  });
}

export const subscribePresence = (client: Pusher, name: string) => subscribe<PresenceChannel>(client, name);

/** The next time the event arrives on the channel, its data. */
export function next<T = unknown>(channel: Channel, event: string): Promise<T> {
  return new Promise((resolve) => {
    const handler = (data: T) => {
      channel.unbind(event, handler);
      resolve(data);
    };
    channel.bind(event, handler);
  });
}

/** Everything that arrives on the channel from now on, as `[event, data]`. */
export function record(channel: Channel): [string, unknown][] {
  const seen: [string, unknown][] = [];
  channel.bind_global((event: string, data: unknown) => seen.push([event, data]));
  return seen;
}

export interface Frame {
  event: string;
  channel?: string;
  data?: unknown;
  user_id?: unknown;
}

/** A raw WebSocket to the endpoint, for what pusher-js would never send. */
export class RawSocket {
  readonly ws: WebSocket;
  private readonly inbox: Frame[] = [];
  private readonly waiting: { match: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
  readonly closed: Promise<{ code: number }>;

  constructor(url: string) {
    this.ws = new WebSocket(url);
    this.ws.on('error', () => {}); // a refused upgrade; `closed` and `refusal` tell
    this.ws.on('message', (raw) => {
      const message = JSON.parse(raw.toString()) as Frame;
      if (typeof message.data === 'string') {
        try {
          message.data = JSON.parse(message.data);
        } catch {
          // a string it stays
        }
      }
      // a live client answers the server's pings (the activity-timeout tests turn this off)
      if (message.event === 'pusher:ping' && this.answerPings) {
        this.send({ event: 'pusher:pong', data: {} });
        return;
      }
      const i = this.waiting.findIndex((w) => w.match(message));
      if (i >= 0) this.waiting.splice(i, 1)[0].resolve(message);
      else this.inbox.push(message);
    });
    this.closed = new Promise((resolve) => this.ws.on('close', (code) => resolve({ code })));
  }

  /** Connected (or refused at the upgrade: then `refusal` holds the HTTP status). */
  static async open(endpoint: Endpoint, query = 'protocol=7&client=js&version=8.6.0', path = `/app/${endpoint.key}`) {
    const socket = new RawSocket(`ws://127.0.0.1:${endpoint.port}${path}?${query}`);
    await new Promise<void>((resolve) => {
      socket.ws.once('open', () => resolve());
      socket.ws.once('unexpected-response', (request, response) => {
        socket.refusal = response.statusCode ?? 0;
        request.destroy();
        resolve();
      });
    });
    return socket;
  }

  refusal: number | null = null;
  answerPings = true;

  /** The next frame (of this event, or matching), received already or to come. */
  next(match: string | ((f: Frame) => boolean) = () => true): Promise<Frame> {
    const test = typeof match === 'string' ? (f: Frame) => f.event === match : match;
    const i = this.inbox.findIndex(test);
    if (i >= 0) return Promise.resolve(this.inbox.splice(i, 1)[0]);
    return new Promise((resolve) => this.waiting.push({ match: test, resolve }));
  }

  /** Frames received and not taken by `next`. */
  get unread(): readonly Frame[] {
    return this.inbox;
  }

  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  private socketId: Promise<string> | null = null;

  /** The socket id, once the server has said hello. */
  established(): Promise<string> {
    this.socketId ??= this.next('pusher:connection_established').then(
      (hello) => (hello.data as { socket_id: string }).socket_id,
    );
    return this.socketId;
  }

  /**
   * Signs the socket in as a user, with `user_data` signed by the app secret as
   * `/broadcasting/user-auth` would (tests sign what they like): the next frame is the answer.
   */
  async signin(secret: string, key: string, userData: string): Promise<Frame> {
    const id = await this.established();
    const auth = `${key}:${createHmac('sha256', secret).update(`${id}::user::${userData}`).digest('hex')}`;
    this.send({ event: 'pusher:signin', data: { auth, user_data: userData } });
    return this.next((f) => f.event === 'pusher:signin_success' || f.event === 'pusher:error');
  }

  /** Pings and waits for the pong: everything this socket sent before has been handled by then. */
  async roundTrip(): Promise<void> {
    this.send({ event: 'pusher:ping', data: {} });
    await this.next('pusher:pong');
  }

  close(): void {
    this.ws.close();
  }
}
