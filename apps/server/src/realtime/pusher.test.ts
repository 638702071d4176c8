import { createHash, createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { appEvent } from '@depot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createUser, login, useTestApp } from '../test/harness.ts';
import { listening, RawSocket } from '../test/realtime.ts';
import { DEFAULT_REALTIME, type RealtimeSettings } from './realtime.ts';

/**
 * BROADCAST_DRIVER=pusher: an external Pusher-compatible server, here a stand-in for its HTTP API
 * that records what it is sent and checks the request signature as Pusher does.
 */
const SECRET = 'external-secret-0123456789';
const received: { path: string; query: URLSearchParams; body: Record<string, unknown>; signed: boolean }[] = [];
let answer = 200;
const api = http.createServer((request, response) => {
  let body = '';
  request.on('data', (chunk) => {
    body += chunk;
  });
  request.on('end', () => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    // Pusher's HTTP API signature: method, path and the sorted query without the signature itself
    const query = [...url.searchParams].filter(([k]) => k !== 'auth_signature').sort(([a], [b]) => (a < b ? -1 : 1));
    const subject = `${request.method}\n${url.pathname}\n${query.map(([k, v]) => `${k}=${v}`).join('&')}`;
    const signed =
      url.searchParams.get('auth_signature') === createHmac('sha256', SECRET).update(subject).digest('hex') &&
      url.searchParams.get('body_md5') === createHash('md5').update(body).digest('hex');
    received.push({ path: url.pathname, query: url.searchParams, body: JSON.parse(body || '{}'), signed });
    response.writeHead(answer, { 'content-type': 'application/json' }).end('{}');
  });
});

const settings: RealtimeSettings = {
  ...DEFAULT_REALTIME,
  driver: 'pusher',
  appId: '4242',
  key: 'external-key',
  secret: SECRET,
  pusher: { host: '127.0.0.1', port: 0, scheme: 'http', cluster: 'ap1' },
};

// before the app is built (hooks run in the order they are registered): its port goes into the settings
beforeAll(async () => {
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  (settings.pusher as { port: number }).port = (api.address() as AddressInfo).port;
});
const ctx = useTestApp({ realtime: settings });
afterAll(() => new Promise<void>((resolve) => api.close(() => resolve())));

describe('the pusher driver', () => {
  it('publishes through the Pusher HTTP API, signed with the app secret, leaving out the sender’s socket', async () => {
    received.length = 0;
    await ctx.app.realtime.broadcast(
      ['private-stores.1', 'private-depot'],
      appEvent('StockChanged'),
      { store_id: 1, product_ids: [3] },
      { exceptSocketId: '123.456' },
    );
    expect(received).toEqual([
      {
        path: '/apps/4242/events',
        query: expect.any(URLSearchParams),
        body: {
          name: 'App\\Events\\StockChanged',
          data: '{"store_id":1,"product_ids":[3]}',
          channels: ['private-stores.1', 'private-depot'],
          socket_id: '123.456',
        },
        signed: true,
      },
    ]);
    expect(received[0].query.get('auth_key')).toBe('external-key');
  });

  it('logs a refusal of the external server rather than failing the caller', async () => {
    answer = 500;
    try {
      await expect(
        ctx.app.realtime.broadcast('private-depot', appEvent('SettingsChanged'), {}),
      ).resolves.toBeUndefined();
    } finally {
      answer = 200;
    }
  });

  it('tells the page to connect to the external server with the app key, never the secret', async () => {
    expect(ctx.app.realtime.clientConfig()).toEqual({
      broadcaster: 'pusher',
      key: 'external-key',
      host: '127.0.0.1',
      port: (api.address() as AddressInfo).port,
      scheme: 'http',
      cluster: 'ap1',
      authEndpoint: '/broadcasting/auth',
      userAuthEndpoint: '/broadcasting/user-auth',
    });
  });

  it('signs channels with the external app’s secret and serves no WebSocket endpoint of its own', async () => {
    const user = await createUser(ctx.db, { roles: ['cashier'] });
    const { token } = await login(ctx.app, user.name, user.password);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/broadcasting/auth',
      headers: bearer(token),
      payload: { socket_id: '1.2', channel_name: 'private-depot' },
    });
    const signature = createHmac('sha256', SECRET).update('1.2:private-depot').digest('hex');
    expect(res.json()).toEqual({ auth: `external-key:${signature}` });

    const endpoint = await listening(ctx.app);
    const socket = await RawSocket.open(endpoint);
    expect(socket.refusal).toBe(404);
  });
});
