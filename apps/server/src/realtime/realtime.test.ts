import { createHmac } from 'node:crypto';
import { appEvent } from '@depot/contracts';
import type Pusher from 'pusher-js';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { now } from '../db/database.ts';
import { bearer, createUser, login, useTestApp } from '../test/harness.ts';
import {
  appSecret,
  connected,
  type Endpoint,
  listening,
  next,
  pusherClient,
  record,
  subscribe,
  subscribePresence,
} from '../test/realtime.ts';

const ctx = useTestApp();
let endpoint: Endpoint;
let storeId: number;
const clients: Pusher[] = [];

beforeAll(async () => {
  endpoint = await listening(ctx.app);
  storeId = (await ctx.db.selectFrom('stores').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
});

afterEach(() => {
  for (const client of clients.splice(0)) client.disconnect();
});

async function staff(roles = ['cashier']) {
  const user = await createUser(ctx.db, { roles });
  const { token } = await login(ctx.app, user.name, user.password);
  return { ...user, token };
}

async function clientOf(token: string) {
  const client = pusherClient(endpoint, token);
  clients.push(client);
  await connected(client);
  return client;
}

async function otherStore() {
  const at = now();
  const { id } = await ctx.db
    .insertInto('stores')
    .values({
      name: 'Siem Reap',
      code: `SR${Math.random().toString(36).slice(2, 6)}`,
      status: 'active',
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** A broadcast after which every earlier delivery to the channel's sockets has arrived (one socket's messages keep their order). */
async function marker(channel: string, listener: Pusher) {
  const arrived = next(listener.channel(channel), appEvent('Marker'));
  await ctx.app.realtime.broadcast(channel, appEvent('Marker'), {});
  await arrived;
}

describe('the real pusher-js client against the embedded endpoint', () => {
  it('connects and gets a socket id of the Pusher form', async () => {
    const user = await staff();
    const client = await clientOf(user.token);
    expect(client.connection.state).toBe('connected');
    expect(client.connection.socket_id).toMatch(/^\d+\.\d+$/);
  });

  it("joins its own private channel (authorized form-encoded, as pusher-js posts) and receives the server's events", async () => {
    const user = await staff();
    const client = await clientOf(user.token);
    const channel = await subscribe(client, `private-App.Models.User.${user.id}`);
    const arrived = next(channel, 'App\\Events\\StockChanged');
    await ctx.app.realtime.broadcast(channel.name, appEvent('StockChanged'), {
      store_id: storeId,
      product_ids: [3, 5],
    });
    expect(await arrived).toEqual({ store_id: storeId, product_ids: [3, 5] });
  });

  it("is refused another user's private channel, a store outside its own and a channel nobody defined", async () => {
    const user = await staff();
    const other = await staff();
    const elsewhere = await otherStore();
    const client = await clientOf(user.token);
    const refused = { type: 'AuthError', status: 403 };
    await expect(subscribe(client, `private-App.Models.User.${other.id}`)).rejects.toMatchObject(refused);
    await expect(subscribe(client, `private-stores.${elsewhere}`)).rejects.toMatchObject(refused);
    await expect(subscribe(client, 'private-anything')).rejects.toMatchObject(refused);
    // its own store it may
    await expect(subscribe(client, `private-stores.${storeId}`)).resolves.toBeTruthy();
  });

  it('follows the stores a user works in (user_stores), not only their home store', async () => {
    const user = await staff();
    const second = await otherStore();
    const client = await clientOf(user.token);
    await expect(subscribe(client, `private-stores.${second}`)).rejects.toMatchObject({ status: 403 });
    // given a second store (what changes a user's stores touches the user: it versions the coverage)
    await ctx.db.insertInto('user_stores').values({ user_id: user.id, store_id: second }).execute();
    await ctx.db
      .updateTable('users')
      .set({ updated_at: new Date(Date.now() + 1000).toISOString() })
      .where('id', '=', user.id)
      .execute();
    await expect(subscribe(client, `private-stores.${second}`)).resolves.toBeTruthy();
    await expect(subscribe(client, `presence-stores.${second}`)).resolves.toBeTruthy();
    // a manager with every store's permission listens to any store
    const manager = await staff(['administrator']);
    const managers = await clientOf(manager.token);
    await expect(subscribe(managers, `private-stores.${await otherStore()}`)).resolves.toBeTruthy();
  });

  it('is refused every private channel without a token: the auth endpoint answers 401', async () => {
    const client = await clientOf('');
    await expect(subscribe(client, `private-stores.${storeId}`)).rejects.toMatchObject({ status: 401 });
  });

  it("counts presence per user: members join on their first tab, leave with their last, and see who's there", async () => {
    const dara = await staff();
    const sokha = await staff();
    const name = `presence-stores.${storeId}`;
    const daraClient = await clientOf(dara.token);
    const daras = await subscribePresence(daraClient, name);
    expect(daras.members.count).toBe(1);
    expect(daras.members.me).toEqual({
      id: dara.id,
      info: { id: dara.id, name: dara.name, full_name: `Test ${dara.name}` },
    });
    const seen = record(daras);

    const added = next<{ id: string; info: { name: string } }>(daras, 'pusher:member_added');
    const firstTab = await clientOf(sokha.token);
    const sokhas = await subscribePresence(firstTab, name);
    expect((await added).info.name).toBe(sokha.name);
    const ids: unknown[] = [];
    sokhas.members.each((m: { id: unknown }) => ids.push(m.id));
    expect(ids.map(String).sort()).toEqual([String(dara.id), String(sokha.id)].sort());

    // a second tab of the same user is the same member
    const secondTab = await clientOf(sokha.token);
    await subscribePresence(secondTab, name);
    expect(sokhas.members.count).toBe(2);

    // closing one of two tabs: nobody left
    const before = ctx.app.realtime.connections;
    firstTab.disconnect();
    await vi.waitFor(() => expect(ctx.app.realtime.connections).toBe(before - 1));
    await marker(name, daraClient);
    expect(seen.map(([event]) => event)).toEqual(['pusher:member_added', 'App\\Events\\Marker']);
    expect(daras.members.count).toBe(2);

    // the last one: Sokha has left
    const removed = next<{ id: unknown }>(daras, 'pusher:member_removed');
    secondTab.unsubscribe(name);
    expect((await removed).id).toBe(sokha.id);
    expect(daras.members.count).toBe(1);
  });

  it('relays client events between members, with the sender on presence channels, never back to the sender', async () => {
    const dara = await staff();
    const sokha = await staff();
    const name = `presence-stores.${storeId}`;
    const daraClient = await clientOf(dara.token);
    const sokhaClient = await clientOf(sokha.token);
    const daras = await subscribePresence(daraClient, name);
    const sokhas = await subscribePresence(sokhaClient, name);
    const daraSaw = record(daras);

    const whisper = new Promise<[unknown, unknown]>((resolve) => {
      sokhas.bind('client-typing', (data: unknown, metadata: unknown) => resolve([data, metadata]));
    });
    expect(daras.trigger('client-typing', { order: 'ORD-1' })).toBe(true);
    expect(await whisper).toEqual([{ order: 'ORD-1' }, { user_id: dara.id }]);
    await marker(name, daraClient);
    expect(daraSaw.map(([event]) => event)).not.toContain('client-typing');

    // and on a private channel, where senders are anonymous
    const a = await subscribe(daraClient, `private-stores.${storeId}`);
    const b = await subscribe(sokhaClient, `private-stores.${storeId}`);
    const heard = next(b, 'client-scan');
    a.trigger('client-scan', { barcode: '8850999320021' });
    expect(await heard).toEqual({ barcode: '8850999320021' });
  });
});

describe('POST /broadcasting/auth', () => {
  const auth = (token: string | null, payload: unknown, headers: Record<string, string> = {}) =>
    ctx.app.inject({
      method: 'POST',
      url: '/broadcasting/auth',
      payload: payload as string,
      headers: { ...(token ? bearer(token) : {}), ...headers },
    });
  let secret: string;
  beforeAll(async () => {
    secret = await appSecret(ctx.db);
  });
  const hmac = (subject: string) => createHmac('sha256', secret).update(subject).digest('hex');

  it('signs socket_id:channel_name with the app secret, from JSON (the spec) or a form (pusher-js)', async () => {
    const user = await staff();
    const channel = `private-App.Models.User.${user.id}`;
    const json = await auth(user.token, { socket_id: '123.456', channel_name: channel });
    expect(json.statusCode).toBe(200);
    expect(json.json()).toEqual({ auth: `${endpoint.key}:${hmac(`123.456:${channel}`)}` });

    const form = await auth(user.token, `socket_id=123.456&channel_name=${encodeURIComponent(channel)}`, {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(form.json()).toEqual(json.json());
  });

  it('adds channel_data (the user id and name) on presence channels, and signs it too', async () => {
    const user = await staff();
    const channel = `presence-stores.${storeId}`;
    const res = await auth(user.token, { socket_id: '1.2', channel_name: channel });
    const body = res.json() as { auth: string; channel_data: string };
    expect(JSON.parse(body.channel_data)).toEqual({
      user_id: user.id,
      user_info: { id: user.id, name: user.name, full_name: `Test ${user.name}` },
    });
    expect(body.auth).toBe(`${endpoint.key}:${hmac(`1.2:${channel}:${body.channel_data}`)}`);
  });

  it('refuses, in the reader’s language, what the user may not listen to', async () => {
    const user = await staff();
    const other = await staff();
    for (const channel of [
      `private-App.Models.User.${other.id}`,
      `private-stores.${await otherStore()}`,
      'presence-x',
      'public-news',
      'private-encrypted-x',
    ]) {
      const res = await auth(user.token, { socket_id: '1.2', channel_name: channel }, { 'x-localization': 'kh' });
      expect(res.statusCode, channel).toBe(403);
      expect(res.json()).toEqual({ message: 'អ្នកមិនមានសិទ្ធិទទួលព័ត៌មានពីប៉ុស្តិ៍នេះទេ។' });
    }
    const en = await auth(user.token, { socket_id: '1.2', channel_name: 'private-x' }, { 'x-localization': 'en' });
    expect(en.json()).toEqual({ message: 'You may not listen to this channel.' });
  });

  it('answers 401 without a token and 422 for a malformed socket id, signing nothing', async () => {
    expect((await auth(null, { socket_id: '1.2', channel_name: 'private-depot' })).statusCode).toBe(401);
    const user = await staff();
    const bad = await auth(user.token, { socket_id: 'abc', channel_name: 'private-depot' }, { 'x-localization': 'en' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toEqual({
      message: 'The given data was invalid.',
      errors: { socket_id: ['The format is not valid.'] },
    });
  });
});
