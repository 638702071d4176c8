import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';

/**
 * The Pusher Channels protocol (version 7) as Depot's endpoint speaks it: the messages, close codes
 * and limits follow Pusher's documentation, laravel/reverb (`src/Protocols/Pusher`) and soketi
 * (`src/ws-handler.ts`), so pusher-js and laravel-echo behave exactly as against those servers.
 * Written here rather than embedded: soketi needs uWebSockets.js (which fails on Node 20) and Reverb
 * is PHP.
 */

/** Protocol versions whose messages are the ones below (pusher-js 8 sends `?protocol=7`). */
export const PROTOCOL_VERSIONS = [5, 6, 7];

/** Pusher's published limits (and soketi's defaults where Pusher publishes none). */
export const LIMITS = {
  /** One message from a client, in bytes (Reverb's `max_message_size`; Pusher's client-event cap is 10 kB). */
  messageBytes: 10_000,
  /** Pusher: channel names up to 164 characters. */
  channelName: 164,
  /** Pusher: event names up to 200 characters. */
  eventName: 200,
  /** Pusher: 100 members in a presence channel. */
  presenceMembers: 100,
  /** Pusher: a presence member's `user_info` up to 1 kB. */
  userInfoBytes: 1_000,
  /** Pusher: 10 client events a second from one connection. */
  clientEventsPerSecond: 10,
  /** Channels one connection may hold (bounds what one socket can make the server remember). */
  channelsPerConnection: 100,
  /** Pusher's HTTP API: 100 channels and 10 kB of data per event. */
  broadcastChannels: 100,
  broadcastBytes: 10_240,
  /** A client this far behind (bytes queued to it) is dropped rather than buffered without end. */
  backlogBytes: 4 * 1024 * 1024,
};

/**
 * `pusher:error` codes and the close codes that go with them. Pusher's ranges tell the client what
 * to do next: 4000-4099 do not reconnect, 4100-4199 reconnect after backing off, 4200-4299
 * reconnect at once; 4300-4399 are errors that do not close the connection.
 */
export const ERRORS = {
  appNotFound: { code: 4001, message: 'Application does not exist' },
  noProtocol: { code: 4008, message: 'No protocol version supplied' },
  unsupportedProtocol: { code: 4007, message: 'Unsupported protocol version' },
  overCapacity: { code: 4100, message: 'Over capacity' },
  closing: { code: 4200, message: 'Server is closing. Please reconnect shortly.' },
  invalidMessage: { code: 4200, message: 'Invalid message format' },
  pongTimeout: { code: 4201, message: 'Pong reply not received in time' },
  messageTooLarge: { code: 4301, message: `The message is larger than the allowed ${LIMITS.messageBytes} bytes.` },
  eventNameTooLong: { code: 4301, message: `Event name is too long. Maximum allowed size is ${LIMITS.eventName}.` },
  clientEventRate: { code: 4301, message: 'Client event rejected due to rate limit' },
  clientEventChannel: {
    code: 4301,
    message: 'Client event rejected - only supported on private and presence channels',
  },
  notMember: { code: 4009, message: 'The client is not a member of the specified channel.' },
  /** Depot's pages send no client events (soketi's and Reverb's words for an app without them). */
  clientEventsDisabled: { code: 4301, message: 'The app does not have client messaging enabled.' },
  /** A `pusher:signin` whose signature or user data does not hold, or a user who may no longer connect. */
  unauthorized: { code: 4009, message: 'Connection not authorized.' },
  /** Pusher's user authentication: a connection that did not sign in within the time is closed. */
  signinTimeout: { code: 4009, message: 'Connection not authorized within timeout.' },
  /** What the user may listen to changed (a store taken away): reconnect, and subscribe again. */
  accessChanged: { code: 4200, message: 'Your access changed. Please reconnect.' },
} as const;

export type ErrorName = keyof typeof ERRORS;

/** The `data` of a `pusher:subscription_error` (soketi's shape; Echo's `.error(cb)` receives it). */
export const SUBSCRIPTION_ERRORS = {
  invalidName: { type: 'InvalidChannel', error: 'The channel name is not valid.', status: 4009 },
  tooMany: {
    type: 'LimitReached',
    error: `A connection may subscribe to ${LIMITS.channelsPerConnection} channels at most.`,
    status: 4100,
  },
  unauthorized: { type: 'AuthError', error: 'The connection is unauthorized.', status: 401 },
  presenceFull: {
    type: 'LimitReached',
    error: 'The maximum members per presence channel limit was reached',
    status: 4100,
  },
  memberTooLarge: {
    type: 'LimitReached',
    error: `The maximum size for a channel member is ${LIMITS.userInfoBytes} bytes.`,
    status: 4301,
  },
} as const;

export type ChannelKind = 'public' | 'private' | 'presence';

export function channelKind(name: string): ChannelKind {
  if (name.startsWith('presence-')) return 'presence';
  if (name.startsWith('private-')) return 'private';
  return 'public';
}

/** Pusher's naming convention: letters, digits and `-_=@,.;`, up to 164 characters. */
export function validChannelName(name: unknown): name is string {
  return typeof name === 'string' && name.length <= LIMITS.channelName && /^[-a-zA-Z0-9_=@,.;]+$/.test(name);
}

/** A socket id of Pusher's form, `\d+.\d+`. */
export function newSocketId(): string {
  return `${randomInt(1, 2 ** 47)}.${randomInt(1, 2 ** 47)}`;
}

/**
 * A message as the protocol frames it. `data` travels as a JSON string (pusher-js parses it back),
 * except a client event's, which is relayed as the client sent it.
 */
export function frame(event: string, data?: unknown, channel?: string, userId?: unknown): string {
  const message: Record<string, unknown> = { event };
  if (channel !== undefined) message.channel = channel;
  if (data !== undefined) message.data = typeof data === 'string' ? data : JSON.stringify(data);
  if (userId !== undefined) message.user_id = userId;
  return JSON.stringify(message);
}

export function errorFrame(name: ErrorName): string {
  return frame('pusher:error', ERRORS[name]);
}

/** What `/broadcasting/auth` signs: `socket_id:channel_name[:channel_data]`. */
export function signatureSubject(socketId: string, channel: string, channelData?: string): string {
  return channelData === undefined ? `${socketId}:${channel}` : `${socketId}:${channel}:${channelData}`;
}

/** What `/broadcasting/user-auth` signs (Pusher's user authentication): `socket_id::user::user_data`. */
export function userSignatureSubject(socketId: string, userData: string): string {
  return `${socketId}::user::${userData}`;
}

/** `key:hmac`, the `auth` string a client presents when it subscribes (HMAC-SHA256 with the app secret). */
export function signChannel(key: string, secret: string, subject: string): string {
  return `${key}:${createHmac('sha256', secret).update(subject).digest('hex')}`;
}

/** Checks an `auth` string in constant time, so its bytes cannot be guessed one by one. */
export function verifyChannel(key: string, secret: string, subject: string, auth: unknown): boolean {
  if (typeof auth !== 'string') return false;
  const expected = Buffer.from(signChannel(key, secret, subject));
  const given = Buffer.from(auth);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
