import { z } from 'zod';
import { abilitiesOf, approvalInput } from './abilities.ts';
import { optionalText } from './fields.ts';
import { MAX_ID } from './ids.ts';
import { recordFields } from './resources.ts';

/**
 * Cash drawer shifts. A cashier opens a shift at a till (a store and the till's name) with a float
 * counted by denomination, in dollars and in riel separately; takes pay-ins and pay-outs with a
 * reason; sells (each sale checked out while the shift is open belongs to it: its cash received and
 * change given move the drawer of their currency); and closes it by counting each currency again.
 * Money is in minor units: US cents, whole riel. Denominations too (a $20 note is 2000).
 */
export const SHIFT_STATUSES = ['open', 'closed'] as const;
export type ShiftStatus = (typeof SHIFT_STATUSES)[number];
/** `move`: a pay-in or a pay-out; `close`: the count at the end. */
export const SHIFT_ACTIONS = ['move', 'close'] as const;
export type ShiftAction = (typeof SHIFT_ACTIONS)[number];
export const shiftAbilities = abilitiesOf(SHIFT_ACTIONS);

export const CASH_CURRENCIES = ['usd', 'khr'] as const;
export type CashCurrency = (typeof CASH_CURRENCIES)[number];
export const SHIFT_MOVE_KINDS = ['pay_in', 'pay_out'] as const;
export type ShiftMoveKind = (typeof SHIFT_MOVE_KINDS)[number];

/** A guard against a mistyped figure, not a business rule: $10,000,000 or 40 billion riel. */
export const SHIFT_AMOUNT_MAX = 1_000_000_000;
export const DENOMINATION_COUNT_MAX = 100_000;

/** The notes a depot counts (settings, so they can change): dollars as cents, riel whole. */
export const DEFAULT_USD_DENOMINATIONS = [100, 200, 500, 1000, 2000, 5000, 10000];
export const DEFAULT_KHR_DENOMINATIONS = [100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000];

const denominationList = z
  .array(z.number().int().min(1).max(SHIFT_AMOUNT_MAX))
  .min(1)
  .max(20)
  .refine((list) => new Set(list).size === list.length, { params: { message: 'validation.unique' } });

/**
 * The shift settings: whether a sale needs an open shift of its cashier at its store, whether the
 * close is blind (the cashier counts without seeing what is expected), the difference above which
 * a manager approves the close (per currency), and the notes counted.
 */
export const shiftSettingsInput = z.object({
  require_shift: z.boolean(),
  blind_close: z.boolean(),
  threshold_usd_cents: z.number().int().min(0).max(SHIFT_AMOUNT_MAX),
  threshold_khr: z.number().int().min(0).max(SHIFT_AMOUNT_MAX),
  usd_denominations: denominationList,
  khr_denominations: denominationList,
});
export type ShiftSettingsInput = z.input<typeof shiftSettingsInput>;
export const shiftSettings = shiftSettingsInput;
export type ShiftSettings = z.infer<typeof shiftSettings>;

export const DEFAULT_SHIFT_SETTINGS: ShiftSettings = {
  require_shift: false,
  blind_close: true,
  threshold_usd_cents: 500,
  threshold_khr: 20000,
  usd_denominations: DEFAULT_USD_DENOMINATIONS,
  khr_denominations: DEFAULT_KHR_DENOMINATIONS,
};

/** How many of one note: `value` in minor units. */
export const countLine = z.object({
  value: z.number().int().min(1).max(SHIFT_AMOUNT_MAX),
  count: z.number().int().min(0).max(DENOMINATION_COUNT_MAX),
});
export type CountLine = z.infer<typeof countLine>;
/** A count of the drawer: each currency by denomination. */
export const cashCount = z.object({
  usd: z.array(countLine).max(30),
  khr: z.array(countLine).max(30),
});
export type CashCount = z.infer<typeof cashCount>;

/** What a count comes to, in the currency's minor units. */
export function countTotal(lines: readonly CountLine[]): number {
  return lines.reduce((sum, line) => sum + line.value * line.count, 0);
}

const id = z.number().int().min(1).max(MAX_ID);

export const shiftOpenInput = z.object({
  store_id: id,
  till: z.string().trim().min(1).max(30),
  float: cashCount,
  note: optionalText(255),
});
export type ShiftOpenInput = z.input<typeof shiftOpenInput>;

export const shiftMoveInput = z.object({
  kind: z.enum(SHIFT_MOVE_KINDS),
  currency: z.enum(CASH_CURRENCIES),
  amount: z.number().int().min(1).max(SHIFT_AMOUNT_MAX),
  reason: z.string().trim().min(1).max(255),
  /** A manager's approval, for a pay-out that takes the shift's pay-outs to the threshold. */
  approval: approvalInput.nullish(),
});
export type ShiftMoveInput = z.input<typeof shiftMoveInput>;

export const shiftCloseInput = z.object({
  counted: cashCount,
  note: optionalText(255),
  approval: approvalInput.nullish(),
});
export type ShiftCloseInput = z.input<typeof shiftCloseInput>;

/** One currency's drawer, in its minor units: what moved it, and (closed) what was counted. */
export interface DrawerMoves {
  float: number;
  /** Cash received for the shift's sales. */
  cash_in: number;
  /** Change given for them. */
  change_out: number;
  /** Cash handed back: voids and returns of the shift's sales, while it was open. */
  refunds: number;
  pay_ins: number;
  pay_outs: number;
}

/** What should be in the drawer: float + cash in − change − refunds + pay-ins − pay-outs. */
export function expectedCash(d: DrawerMoves): number {
  return d.float + d.cash_in - d.change_out - d.refunds + d.pay_ins - d.pay_outs;
}

/** Counted − expected: negative is short, positive is over. */
export function cashDifference(expected: number, counted: number): number {
  return counted - expected;
}

/** Whether a close's differences need a manager: either currency beyond its threshold. */
export function differenceNeedsApproval(
  difference: { usd: number; khr: number },
  settings: Pick<ShiftSettings, 'threshold_usd_cents' | 'threshold_khr'>,
): boolean {
  return Math.abs(difference.usd) > settings.threshold_usd_cents || Math.abs(difference.khr) > settings.threshold_khr;
}

/**
 * Whether a pay-out needs a manager: the shift's pay-outs of its currency, this one included, reach
 * the close's threshold (paying out is how a short drawer would be made to balance, so pay-outs are
 * counted together: two small ones are not one big one split).
 */
export function payOutNeedsApproval(
  payOuts: number,
  currency: CashCurrency,
  settings: Pick<ShiftSettings, 'threshold_usd_cents' | 'threshold_khr'>,
): boolean {
  return payOuts >= (currency === 'usd' ? settings.threshold_usd_cents : settings.threshold_khr);
}

/** Each figure of a drawer is null for a cashier during a blind close: until it is counted, they see none. */
export const drawer = z.object({
  float: z.number().int().nullable(),
  cash_in: z.number().int().nullable(),
  change_out: z.number().int().nullable(),
  refunds: z.number().int().nullable(),
  pay_ins: z.number().int().nullable(),
  pay_outs: z.number().int().nullable(),
  expected: z.number().int().nullable(),
  counted: z.number().int().nullable(),
  difference: z.number().int().nullable(),
});
export type Drawer = z.infer<typeof drawer>;

export const shift = z.object({
  ...recordFields,
  number: z.string(),
  store_id: z.number().int(),
  store_name: z.string(),
  till: z.string(),
  user_id: z.number().int(),
  user_name: z.string().nullable(),
  status: z.enum(SHIFT_STATUSES),
  opened_at: z.string(),
  closed_at: z.string().nullable(),
  /** Still open after the Cambodian day it was opened on ended. */
  overnight: z.boolean(),
  difference_usd_cents: z.number().int().nullable(),
  difference_khr: z.number().int().nullable(),
  approved_by_name: z.string().nullable(),
  abilities: shiftAbilities,
});
export type Shift = z.infer<typeof shift>;

export const shiftMovement = z.object({
  id: z.number().int(),
  kind: z.enum(SHIFT_MOVE_KINDS),
  currency: z.enum(CASH_CURRENCIES),
  /** Null during a blind close, for a cashier. */
  amount: z.number().int().nullable(),
  reason: z.string(),
  created_by_name: z.string().nullable(),
  created_at: z.string(),
});
export type ShiftMovement = z.infer<typeof shiftMovement>;

export const shiftDetail = shift.extend({
  note: z.string().nullable(),
  close_note: z.string().nullable(),
  /** Null during a blind close, for a cashier (as every figure below that tells what the drawer holds). */
  float_count: cashCount.nullable(),
  counted_count: cashCount.nullable(),
  usd: drawer,
  khr: drawer,
  /** The shift's sales (checked out while it was open): how many and their total. */
  orders_count: z.number().int(),
  sales_cents: z.number().int().nullable(),
  movements: z.array(shiftMovement),
  /** Every tender taken in the shift by method (cash in its currency's units, the rest in cents); none while blind. */
  payments: z.array(z.object({ method: z.string(), amount: z.number().int() })),
  /** Whether the close is blind for this user (none of the drawer's figures are shown). */
  blind: z.boolean(),
});
export type ShiftDetail = z.infer<typeof shiftDetail>;

/** The differences of closed shifts per cashier and day (reports). */
export const shiftDifferenceRow = z.object({
  user_id: z.number().int(),
  user_name: z.string().nullable(),
  day: z.string(),
  shifts: z.number().int(),
  difference_usd_cents: z.number().int(),
  difference_khr: z.number().int(),
});
export type ShiftDifferenceRow = z.infer<typeof shiftDifferenceRow>;

/** The shifts report's query: a range of Cambodian days, a store (optional). */
export const shiftReportQuery = z
  .object({
    from: z.iso.date(),
    to: z.iso.date(),
    store_id: z.coerce.number().int().min(1).max(MAX_ID).optional(),
  })
  .refine((q) => q.to >= q.from, { path: ['to'], params: { message: 'report.range_order' } });
export type ShiftReportQuery = z.output<typeof shiftReportQuery>;
