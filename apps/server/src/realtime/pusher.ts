import Pusher from 'pusher';
import { MemoryPresence, type Transport } from './transport.ts';

export interface PusherOptions {
  appId: string;
  key: string;
  secret: string;
  /** Absent: Pusher's own hosts for the cluster. */
  host?: string;
  port?: number;
  scheme: 'http' | 'https';
  cluster: string;
}

/**
 * An external Pusher-compatible server (Pusher, Laravel Reverb, soketi) through the Pusher HTTP API,
 * with the official SDK. Clients connect to it, not to Depot; Depot only signs their channels
 * (`/broadcasting/auth`, with the same app secret) and publishes.
 */
export function pusherTransport(options: PusherOptions): Transport {
  const pusher = new Pusher({
    appId: options.appId,
    key: options.key,
    secret: options.secret,
    useTLS: options.scheme === 'https',
    timeout: 5000,
    ...(options.host ? { host: options.host, port: options.port ? String(options.port) : undefined } : {}),
    cluster: options.cluster,
  });
  return {
    // presence and client events live on the external server
    presence: new MemoryPresence(),
    async start() {},
    async publish(envelope) {
      // the external server holds the sockets: it closes those signed in as these users
      // (Pusher's terminate_connections), and their clients sign in and subscribe again
      if (envelope.recheck) {
        for (const user of envelope.recheck) await pusher.terminateUserConnections(user);
        return;
      }
      const response = await pusher.trigger(
        envelope.channels,
        envelope.event,
        envelope.data,
        envelope.except ? { socket_id: envelope.except } : undefined,
      );
      if (!response.ok) throw new Error(`the Pusher HTTP API answered ${response.status}`);
    },
    async close() {},
  };
}
