import net from 'node:net';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now } from '../../db/database.ts';
import { bearer, createUser, login, useTestApp } from '../../test/harness.ts';

/**
 * The printers' network guard with the server's own configuration (no loopback, printer ports):
 * a manager who may update stores cannot aim the server at its own services, the cloud's metadata
 * or any port. Only listeners on 127.0.0.1 that this test starts are ever connected to, and the
 * point is that they are not.
 */
const ctx = useTestApp();
let manager: Record<string, string>;
let storeId: number;

/** A listener on the loopback that counts connections and keeps what it is sent (a memcached, say). */
function listener() {
  const received: Buffer[] = [];
  let connections = 0;
  const server = net.createServer((socket) => {
    connections += 1;
    socket.on('data', (chunk) => received.push(chunk));
    socket.on('end', () => socket.end());
  });
  return {
    listen: () =>
      new Promise<number>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)),
      ),
    get connections() {
      return connections;
    },
    get bytes() {
      return Buffer.concat(received);
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

const service = listener();
let servicePort: number;
let closedPort: number;

async function send(method: 'POST' | 'PUT', url: string, payload: object, locale = 'en') {
  const res = await ctx.app.inject({ method, url, headers: { ...manager, 'x-localization': locale }, payload });
  return { status: res.statusCode, body: res.json() };
}

/** A printer as an older Depot saved it, without the guard: straight into the table. */
async function savedBefore(host: string, port: number): Promise<number> {
  const at = now();
  const row = await ctx.db
    .insertInto('printers')
    .values({
      store_id: storeId,
      name: `Old ${host}:${port}`,
      host,
      port,
      paper: '80',
      drawer_kick: 1,
      drawer_pin: 2,
      status: 'active',
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** 576 dots of arbitrary bytes a row: what reached the listener verbatim before the guard. */
const smuggled = Buffer.from('\r\nstats\r\nquit\r\n'.padEnd(72, ' '));
const raster = { width: 576, height: 1, data: smuggled.toString('base64') };

beforeAll(async () => {
  servicePort = await service.listen();
  const closed = net.createServer();
  closedPort = await new Promise<number>((resolve) =>
    closed.listen(0, '127.0.0.1', () => resolve((closed.address() as net.AddressInfo).port)),
  );
  await new Promise((resolve) => closed.close(resolve));
  const user = await createUser(ctx.db, { roles: ['manager'] });
  storeId = (await ctx.db.selectFrom('stores').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
  manager = bearer((await login(ctx.app, user.name, user.password)).token);
});
afterAll(() => service.close());

describe('a manager aiming the server at its own network through a printer', () => {
  it('cannot save a printer at the loopback on any port, nor at the other addresses that are not a printer’s', async () => {
    const loopback = await send('POST', '/api/printers', {
      store_id: storeId,
      name: 'Memcached',
      host: '127.0.0.1',
      port: servicePort,
    });
    expect(loopback.status).toBe(422);
    expect(Object.keys(loopback.body.errors).length).toBeGreaterThan(0);

    const own = Object.values(os.networkInterfaces())
      .flat()
      .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
    const refused = [
      '127.0.0.1',
      '127.1.2.3',
      'localhost',
      '::1',
      '::ffff:127.0.0.1',
      '169.254.169.254', // the cloud's metadata
      'fe80::1',
      '0.0.0.0',
      '::',
      '224.0.0.1',
      '255.255.255.255',
      '8.8.8.8',
      ...(own ? [own] : []), // this server on its own network
    ];
    for (const host of refused) {
      const res = await send('POST', '/api/printers', { store_id: storeId, name: `At ${host}`, host, port: 9100 });
      expect(res.status, host).toBe(422);
      expect(res.body.errors.host, host).toEqual([
        `A printer must be on the depot’s own network: ${host} is not an address a printer may have (this server, a loopback, link-local, multicast, broadcast or outside address).`,
      ]);
    }
    expect(service.connections).toBe(0);
  });

  it('cannot save a printer on a port that is not a printer’s, in the reader’s language', async () => {
    const res = await send('POST', '/api/printers', { store_id: storeId, name: 'SSH', host: '192.168.1.50', port: 22 });
    expect(res.status).toBe(422);
    expect(res.body.errors.port).toEqual(['Printers are reached on ports 9100-9109, 515: 22 is not one of them.']);
    const kh = await send(
      'POST',
      '/api/printers',
      { store_id: storeId, name: 'SSH', host: '192.168.1.50', port: 6379 },
      'kh',
    );
    expect(kh.body.errors.port[0]).toMatch(/^ម៉ាស៊ីនបោះពុម្ពត្រូវបានភ្ជាប់តាមច្រក/);
  });

  it('saves printers of the depot’s own network on the printer ports (nothing is connected to on save)', async () => {
    for (const [host, port] of [
      ['192.168.1.50', 9100],
      ['10.0.0.7', 9109],
      ['172.16.4.2', 515],
      ['fd12:3456::7', 9100],
      ['printer-3', 9100],
    ] as const) {
      const res = await send('POST', '/api/printers', { store_id: storeId, name: `Till ${host}`, host, port });
      expect(res.status, `${host} ${JSON.stringify(res.body)}`).toBe(201);
    }
    // and an update moving one onto the loopback is refused like a new one
    const id = (await send('POST', '/api/printers', { store_id: storeId, name: 'Bar', host: '192.168.1.51' })).body.data
      .id;
    const moved = await send('PUT', `/api/printers/${id}`, { store_id: storeId, name: 'Bar', host: '127.0.0.1' });
    expect(moved.status).toBe(422);
  });

  it('cannot print to a loopback printer saved before the guard: refused before any connection, open port or closed alike', async () => {
    const open = await send('POST', `/api/printers/${await savedBefore('127.0.0.1', servicePort)}/print`, { raster });
    const closed = await send('POST', `/api/printers/${await savedBefore('127.0.0.1', closedPort)}/print`, { raster });
    expect(open.status).toBe(422);
    expect(closed.status).toBe(422);
    // the same answer whether anything listens there or not: no port scanner
    expect(open.body.message).toBe(closed.body.message);
    expect(open.body.message).toBe(
      'A printer must be on the depot’s own network: 127.0.0.1 is not an address a printer may have (this server, a loopback, link-local, multicast, broadcast or outside address).',
    );
    const kh = await send('POST', `/api/printers/${await savedBefore('127.0.0.1', 9100)}/print`, { raster }, 'kh');
    expect(kh.status).toBe(422);
    expect(kh.body.message).toMatch(/^ម៉ាស៊ីនបោះពុម្ពត្រូវនៅលើបណ្ដាញផ្ទាល់របស់ឃ្លាំង៖ 127\.0\.0\.1/);
    const drawer = await send('POST', `/api/printers/${await savedBefore('127.0.0.1', servicePort)}/drawer`, {});
    expect(drawer.status).toBe(422);
    expect(service.connections).toBe(0);
    expect(service.bytes.includes('stats')).toBe(false);
  });
});
