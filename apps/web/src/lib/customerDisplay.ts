import { type DisplayKhqr, type DisplayState, displayState, IDLE_DISPLAY, type Locale } from '@depot/contracts';
import { useEffect } from 'react';
import { z } from 'zod';
import { api } from './http.ts';
import { localePath } from './locale.ts';

/**
 * The till's side of the screen facing the customer (pages/display/DisplayPage.tsx): the till's
 * pages publish what the customer may see, and
 * - a display in another window of the same browser (same origin) receives it over a
 *   BroadcastChannel, no server involved; a display that opens asks (`hello`) and gets the latest;
 * - a tablet paired with this till's session (modules/display on the server) receives it over real
 *   time: the till posts it to `/api/display/state`, the latest only, one request at a time.
 * Nothing else of the till is sent.
 */
export const DISPLAY_CHANNEL = 'depot-customer-display';

type DisplayMessage = { type: 'state'; state: DisplayState } | { type: 'hello' };

let latest: DisplayState = IDLE_DISPLAY;
/** The KHQR on the till's dialog while it is open: shown over whatever the page published. */
let qr: DisplayKhqr | null = null;
let channel: BroadcastChannel | null = null;

function current(): DisplayState {
  return qr ? { ...latest, khqr: qr } : latest;
}

function tillChannel(): BroadcastChannel | null {
  if (channel) return channel;
  if (typeof BroadcastChannel === 'undefined') return null;
  channel = new BroadcastChannel(DISPLAY_CHANNEL);
  channel.onmessage = (event: MessageEvent<DisplayMessage>) => {
    if (event.data?.type === 'hello') send();
  };
  return channel;
}

function send(): void {
  tillChannel()?.postMessage({ type: 'state', state: current() } satisfies DisplayMessage);
  void sendToTablet();
}

const sentToTablets = z.object({ data: z.object({ displays: z.number() }) });
/** Whether a tablet is paired with this session (the pairing dialog and the till say so). */
let tablet = false;
let sending = false;
let sendAgain = false;

async function sendToTablet(): Promise<void> {
  if (!tablet) return;
  if (sending) {
    sendAgain = true;
    return;
  }
  sending = true;
  try {
    const answer = await api('display/state', { method: 'POST', body: current(), schema: sentToTablets });
    // unpaired meanwhile (another till's code, the session's end): nothing more to send
    if (answer.data.displays === 0) tablet = false;
  } catch {
    // no connection: the next change sends the latest again
  } finally {
    sending = false;
    if (sendAgain) {
      sendAgain = false;
      void sendToTablet();
    }
  }
}

/** A tablet is paired with this till (or no longer): it is sent what the display shows now. */
export function tabletPaired(paired: boolean): void {
  const was = tablet;
  tablet = paired;
  if (paired && !was) void sendToTablet();
}

/** The till's "customer display": the display page in a window of its own, to drag to the second screen. */
export function openDisplay(locale: Locale): void {
  window.open(localePath('/display', locale), DISPLAY_CHANNEL, 'popup,width=1024,height=768');
}

/** What the display shows from now on. */
export function publishDisplay(state: DisplayState): void {
  latest = state;
  send();
}

/** This page no longer speaks to displays in this browser (tests: a page without a till). */
export function closeTillChannel(): void {
  channel?.close();
  channel = null;
}

/** What the display was last sent (for tests and a display that asks). */
export function displayed(): DisplayState {
  return current();
}

/** A till page's state for the display, sent whenever it changes (null: nothing to say yet). */
export function useDisplayState(state: DisplayState | null): void {
  const json = state ? JSON.stringify(state) : null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: sent again only when what it says changes
  useEffect(() => {
    if (state) publishDisplay(state);
  }, [json]);
}

/** The KHQR the till's dialog shows, on the display too while the dialog is open. */
export function useDisplayKhqr(made: DisplayKhqr | null): void {
  // what the card shows, and nothing else of the payment (its md5, the order's id)
  const khqr: DisplayKhqr | null = made && {
    payload: made.payload,
    merchant_name: made.merchant_name,
    currency: made.currency,
    amount: made.amount,
    expires_at: made.expires_at,
  };
  const json = khqr ? JSON.stringify(khqr) : null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: sent again only when the QR changes
  useEffect(() => {
    qr = khqr;
    send();
    return () => {
      qr = null;
      send();
    };
  }, [json]);
}

/**
 * The display's side: every state the till sends that fits the schema (anything else is dropped),
 * starting with the latest, which it asks for. Returns the function that stops listening.
 */
export function listenToTill(onState: (state: DisplayState) => void): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => undefined;
  const listening = new BroadcastChannel(DISPLAY_CHANNEL);
  listening.onmessage = (event: MessageEvent<DisplayMessage>) => {
    if (event.data?.type !== 'state') return;
    const parsed = displayState.safeParse(event.data.state);
    if (parsed.success) onState(parsed.data);
  };
  listening.postMessage({ type: 'hello' } satisfies DisplayMessage);
  return () => listening.close();
}
