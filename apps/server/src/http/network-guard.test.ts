import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { NetworkRefused, networkGuard, parsePorts } from './network-guard.ts';

/** The guard on its own. Only listeners on 127.0.0.1 this test starts are connected to. */
let connections = 0;
const server = net.createServer((socket) => {
  connections += 1;
  socket.end();
});
let port: number;

beforeAll(async () => {
  port = await new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)),
  );
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const lan = () => ({
  eth0: [
    {
      address: '192.168.1.10',
      netmask: '255.255.255.0',
      family: 'IPv4' as const,
      mac: '00:00:00:00:00:00',
      internal: false,
      cidr: '192.168.1.10/24',
    },
  ],
});

describe('the network guard', () => {
  it('allows the depot’s own network, never this server, its networks’ broadcast or what is not a LAN’s', () => {
    const guard = networkGuard({ ports: parsePorts('9100'), interfaces: lan });
    for (const ok of ['192.168.1.11', '10.1.2.3', '172.31.0.9', '100.64.1.1', 'fd00::5']) {
      expect(guard.addressAllowed(ok), ok).toBe(true);
    }
    for (const refused of [
      '192.168.1.10', // this server
      '192.168.1.255', // its network's broadcast
      '127.0.0.1',
      '::1',
      '::ffff:127.0.0.1',
      '::ffff:169.254.169.254',
      '169.254.169.254',
      'fe80::1',
      '0.0.0.0',
      '::',
      '239.1.1.1',
      'ff02::1',
      '255.255.255.255',
      '1.1.1.1',
      '2001:4860:4860::8888',
      'not an address',
    ]) {
      expect(guard.addressAllowed(refused), refused).toBe(false);
    }
  });

  it('refuses a port that is not allowed before connecting, even where something listens', async () => {
    const guard = networkGuard({ ports: parsePorts('9100-9109,515'), allowLoopback: true });
    const refused = guard.connect('127.0.0.1', port, 1000);
    await expect(refused).rejects.toBeInstanceOf(NetworkRefused);
    await expect(refused).rejects.toMatchObject({ reason: 'port' });
    expect(connections).toBe(0);
  });

  it('resolves a name once and connects to the address it checked (no rebinding in between)', async () => {
    const asked: string[] = [];
    // a resolver that answers the loopback (allowed here) first and elsewhere afterwards
    const lookup = async (host: string) => {
      asked.push(host);
      return asked.length === 1 ? ['127.0.0.1'] : ['10.9.9.9'];
    };
    const guard = networkGuard({ ports: [[port, port]], allowLoopback: true, lookup });
    const socket = await guard.connect('till.example', port, 2000);
    socket.destroy();
    expect(asked).toEqual(['till.example']);
    expect(connections).toBe(1);
  });

  it('refuses a name when any address it resolves to is refused', async () => {
    const guard = networkGuard({
      ports: parsePorts('9100'),
      interfaces: lan,
      lookup: async () => ['192.168.1.20', '127.0.0.1'],
    });
    await expect(guard.resolve('printer.example', 9100)).rejects.toMatchObject({ reason: 'address' });
    await expect(guard.check('printer.example', 9100)).rejects.toBeInstanceOf(NetworkRefused);
    // a name that does not resolve yet is judged when used, its port at once
    const silent = networkGuard({
      ports: parsePorts('9100'),
      lookup: async () => {
        throw new Error('ENOTFOUND');
      },
    });
    await expect(silent.check('printer-9', 9100)).resolves.toBeUndefined();
    await expect(silent.check('printer-9', 22)).rejects.toMatchObject({ reason: 'port' });
    expect(connections).toBe(1);
  });

  it('takes its ports from PRINTER_PORTS, checked at start-up', () => {
    expect(loadConfig({}).PRINTER_PORTS).toEqual([
      [9100, 9109],
      [515, 515],
    ]);
    expect(loadConfig({ PRINTER_PORTS: '9100, 631' }).PRINTER_PORTS).toEqual([
      [9100, 9100],
      [631, 631],
    ]);
    for (const bad of ['abc', '0', '9109-9100', '70000', '']) {
      expect(() => loadConfig({ PRINTER_PORTS: bad }), bad).toThrow(/PRINTER_PORTS/);
    }
    expect(loadConfig({}).PRINTER_ALLOW_LOOPBACK).toBe(false);
  });
});
