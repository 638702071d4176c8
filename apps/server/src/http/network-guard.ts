import { lookup } from 'node:dns/promises';
import net from 'node:net';
import os from 'node:os';
import ipaddr from 'ipaddr.js';

/**
 * The one gate for every connection the server opens to an address a user typed (a store's
 * network printers today). A manager may type any host and port into a printer's form; without
 * this gate the server would connect wherever told, its own services on the loopback, the cloud's
 * metadata at 169.254.169.254, and answer differently for open and closed ports. So:
 *
 * - only addresses of a local network are allowed (ipaddr.js's `private`, `carrierGradeNat` and
 *   `uniqueLocal` ranges: where printers live); everything else is refused, by name: loopback,
 *   link-local (169.254/16, fe80::/10: cloud metadata), unspecified, multicast, broadcast, and
 *   public addresses; and the server's own addresses and its networks' broadcast addresses
 *   (os.networkInterfaces()), wherever they are;
 * - only the ports the guard is given (printers: 9100-9109 and 515, `PRINTER_PORTS`);
 * - a name is resolved once, every address it resolves to must be allowed, and the connection goes
 *   to the address that was checked (never the name again: no DNS rebinding in between);
 * - a refused address or port is refused before any connection is tried.
 *
 * Addresses are parsed and classified by ipaddr.js only (no hand-written parsing); an IPv4 address
 * written as IPv6 (`::ffff:127.0.0.1`) is judged as the IPv4 address it is.
 */

/** Why a destination is refused: its address (or what its name resolves to), or its port. */
export type Refusal = 'address' | 'port';

export class NetworkRefused extends Error {
  constructor(
    readonly reason: Refusal,
    readonly host: string,
    readonly port: number,
  ) {
    super(`${host}:${port} refused (${reason})`);
    this.name = 'NetworkRefused';
  }
}

/** A name that does not resolve, a connection refused or not answered within the time. */
export class NetworkUnreachable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NetworkUnreachable';
  }
}

/** Inclusive port ranges. */
export type PortRanges = readonly (readonly [number, number])[];

/** The ports of receipt printers: raw printing (JetDirect, 9100 and the next nine) and LPD (515). */
export const PRINTER_PORTS = '9100-9109,515';

/**
 * Ports as an operator writes them: `9100-9109,515` (numbers and ranges, commas between). Throws
 * on anything else, with a message for the configuration's error.
 */
export function parsePorts(text: string): PortRanges {
  const ranges: [number, number][] = [];
  for (const part of text.split(',').map((p) => p.trim())) {
    const match = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(part);
    const from = Number(match?.[1]);
    const to = Number(match?.[2] ?? match?.[1]);
    if (!match || from < 1 || to > 65535 || from > to) {
      throw new Error(`"${part}" is not a port or a range of ports (1-65535, e.g. 9100-9109,515)`);
    }
    ranges.push([from, to]);
  }
  return ranges;
}

/** Ranges written back as the operator would: `9100-9109, 515` (for messages). */
export function portsText(ranges: PortRanges): string {
  return ranges.map(([from, to]) => (from === to ? `${from}` : `${from}-${to}`)).join(', ');
}

/** The ranges where the addresses of local networks are: the only ones allowed. */
const LOCAL_RANGES = new Set(['private', 'carrierGradeNat', 'uniqueLocal']);

export interface GuardOptions {
  /** The ports allowed. */
  ports: PortRanges;
  /**
   * Tests only: the loopback allowed too, so a test's listener on 127.0.0.1 can stand for a
   * printer. Never set by the server's configuration.
   */
  allowLoopback?: boolean;
  /** The machine's own addresses (tests give their own); absent, os.networkInterfaces(). */
  interfaces?: () => NodeJS.Dict<os.NetworkInterfaceInfo[]>;
  /** The resolver (tests give their own); absent, the system's (dns.lookup, every address). */
  lookup?: (host: string) => Promise<string[]>;
}

const systemLookup = async (host: string) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** How long a name may take to resolve. */
const LOOKUP_MS = 3000;

/** The address in its one normal form: IPv4-mapped IPv6 as IPv4, IPv6 in full. */
function normal(address: ipaddr.IPv4 | ipaddr.IPv6): string {
  return address.kind() === 'ipv6' ? (address as ipaddr.IPv6).toNormalizedString() : address.toString();
}

/** The machine's own addresses and its IPv4 networks' broadcast addresses, read now (they change). */
function ownAddresses(interfaces: NodeJS.Dict<os.NetworkInterfaceInfo[]>): Set<string> {
  const own = new Set<string>();
  for (const infos of Object.values(interfaces)) {
    for (const info of infos ?? []) {
      const address = info.address.split('%')[0];
      if (!ipaddr.isValid(address)) continue;
      own.add(normal(ipaddr.process(address)));
      if (info.family === 'IPv4' && info.cidr) {
        try {
          own.add(ipaddr.IPv4.broadcastAddressFromCIDR(info.cidr).toString());
        } catch {
          // a CIDR ipaddr.js cannot read: the address alone
        }
      }
    }
  }
  return own;
}

export interface NetworkGuard {
  readonly ports: PortRanges;
  portAllowed(port: number): boolean;
  /** Whether an IP address (any form ipaddr.js reads) may be connected to. */
  addressAllowed(address: string): boolean;
  /**
   * Checks a destination as it is saved: the port, and the host when it is an address or a name
   * that resolves now (a name that does not resolve yet is judged when it is used).
   */
  check(host: string, port: number): Promise<void>;
  /** The one address to connect to for host:port, checked; NetworkRefused / NetworkUnreachable otherwise. */
  resolve(host: string, port: number): Promise<string>;
  /** A TCP connection to host:port through the guard (resolved once, the checked address connected to). */
  connect(host: string, port: number, timeoutMs: number): Promise<net.Socket>;
}

export function networkGuard(options: GuardOptions): NetworkGuard {
  const interfaces = options.interfaces ?? os.networkInterfaces;
  const resolver = options.lookup ?? systemLookup;

  function portAllowed(port: number): boolean {
    return Number.isInteger(port) && options.ports.some(([from, to]) => port >= from && port <= to);
  }

  function addressAllowed(text: string): boolean {
    const bare = text.replace(/^\[|\]$/g, '').split('%')[0];
    if (!ipaddr.isValid(bare)) return false;
    const address = ipaddr.process(bare);
    const range = address.range();
    // the loopback is this machine itself: allowed only where a test's listener stands for a printer
    if (range === 'loopback') return options.allowLoopback === true;
    return LOCAL_RANGES.has(range) && !ownAddresses(interfaces()).has(normal(address));
  }

  /** The addresses a host names: itself when it is one, else what the name resolves to (once). */
  async function addressesOf(host: string, port: number): Promise<string[]> {
    const bare = host.replace(/^\[|\]$/g, '');
    if (net.isIP(bare.split('%')[0])) return [bare];
    // names that are the loopback by definition (RFC 6761), whatever a resolver says
    if (/(^|\.)localhost\.?$/i.test(bare) && !options.allowLoopback) throw new NetworkRefused('address', host, port);
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        resolver(bare),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('timed out')), LOOKUP_MS);
        }),
      ]);
    } catch (error) {
      throw new NetworkUnreachable(`${host} did not resolve: ${(error as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
  }

  async function resolve(host: string, port: number): Promise<string> {
    const addresses = await addressesOf(host, port);
    // every address the name has must be allowed: a name with one local and one other address is refused
    if (!addresses.length || addresses.some((a) => !addressAllowed(a))) throw new NetworkRefused('address', host, port);
    if (!portAllowed(port)) throw new NetworkRefused('port', host, port);
    return normal(ipaddr.process(addresses[0].split('%')[0]));
  }

  return {
    ports: options.ports,
    portAllowed,
    addressAllowed,
    resolve,

    async check(host, port) {
      try {
        await resolve(host, port);
      } catch (error) {
        if (!(error instanceof NetworkUnreachable)) throw error;
        // a name that does not resolve yet: its port is judged now, its address when it is used
        if (!portAllowed(port)) throw new NetworkRefused('port', host, port);
      }
    },

    async connect(host, port, timeoutMs) {
      const address = await resolve(host, port);
      return new Promise<net.Socket>((done, fail) => {
        // the address checked, not the name: nothing is resolved again between the check and here
        const socket = net.connect({ host: address, port });
        const timer = setTimeout(() => {
          socket.destroy();
          fail(new NetworkUnreachable(`${host}:${port} timed out`));
        }, timeoutMs);
        socket.once('error', (error) => {
          clearTimeout(timer);
          socket.destroy();
          fail(new NetworkUnreachable(error.message));
        });
        socket.once('connect', () => {
          clearTimeout(timer);
          done(socket);
        });
      });
    },
  };
}
