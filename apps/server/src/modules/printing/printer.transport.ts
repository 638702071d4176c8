import { lookup } from 'node:dns/promises';
import net from 'node:net';

/**
 * Bytes to a printer's raw port (JetDirect, 9100) over TCP. The address is a configured printer's
 * and must be on the depot's own network: private, loopback or link-local ranges only, checked on
 * the address the name resolves to (so a name cannot point the server at the internet).
 */
const LOCAL = new net.BlockList();
LOCAL.addSubnet('10.0.0.0', 8, 'ipv4');
LOCAL.addSubnet('172.16.0.0', 12, 'ipv4');
LOCAL.addSubnet('192.168.0.0', 16, 'ipv4');
LOCAL.addSubnet('127.0.0.0', 8, 'ipv4');
LOCAL.addSubnet('169.254.0.0', 16, 'ipv4');
LOCAL.addSubnet('100.64.0.0', 10, 'ipv4');
LOCAL.addAddress('::1', 'ipv6');
LOCAL.addSubnet('fc00::', 7, 'ipv6');
LOCAL.addSubnet('fe80::', 10, 'ipv6');

export function isLocalAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  return LOCAL.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

export class PrinterNotLocal extends Error {}
export class PrinterUnreachable extends Error {}

/** The local address a printer's host names, or PrinterNotLocal / PrinterUnreachable. */
export async function resolvePrinter(host: string): Promise<string> {
  const bare = host.replace(/^\[|\]$/g, '');
  if (net.isIP(bare)) {
    if (!isLocalAddress(bare)) throw new PrinterNotLocal(host);
    return bare;
  }
  let addresses: { address: string }[];
  try {
    addresses = await lookup(bare, { all: true });
  } catch {
    throw new PrinterUnreachable(host);
  }
  const local = addresses.find((a) => isLocalAddress(a.address));
  if (!local || addresses.some((a) => !isLocalAddress(a.address))) throw new PrinterNotLocal(host);
  return local.address;
}

/** Sends the job and waits until the printer has taken it all (or `timeoutMs` passes). */
export async function sendToPrinter(host: string, port: number, bytes: Uint8Array, timeoutMs: number): Promise<void> {
  const address = await resolvePrinter(host);
  await new Promise<void>((resolve, reject) => {
    const socket = net.connect({ host: address, port });
    let settled = false;
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve();
    };
    const timer = setTimeout(() => finish(new PrinterUnreachable(`${host}:${port} timed out`)), timeoutMs);
    socket.once('error', (error) => finish(new PrinterUnreachable(error.message)));
    socket.once('connect', () => {
      // end() flushes what is written, then half-closes; the printer's close (or ours) follows
      socket.end(bytes, () => finish());
    });
  });
}
