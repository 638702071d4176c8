import { type ScaleCode, type ScaleLayout, scaleQuantity, scaleSettings, single } from '@depot/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/http.ts';
import { productLine, type SoldProduct, type TillLine } from './cart.ts';

/**
 * Weighed goods at the till: the store's scale barcode layouts (kept on the device, so a label is
 * read offline too), a label's line, and a scale on a serial port (Web Serial) that prints its
 * weight continuously.
 */

const KEPT = 'depot.scale_layouts';

function keptLayouts(): ScaleLayout[] {
  try {
    const parsed = scaleSettings.safeParse({ layouts: JSON.parse(localStorage.getItem(KEPT) ?? '[]') });
    return parsed.success ? parsed.data.layouts : [];
  } catch {
    return [];
  }
}

/** The server's layouts (`GET /api/scale/settings`), each answer kept on the device. */
export function useScaleQuery() {
  return useQuery({
    queryKey: ['scale', 'settings'],
    queryFn: async () => {
      const layouts = (await api('scale/settings', { schema: single(scaleSettings) })).data.layouts;
      try {
        localStorage.setItem(KEPT, JSON.stringify(layouts));
      } catch {
        // the next offline start reads the server's answer kept by the service worker
      }
      return layouts;
    },
    staleTime: 60_000,
  });
}

/** The layouts: the server's, else the last ones this device read. */
export function useScaleLayouts(): ScaleLayout[] {
  return useScaleQuery().data ?? keptLayouts();
}

/** The line a scale label puts in the cart: its product, the weight or what its price buys. */
export function scaleLine(row: SoldProduct, scan: ScaleCode): TillLine | null {
  const line = productLine(row);
  const quantity = scaleQuantity(scan, line.decimals ?? 0, row.price_usd_cents);
  return quantity === null ? null : { ...line, quantity };
}

// ─── a scale on a serial port ───────────────────────────────────────────────────────────────

/**
 * One line of a scale's continuous output, the common ASCII form: an optional state ("ST" stable,
 * "US" unstable, "OL" overload) and gross/net marks, then the weight with its unit, e.g.
 * "ST,GS,+  1.250kg", "  0.845 kg", "US,NT,+0001250 g". The weight in `decimals` steps of a
 * kilogram (grams for 3), rounded half up, and whether the scale says it is settled; null for
 * anything else (an overload, a pound scale, noise).
 */
export function readScaleLine(line: string, decimals: number): { steps: number; stable: boolean } | null {
  const match = /^\s*(?:(ST|US|OL)\s*,?\s*)?(?:(GS|NT|TR|G|N)\s*,?\s*)?([+-])?\s*(\d+(?:\.\d+)?)\s*(kg|g)?\s*$/i.exec(
    line,
  );
  if (!match || match[1]?.toUpperCase() === 'OL' || match[3] === '-') return null;
  const [whole, fraction = ''] = (match[4] ?? '').split('.');
  // the weight as an exact decimal of grams or kilograms, scaled to the unit's steps of a kilogram
  const places = fraction.length + ((match[5] ?? 'kg').toLowerCase() === 'g' ? 3 : 0);
  const digits = BigInt(`${whole}${fraction}`);
  const steps =
    decimals >= places
      ? digits * 10n ** BigInt(decimals - places)
      : (digits * 2n + 10n ** BigInt(places - decimals)) / (2n * 10n ** BigInt(places - decimals));
  return { steps: Number(steps), stable: match[1]?.toUpperCase() !== 'US' };
}

/**
 * The first settled weight above zero a scale prints on `stream` (its lines end in CR, LF or
 * both), in `decimals` steps of a kilogram; null when the stream ends first or `signal` aborts.
 */
export async function readSettledWeight(
  stream: ReadableStream<Uint8Array>,
  decimals: number,
  signal?: AbortSignal,
): Promise<number | null> {
  const reader = stream.getReader();
  const onAbort = () => void reader.cancel().catch(() => undefined);
  signal?.addEventListener('abort', onAbort);
  const decoder = new TextDecoder('ascii');
  let text = '';
  try {
    while (!signal?.aborted) {
      const { value, done } = await reader.read();
      if (done) return null;
      text += decoder.decode(value, { stream: true });
      const lines = text.split(/\r\n|\r|\n/);
      text = lines.pop() ?? '';
      for (const line of lines) {
        const read = readScaleLine(line, decimals);
        if (read?.stable && read.steps > 0) return read.steps;
      }
      // a stream with no line end at all is not a scale: stop before it fills the memory
      if (text.length > 256) text = '';
    }
    return null;
  } finally {
    signal?.removeEventListener('abort', onAbort);
    reader.releaseLock();
  }
}

/** The part of Web Serial the till uses (lib.dom has no types for it yet). */
interface SerialPortLike {
  open(options: { baudRate: number }): Promise<void>;
  close(): Promise<void>;
  readable: ReadableStream<Uint8Array> | null;
}
interface SerialLike {
  requestPort(): Promise<SerialPortLike>;
  getPorts(): Promise<SerialPortLike[]>;
}

function serial(): SerialLike | null {
  return typeof navigator !== 'undefined' && 'serial' in navigator
    ? (navigator as unknown as { serial: SerialLike }).serial
    : null;
}

/** Whether this browser can talk to a scale on a serial port (Chromium on a desktop). */
export function hasSerialScale(): boolean {
  return serial() !== null;
}

/** The usual speed of a scale's continuous output. */
export const SCALE_BAUD_RATE = 9600;

/**
 * A settled weight read from the scale: the port chosen before (else the browser asks once), at
 * 9600 baud, within `timeoutMs`; null when none came.
 */
export async function weighOnScale(decimals: number, timeoutMs = 5000): Promise<number | null> {
  const api = serial();
  if (!api) return null;
  const port = (await api.getPorts())[0] ?? (await api.requestPort());
  await port.open({ baudRate: SCALE_BAUD_RATE });
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), timeoutMs);
  try {
    return port.readable ? await readSettledWeight(port.readable, decimals, stop.signal) : null;
  } finally {
    clearTimeout(timer);
    await port.close().catch(() => undefined);
  }
}
