import { createHmac } from 'node:crypto';
import { appEvent } from '@depot/contracts';
import type Pusher from 'pusher-js';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { now } from '../db/database.ts';
import { ADMIN_PASSWORD, bearer, createUser, login, useTestApp } from '../test/harness.ts';
import {
  appSecret,
  connected,
  type Endpoint,
  listening,
  next,
  pusherClient,
  record,
  signedIn,
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

  it("refuses client events: one user's client-* events on private-depot reach nobody (Pusher's 4301)", async () => {
    const dara = await staff();
    const sokha = await staff();
    const daraClient = await clientOf(dara.token);
    const sokhaClient = await clientOf(sokha.token);
    const sent = await subscribe(daraClient, 'private-depot');
    const heard = record(await subscribe(sokhaClient, 'private-depot'));
    const refusals: unknown[] = [];
    daraClient.connection.bind('error', (error: unknown) => refusals.push(error));
    for (let i = 0; i < 3; i++) sent.trigger('client-forged', { text: 'x'.repeat(1000), i });
    await vi.waitFor(() => expect(refusals).toHaveLength(3));
    expect(refusals[0]).toMatchObject({
      type: 'PusherError',
      data: { code: 4301, message: 'The app does not have client messaging enabled.' },
    });
    await marker('private-depot', sokhaClient);
    expect(heard.map(([event]) => event)).toEqual(['App\\Events\\Marker']);
  });
});

describe('sockets belong to their users (pusher-js signin, /broadcasting/user-auth)', () => {
  const as = (token: string, method: 'PUT' | 'DELETE', url: string, payload?: object) =>
    ctx.app.inject({ method, url, headers: bearer(token), payload });
  let admin: string;
  beforeAll(async () => {
    admin = (await login(ctx.app, 'admin', ADMIN_PASSWORD)).token;
  });

  /** The close code the client's socket was closed with. */
  const closedWith = (client: Pusher) =>
    new Promise<number>((resolve) => {
      client.connection.bind('error', (error: { data?: { code?: number } }) => {
        if (error?.data?.code) resolve(error.data.code);
      });
    });

  it('signs a socket in as the user: user_data names them, signed for that socket', async () => {
    const user = await staff();
    const client = await clientOf(user.token);
    await signedIn(client);
    expect(client.user.user_data).toMatchObject({ id: String(user.id), user_info: { name: user.name } });
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/broadcasting/user-auth',
      headers: bearer(user.token),
      payload: { socket_id: '12.34' },
    });
    const body = res.json() as { auth: string; user_data: string };
    const secret = await appSecret(ctx.db);
    expect(body.auth).toBe(
      `${endpoint.key}:${createHmac('sha256', secret).update(`12.34::user::${body.user_data}`).digest('hex')}`,
    );
    expect(
      (await ctx.app.inject({ method: 'POST', url: '/broadcasting/user-auth', payload: { socket_id: '1.2' } }))
        .statusCode,
    ).toBe(401);
  });

  it('closes the sockets of a user an administrator disables (4009: do not reconnect), and of one deleted', async () => {
    const user = await staff();
    const client = await clientOf(user.token);
    await signedIn(client);
    await subscribe(client, 'private-depot');
    await subscribe(client, `private-App.Models.User.${user.id}`);
    const closed = closedWith(client);
    expect((await as(admin, 'PUT', `/api/users/${user.id}/status`, { status: 'inactive' })).statusCode).toBe(200);
    expect(await closed).toBe(4009);
    await vi.waitFor(() => expect(client.connection.state).not.toBe('connected'));

    const other = await staff();
    const second = await clientOf(other.token);
    await signedIn(second);
    await subscribe(second, 'private-depot');
    const gone = closedWith(second);
    expect((await as(admin, 'DELETE', `/api/users/${other.id}`)).statusCode).toBe(200);
    expect(await gone).toBe(4009);
  });

  it('closes the sockets of a user whose password an administrator resets (their sessions end)', async () => {
    const user = await staff();
    const client = await clientOf(user.token);
    await signedIn(client);
    await subscribe(client, 'private-depot');
    const closed = closedWith(client);
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/users/${user.id}/password`,
      headers: bearer(admin),
      payload: { password: 'Reset-by-admin-7731', password_confirmation: 'Reset-by-admin-7731' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await closed).toBe(4009);
  });

  it('closes the socket of a user who loses a store they listen to (4200: reconnect), who is then refused it', async () => {
    const second = await otherStore();
    const user = await createUser(ctx.db, { roles: ['cashier'], covers: [second] });
    const { token } = await login(ctx.app, user.name, user.password);
    const client = await clientOf(token);
    await signedIn(client);
    await subscribe(client, `private-stores.${second}`);
    const closed = closedWith(client);
    const res = await as(admin, 'PUT', `/api/users/${user.id}/coverage`, {
      store_ids: [storeId],
      operational_district_ids: [],
      health_facility_ids: [],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await closed).toBe(4200);
    await vi.waitFor(() => expect(client.connection.state).toBe('connected'), { timeout: 10_000 });
    await signedIn(client);
    await expect(subscribe(client, `private-stores.${second}`)).rejects.toMatchObject({ status: 403 });
    await expect(subscribe(client, `private-stores.${storeId}`)).resolves.toBeTruthy();
  });

  it('does not let a socket that has not signed in listen to a private channel', async () => {
    const user = await staff();
    const anonymous = pusherClient(endpoint, user.token, { signin: false });
    clients.push(anonymous);
    await connected(anonymous);
    let done = false;
    subscribe(anonymous, 'private-depot').then(
      () => {
        done = true;
      },
      () => {
        done = true;
      },
    );
    const witness = await clientOf((await staff()).token);
    await subscribe(witness, 'private-depot');
    await marker('private-depot', witness);
    expect(done).toBe(false);
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
