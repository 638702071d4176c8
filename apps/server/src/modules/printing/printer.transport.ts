import { type NetworkGuard, NetworkUnreachable } from '../../http/network-guard.ts';

/**
 * Bytes to a printer's raw port (JetDirect, 9100) over TCP, through the network guard
 * (http/network-guard.ts): only an address of the depot's own network, never the server itself,
 * only the printer ports, a name resolved once and the checked address connected to. A refused
 * destination is refused (NetworkRefused) before any connection is tried.
 */

/** Sends the job and waits until the printer has taken it all (or `timeoutMs` passes, connecting included). */
export async function sendToPrinter(
  guard: NetworkGuard,
  host: string,
  port: number,
  bytes: Uint8Array,
  timeoutMs: number,
): Promise<void> {
  const started = Date.now();
  const socket = await guard.connect(host, port, timeoutMs);
  await new Promise<void>((resolve, reject) => {
    let settled = false;
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve();
    };
    const left = Math.max(1, timeoutMs - (Date.now() - started));
    const timer = setTimeout(() => finish(new NetworkUnreachable(`${host}:${port} timed out`)), left);
    socket.once('error', (error) => finish(new NetworkUnreachable(error.message)));
    // end() flushes what is written, then half-closes; the printer's close (or ours) follows
    socket.end(bytes, () => finish());
  });
}
