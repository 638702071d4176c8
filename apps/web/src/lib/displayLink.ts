import {
  DISPLAY_ENDED_EVENT,
  DISPLAY_EVENT,
  type DisplayState,
  displayPairResponse,
  displayState,
} from '@depot/contracts';
import type { z } from 'zod';
import { api } from './http.ts';
import { echoOptions } from './realtime.ts';

/**
 * The tablet's side of a paired customer display (modules/display on the server): the code from
 * the till exchanged for a display token, kept on the tablet, and the display's one channel over
 * real time. The token opens that channel and nothing else; it dies with the cashier's session.
 */
export type DisplayPairing = z.infer<typeof displayPairResponse>['data'];

const KEY = 'depot.display_pairing';

export function savedPairing(): DisplayPairing | null {
  try {
    const parsed = displayPairResponse.shape.data.safeParse(JSON.parse(localStorage.getItem(KEY) ?? 'null'));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function forgetPairing(): void {
  localStorage.removeItem(KEY);
}

/** Exchanges the till's code for the display's token (a wrong code: the server's 422, in the page's language). */
export async function pairWith(code: string): Promise<DisplayPairing> {
  const answer = await api('display/pair', { method: 'POST', body: { code }, schema: displayPairResponse });
  localStorage.setItem(KEY, JSON.stringify(answer.data));
  return answer.data;
}

/**
 * Listens to the pairing's channel: each state that fits the schema, and `onEnded` when the till
 * unpairs or the token no longer holds (the session ended). Returns the function that stops.
 */
export function listenToPairing(
  pairing: DisplayPairing,
  onState: (state: DisplayState) => void,
  onEnded: () => void,
): () => void {
  const config = window.__DEPOT__?.broadcasting;
  if (!config) return () => undefined;
  let stopped = false;
  let disconnect: () => void = () => undefined;
  const headers = () => ({ Authorization: `Bearer ${pairing.token}` });
  const options = echoOptions(
    { ...config, authEndpoint: '/api/display/auth', userAuthEndpoint: '/api/display/user-auth' },
    window.location,
    headers,
  );
  import('pusher-js').then(
    ({ default: Pusher }) => {
      if (stopped) return;
      // as laravel-echo does for Depot's own endpoint: pusher-js asks for a cluster, which it does not use here
      const pusher = new Pusher(options.key as string, { cluster: '', ...options } as never);
      disconnect = () => pusher.disconnect();
      pusher.signin();
      const channel = pusher.subscribe(pairing.channel);
      channel.bind(DISPLAY_EVENT, (data: unknown) => {
        const parsed = displayState.safeParse(data);
        if (parsed.success) onState(parsed.data);
      });
      channel.bind(DISPLAY_ENDED_EVENT, onEnded);
      channel.bind('pusher:subscription_error', (error: { status?: number }) => {
        if (error?.status === 401 || error?.status === 403) onEnded();
      });
    },
    (error: unknown) => console.error(error),
  );
  return () => {
    stopped = true;
    disconnect();
  };
}
