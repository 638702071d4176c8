import { createHmac } from 'node:crypto';
import { appEvent } from '@depot/contracts';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { useTestApp } from '../test/harness.ts';
import { appSecret, type Endpoint, listening, RawSocket } from '../test/realtime.ts';
import { DEFAULT_REALTIME } from './realtime.ts';

/**
 * The endpoint at the socket level, for what pusher-js never sends: malformed and oversized
 * messages, forged signatures, silence. Short timeouts and a small connection cap, so those cases
 * happen within a test.
 */
const ctx = useTestApp({
  realtime: {
    ...DEFAULT_REALTIME,
    activityTimeoutMs: 400,
    pongTimeoutMs: 400,
    maxConnections: 6,
    signinTimeoutMs: 2500,
  },
});
let endpoint: Endpoint;
let secret: string;
const sockets: RawSocket[] = [];

beforeAll(async () => {
  endpoint = await listening(ctx.app);
  secret = await appSecret(ctx.db);
});

// every test starts with no connection (the cap counts them)
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.close();
  await vi.waitFor(() => expect(ctx.app.realtime.connections).toBe(0));
});

async function open(query?: string, path?: string) {
  const socket = await RawSocket.open(endpoint, query, path);
  sockets.push(socket);
  return socket;
}

/** The seeded administrator (user 1), as `/broadcasting/user-auth` would name them. */
const ADMIN = JSON.stringify({ id: '1', user_info: { name: 'admin' } });

const sign = (subject: string) => `${endpoint.key}:${createHmac('sha256', secret).update(subject).digest('hex')}`;

describe('connecting', () => {
  it('says hello with a socket id and the activity timeout in seconds', async () => {
    const socket = await open();
    const hello = await socket.next('pusher:connection_established');
    expect(hello.data).toEqual({ socket_id: expect.stringMatching(/^\d+\.\d+$/), activity_timeout: 1 });
  });

  it('refuses an unknown app key (4001: do not reconnect) and a missing or unsupported protocol', async () => {
    const wrongKey = await open(undefined, '/app/not-the-key');
    expect((await wrongKey.next('pusher:error')).data).toEqual({ code: 4001, message: 'Application does not exist' });
    expect((await wrongKey.closed).code).toBe(4001);

    const none = await open('client=js');
    expect((await none.next('pusher:error')).data).toMatchObject({ code: 4008 });
    expect((await none.closed).code).toBe(4008);

    const old = await open('protocol=3');
    expect((await old.next('pusher:error')).data).toEqual({ code: 4007, message: 'Unsupported protocol version' });
    expect((await old.closed).code).toBe(4007);
  });

  it('answers 404 to an upgrade anywhere but /app/{key}', async () => {
    const socket = await open(undefined, '/socket');
    expect(socket.refusal).toBe(404);
  });

  it('turns away connections over the cap with 4100 (reconnect after backing off)', async () => {
    const held: RawSocket[] = [];
    while (ctx.app.realtime.connections < 6) {
      const socket = await open();
      await socket.established();
      held.push(socket);
    }
    const over = await open();
    expect((await over.next('pusher:error')).data).toEqual({ code: 4100, message: 'Over capacity' });
    expect((await over.closed).code).toBe(4100);
  });
});

describe('messages', () => {
  it('answers pusher:ping with pusher:pong', async () => {
    const socket = await open();
    await socket.established();
    socket.send({ event: 'pusher:ping', data: {} });
    expect(await socket.next('pusher:pong')).toEqual({ event: 'pusher:pong', data: {} });
  });

  it('answers bad JSON, a message without an event and an unknown event with 4200, and stays open', async () => {
    const socket = await open();
    await socket.established();
    for (const message of [
      '{not json',
      '[1,2]',
      JSON.stringify({ data: {} }),
      JSON.stringify({ event: 'pusher:dance' }),
      JSON.stringify({ event: 'hello' }),
    ]) {
      socket.send(message);
      expect((await socket.next('pusher:error')).data, message).toEqual({
        code: 4200,
        message: 'Invalid message format',
      });
    }
    await socket.roundTrip();
  });

  it('refuses a message over 10,000 bytes with 4301, and closes on one far over (1009)', async () => {
    const socket = await open();
    await socket.established();
    socket.send({ event: 'client-big', channel: 'private-depot', data: 'x'.repeat(10_000) });
    expect((await socket.next('pusher:error')).data).toEqual({
      code: 4301,
      message: 'The message is larger than the allowed 10000 bytes.',
    });
    await socket.roundTrip();
    socket.send('x'.repeat(100_000));
    expect((await socket.closed).code).toBe(1009);
  });
});

describe('subscribing', () => {
  it('subscribes to a public channel without a signature, and unsubscribes', async () => {
    const socket = await open();
    await socket.established();
    socket.send({ event: 'pusher:subscribe', data: { channel: 'news' } });
    expect(await socket.next('pusher_internal:subscription_succeeded')).toEqual({
      event: 'pusher_internal:subscription_succeeded',
      channel: 'news',
      data: {},
    });
    await ctx.app.realtime.broadcast('news', appEvent('Hello'), { n: 1 });
    expect(await socket.next('App\\Events\\Hello')).toEqual({
      event: 'App\\Events\\Hello',
      channel: 'news',
      data: { n: 1 },
    });
    socket.send({ event: 'pusher:unsubscribe', data: { channel: 'news' } });
    await socket.roundTrip();
    await ctx.app.realtime.broadcast('news', appEvent('Hello'), { n: 2 });
    await socket.roundTrip();
    expect(socket.unread).toEqual([]);
  });

  it('refuses a forged or missing signature, a signature of another socket, and a bad channel name', async () => {
    const socket = await open();
    const id = await socket.established();
    expect((await socket.signin(secret, endpoint.key, ADMIN)).event).toBe('pusher:signin_success');
    const refused = (channel: string) => ({
      event: 'pusher:subscription_error',
      channel,
      data: { type: 'AuthError', error: 'The connection is unauthorized.', status: 401 },
    });
    socket.send({
      event: 'pusher:subscribe',
      data: { channel: 'private-depot', auth: `${endpoint.key}:${'0'.repeat(64)}` },
    });
    expect(await socket.next('pusher:subscription_error')).toEqual(refused('private-depot'));
    socket.send({ event: 'pusher:subscribe', data: { channel: 'private-depot' } });
    expect(await socket.next('pusher:subscription_error')).toEqual(refused('private-depot'));
    socket.send({ event: 'pusher:subscribe', data: { channel: 'private-depot', auth: sign('1.1:private-depot') } });
    expect(await socket.next('pusher:subscription_error')).toEqual(refused('private-depot'));
    socket.send({ event: 'pusher:subscribe', data: { channel: 'bad name!' } });
    expect((await socket.next('pusher:subscription_error')).data).toMatchObject({ type: 'InvalidChannel' });

    // the right one, for this socket, is accepted; sent as a JSON string (as some clients do) too
    socket.send({
      event: 'pusher:subscribe',
      data: JSON.stringify({ channel: 'private-depot', auth: sign(`${id}:private-depot`) }),
    });
    expect((await socket.next('pusher_internal:subscription_succeeded')).channel).toBe('private-depot');
  });

  it('refuses a presence subscription whose signed member has no user_id, is not the signed-in user or has too much user_info', async () => {
    const socket = await open();
    const id = await socket.established();
    await socket.signin(secret, endpoint.key, ADMIN);
    const channel = 'presence-stores.1';
    for (const [member, type] of [
      [{ user_info: { name: 'x' } }, 'AuthError'],
      [{ user_id: 7, user_info: { name: 'x' } }, 'AuthError'],
      [{ user_id: 1, user_info: { name: 'x'.repeat(1200) } }, 'LimitReached'],
    ] as const) {
      const channelData = JSON.stringify(member);
      socket.send({
        event: 'pusher:subscribe',
        data: { channel, auth: sign(`${id}:${channel}:${channelData}`), channel_data: channelData },
      });
      expect((await socket.next('pusher:subscription_error')).data).toMatchObject({ type });
    }
  });
});

describe('client events', () => {
  async function member(channel: string) {
    const socket = await open();
    const id = await socket.established();
    await socket.signin(secret, endpoint.key, ADMIN);
    socket.send({ event: 'pusher:subscribe', data: { channel, auth: sign(`${id}:${channel}`) } });
    await socket.next('pusher_internal:subscription_succeeded');
    return socket;
  }

  it('are refused on public channels, and on private ones: the app sends none (4301)', async () => {
    const socket = await open();
    await socket.established();
    socket.send({ event: 'client-hi', channel: 'news', data: {} });
    expect((await socket.next('pusher:error')).data).toEqual({
      code: 4301,
      message: 'Client event rejected - only supported on private and presence channels',
    });
    socket.send({ event: 'client-hi', channel: 'private-depot', data: {} });
    expect(await socket.next('pusher:error')).toEqual({
      event: 'pusher:error',
      channel: 'private-depot',
      data: { code: 4301, message: 'The app does not have client messaging enabled.' },
    });
  });

  it('reach no other member of the channel', async () => {
    const a = await member('private-stores.1');
    const b = await member('private-stores.1');
    for (let i = 0; i < 3; i++) a.send({ event: 'client-scan', channel: 'private-stores.1', data: { i } });
    for (let i = 0; i < 3; i++) expect((await a.next('pusher:error')).data).toMatchObject({ code: 4301 });
    await ctx.app.realtime.broadcast('private-stores.1', appEvent('Marker'), {});
    await b.next('App\\Events\\Marker');
    expect(b.unread).toEqual([]);
  });
});

describe('signing in (pusher:signin)', () => {
  it('answers signin_success with the user_data signed for this socket, and lets waiting subscriptions through', async () => {
    const socket = await open();
    const id = await socket.established();
    // subscribed before signing in (pusher-js asks for both at once): it waits for the sign-in
    socket.send({ event: 'pusher:subscribe', data: { channel: 'private-depot', auth: sign(`${id}:private-depot`) } });
    await socket.roundTrip();
    expect(socket.unread).toEqual([]);
    expect(await socket.signin(secret, endpoint.key, ADMIN)).toEqual({
      event: 'pusher:signin_success',
      data: { user_data: ADMIN },
    });
    expect((await socket.next('pusher_internal:subscription_succeeded')).channel).toBe('private-depot');
  });

  it('closes a socket whose sign-in is forged (4009, do not reconnect)', async () => {
    const socket = await open();
    await socket.established();
    socket.send({ event: 'pusher:signin', data: { auth: `${endpoint.key}:${'0'.repeat(64)}`, user_data: ADMIN } });
    expect((await socket.next('pusher:error')).data).toEqual({ code: 4009, message: 'Connection not authorized.' });
    expect((await socket.closed).code).toBe(4009);
  });

  it('closes a socket signed in as a user who may not connect (unknown, disabled, deleted)', async () => {
    const socket = await open();
    await socket.established();
    const answer = await socket.signin(secret, endpoint.key, JSON.stringify({ id: '999999' }));
    expect(answer.data).toEqual({ code: 4009, message: 'Connection not authorized.' });
    expect((await socket.closed).code).toBe(4009);
  });

  it('closes a socket that does not sign in within the time (4009)', async () => {
    const socket = await open();
    await socket.established();
    expect((await socket.next('pusher:error')).data).toEqual({
      code: 4009,
      message: 'Connection not authorized within timeout.',
    });
    expect((await socket.closed).code).toBe(4009);
  });
});

describe('the activity timeout', () => {
  it('pings a silent client, and keeps it while it answers', async () => {
    const socket = await open();
    socket.answerPings = false;
    await socket.established();
    expect(await socket.next('pusher:ping')).toEqual({ event: 'pusher:ping', data: {} });
    socket.send({ event: 'pusher:pong', data: {} });
    // answered: pinged again later, not dropped
    expect(await socket.next('pusher:ping')).toEqual({ event: 'pusher:ping', data: {} });
  });

  it('drops a client that does not answer the ping: 4201, reconnect at once', async () => {
    const socket = await open();
    socket.answerPings = false;
    await socket.established();
    await socket.next('pusher:ping');
    expect((await socket.next('pusher:error')).data).toEqual({
      code: 4201,
      message: 'Pong reply not received in time',
    });
    expect((await socket.closed).code).toBe(4201);
  });
});
