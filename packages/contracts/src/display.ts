import { z } from 'zod';
import { KHQR_CURRENCIES } from './khqr.ts';

/**
 * What the till sends to the screen facing the customer (web lib/customerDisplay.ts), and all that
 * screen shows: the cart's lines, the totals in dollars and riel, what was handed over and the
 * change, the KHQR the till's dialog made. Figures are the till's own (the display computes
 * nothing); names come in both languages, the screen picks its own. The display checks every
 * message against this schema and drops what does not fit.
 */
const money = z.number().int().min(0).max(1e15);
const name = z.string().max(200);

export const displayLine = z.object({
  name_kh: name,
  name_en: name,
  /** In the unit sold; a weighed good's may have decimals. */
  quantity: z.number().min(0).max(1e9),
  unit_kh: z.string().max(60),
  unit_en: z.string().max(60),
  unit_price_cents: money,
  /** The line after its discount. */
  amount_cents: money,
});

/** The KHQR on the till's dialog, as it was made there (contracts khqr.ts `khqrPayment`). */
export const displayKhqr = z.object({
  payload: z.string().min(1).max(1000),
  merchant_name: z.string().max(100),
  currency: z.enum(KHQR_CURRENCIES),
  /** In the currency's minor units. */
  amount: money,
  expires_at: z.string().max(40),
});

/** The lines a display is sent: the newest, as many as fit a real-time message with room to spare. */
export const DISPLAY_LINES = 20;

export const DISPLAY_PHASES = ['idle', 'cart', 'paying', 'done'] as const;
export type DisplayPhase = (typeof DISPLAY_PHASES)[number];

export const displayState = z.object({
  /** idle: the welcome; cart: the sale grows; paying: the tenders; done: the change, thanks. */
  phase: z.enum(DISPLAY_PHASES),
  /** The newest lines (DISPLAY_LINES at most: a real-time message is small), and how many came before them. */
  lines: z.array(displayLine).max(40),
  earlier: z.number().int().min(0).max(100_000),
  /** Off the whole order (the lines' own discounts are in their amounts), VAT, a delivery fee. */
  discount_cents: money,
  tax_cents: money,
  delivery_fee_cents: money,
  total_cents: money,
  total_khr: money,
  /** Handed over so far (dollar value), still due, and the change, in dollars and in riel. */
  tendered_cents: money,
  due_cents: money,
  due_khr: money,
  change_cents: money,
  change_khr: money,
  khqr: displayKhqr.nullable(),
});
export type DisplayState = z.infer<typeof displayState>;
export type DisplayKhqr = z.infer<typeof displayKhqr>;
export type DisplayLine = z.infer<typeof displayLine>;

export const IDLE_DISPLAY: DisplayState = {
  phase: 'idle',
  lines: [],
  earlier: 0,
  discount_cents: 0,
  tax_cents: 0,
  delivery_fee_cents: 0,
  total_cents: 0,
  total_khr: 0,
  tendered_cents: 0,
  due_cents: 0,
  due_khr: 0,
  change_cents: 0,
  change_khr: 0,
  khqr: null,
};

// ─── pairing a tablet (modules/display) ─────────────────────────────────────────────────────

/** A pairing code: six of these letters and digits (no 0/O, 1/I/L), typed on the tablet or scanned. */
export const DISPLAY_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const DISPLAY_CODE_LENGTH = 6;

/** The channel a paired display listens to: its pairing's, and nothing else. */
export const displayChannel = (pairingId: number) => `private-display.${pairingId}`;
/** The one event on it: what the screen shows now (`displayState`). */
export const DISPLAY_EVENT = 'DisplayUpdated';
/** The till ended the pairing (a new display, unpaired): the tablet goes back to its code screen. */
export const DISPLAY_ENDED_EVENT = 'DisplayEnded';

/** `POST /api/display/pairings`: a new code for this till's session (any older display is unpaired). */
export const displayPairingResponse = z.object({
  data: z.object({ code: z.string(), expires_at: z.string() }),
});

/** `GET /api/display/pairings/current`: whether a display is paired with this session, or a code waits. */
export const displayPairingStatus = z.object({
  data: z.object({ paired: z.boolean(), waiting: z.boolean() }),
});

/** `POST /api/display/pair`: the code the tablet typed (spaces, dashes and case do not matter). */
export const displayPairInput = z.object({
  code: z
    .string()
    .max(20)
    .transform((code) => code.replace(/[\s-]/g, '').toUpperCase()),
});

/** The display token (good for its channel only, while the cashier's session lives) and the channel. */
export const displayPairResponse = z.object({
  data: z.object({ token: z.string(), channel: z.string(), pairing_id: z.number().int() }),
});
