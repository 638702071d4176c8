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

export const DISPLAY_PHASES = ['idle', 'cart', 'paying', 'done'] as const;
export type DisplayPhase = (typeof DISPLAY_PHASES)[number];

export const displayState = z.object({
  /** idle: the welcome; cart: the sale grows; paying: the tenders; done: the change, thanks. */
  phase: z.enum(DISPLAY_PHASES),
  lines: z.array(displayLine).max(500),
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
