import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Pusher from 'pusher-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, type RunningServer, startServer } from '../../../../bench/server.ts';
import { createDatabase } from '../db/database.ts';
import { createUser, TEST_DB } from '../test/harness.ts';
import {
  connected,
  type Endpoint,
  next,
  pusherClient,
  record,
  signedIn,
  subscribe,
  subscribePresence,
} from '../test/realtime.ts';

/**
 * Two Depot processes on one database and one Redis (BROADCAST_DRIVER=redis), as behind a load
 * balancer: what one process broadcasts reaches the other's sockets, client events cross, presence
 * is counted across both, and a process that dies takes its members with it.
 */
const REDIS_URL = process.env.REDIS_URL_TEST ?? 'redis://127.0.0.1:6379';
const PASSWORD = 'admin-pass-123';
let a: RunningServer;
let b: RunningServer;
let atA: Endpoint;
let atB: Endpoint;
let cleanup: () => Promise<void>;
let admin: { id: number; token: string };
let cashier: { id: number; token: string };
let leavingUser: { name: string; password: string };
const clients: Pusher[] = [];

async function signIn(server: RunningServer, name: string, password: string) {
  const res = await fetch(`${server.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, password }),
  });
  const body = (await res.json()) as { token: string; user_info: { id: number } };
  return { id: body.user_info.id, token: body.token };
}

beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'depot-processes-'));
  const pgDb = TEST_DB === 'postgres' ? await createPostgresDatabase() : undefined;
  const databaseUrl = pgDb?.url ?? `sqlite:${path.join(dir, 'depot.sqlite')}`;
  // a silent process is gone after a second (15 by default), so the crash below is seen at once
  const env = { BROADCAST_DRIVER: 'redis', REDIS_URL, REALTIME_NODE_TTL: '1' };
  // one after the other: the first creates the database and its key, the second finds them
  a = await startServer({ databaseUrl, adminPassword: PASSWORD, env });
  b = await startServer({ databaseUrl, adminPassword: PASSWORD, env });

  const database = createDatabase(databaseUrl);
  const key = await database.db
    .selectFrom('app_secrets')
    .select('value')
    .where('name', '=', 'broadcasting.app_key')
    .executeTakeFirstOrThrow();
  const user = await createUser(database.db, { roles: ['cashier'] });
  leavingUser = await createUser(database.db, { roles: ['cashier'] });
  await database.close();
  atA = { base: a.url, port: a.port, key: key.value };
  atB = { base: b.url, port: b.port, key: key.value };
  admin = await signIn(a, 'admin', PASSWORD);
  cashier = await signIn(b, user.name, user.password);
  cleanup = async () => {
    await a.stop();
    await b.stop();
    await pgDb?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}, 120_000);

afterEach(() => {
  for (const client of clients.splice(0)) client.disconnect();
});

afterAll(async () => {
  await cleanup?.();
});

async function clientAt(endpoint: Endpoint, token: string) {
  const client = pusherClient(endpoint, token);
  clients.push(client);
  await connected(client);
  return client;
}

describe('two processes with one Redis', () => {
  it('deliver to a socket on one process what the other broadcast', async () => {
    const client = await clientAt(atA, admin.token);
    const channel = await subscribe(client, `private-App.Models.User.${admin.id}`);
    const arrived = next(channel, 'App\\Events\\NotificationsUpdated');
    // process B broadcasts the user's unread count after marking all read
    const res = await fetch(`${b.url}/api/notifications/read-all`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(res.status).toBe(200);
    expect(await arrived).toEqual({ unread: 0 });
  });

  it('close, on one process, the sockets of a user disabled through the other', async () => {
    const leaving = await signIn(b, leavingUser.name, leavingUser.password);
    const client = await clientAt(atB, leaving.token);
    await signedIn(client);
    await subscribe(client, 'private-depot');
    const closed = new Promise<number>((resolve) =>
      client.connection.bind('error', (error: { data?: { code?: number } }) => {
        if (error?.data?.code) resolve(error.data.code);
      }),
    );
    const disabled = await fetch(`${a.url}/api/users/${leaving.id}/status`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'inactive' }),
    });
    expect(disabled.status).toBe(200);
    expect(await closed).toBe(4009);
  });

  it('count presence across processes: one member per user wherever their tabs are', async () => {
    const channel = 'presence-stores.1';
    const adminsView = await subscribePresence(await clientAt(atA, admin.token), channel);
    const seen = record(adminsView);
    const added = next<{ id: unknown }>(adminsView, 'pusher:member_added');
    await subscribePresence(await clientAt(atB, cashier.token), channel);
    expect((await added).id).toBe(cashier.id);

    // the cashier's second tab, on the other process: the same member, no second arrival
    const secondTab = await subscribePresence(await clientAt(atA, cashier.token), channel);
    expect(secondTab.members.count).toBe(2);
    // published through process A after the join, so it arrives after any member_added A would have sent
    const own = await subscribe(await clientAt(atA, admin.token), `private-App.Models.User.${admin.id}`);
    const marker = next(own, 'App\\Events\\NotificationsUpdated');
    await fetch(`${a.url}/api/notifications/read-all`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}` },
    });
    await marker;
    expect(seen.filter(([event]) => event === 'pusher:member_added')).toHaveLength(1);
  });

  it('take the members of a process that dies off its presence channels', async () => {
    const channel = 'presence-stores.1';
    const adminsView = await subscribePresence(await clientAt(atA, admin.token), channel);
    const present = new Promise<void>((resolve) => {
      adminsView.bind('pusher:member_added', (m: { id: unknown }) => m.id === cashier.id && resolve());
    });
    await subscribePresence(await clientAt(atB, cashier.token), channel);
    // (or already there: the previous test's tabs may still be leaving)
    if (!adminsView.members.get(String(cashier.id))) await present;

    const removed = next<{ id: unknown }>(adminsView, 'pusher:member_removed');
    await b.stop('SIGKILL');
    expect((await removed).id).toBe(cashier.id);
    expect(adminsView.members.count).toBe(1);
  });
});
