import { formatKhr, formatUsd } from './format.ts';
import { rielAtStep, rielOf } from './money.ts';
import { allocate } from './purchases.ts';

/**
 * What a sale costs and how it is settled, the same on the till and on the server. Every amount is
 * an integer: US cents, whole riel, VAT in basis points (1000 = 10 %), percentage discounts in basis
 * points too (1500 = 15 %). Prices are before VAT; VAT is added on taxable lines after discounts.
 */

export const DISCOUNT_TYPES = ['percentage', 'value', 'fixed'] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];

/** A discount as the pricing sees it: `percentage` (basis points), `value` (cents off), `fixed` (the price). */
export interface DiscountRule {
  type: DiscountType;
  amount: number;
}

export interface CartLine {
  /** Price of one unit sold (a carton's price for a carton), in cents. */
  unit_price_cents: number;
  /** Whole units, or for a unit with decimals its smallest steps (grams of a kilogram). */
  quantity: number;
  /** The unit's decimals (kg: 3): the quantity is in 10^-decimals of the unit; absent: 0. */
  decimals?: number;
  taxable: boolean;
  /** A line discount: `value` is off each unit, `fixed` is each unit's price, `percentage` of the line. */
  discount?: DiscountRule | null;
}

export interface Cart {
  lines: readonly CartLine[];
  /** On the whole order, after line discounts: `value` cents off, `percentage` of it; `fixed` sets its total. */
  order_discount?: DiscountRule | null;
  vat_rate_bp: number;
  delivery_fee_cents?: number;
}

export interface PricedLine {
  gross_cents: number;
  line_discount_cents: number;
  /** The line's share of the order discount. */
  order_discount_cents: number;
  net_cents: number;
  tax_cents: number;
  total_cents: number;
}

export interface PricedCart {
  lines: PricedLine[];
  subtotal_cents: number;
  discount_cents: number;
  tax_cents: number;
  delivery_fee_cents: number;
  total_cents: number;
}

/** `value × bp / 10000`, rounded half up (values are never negative here). */
function ofBasisPoints(value: number, bp: number): number {
  return Number((BigInt(value) * BigInt(bp) * 2n + 10_000n) / 20_000n);
}

/**
 * A price per whole unit times a quantity in the unit's steps (`decimals`: 3 for grams of a kg),
 * in cents: `price × quantity / 10^decimals`, rounded half up once. The one line total of till and server.
 */
export function lineGross(unitPriceCents: number, quantity: number, decimals = 0): number {
  if (!decimals) return unitPriceCents * quantity;
  const steps = 10n ** BigInt(decimals);
  return Number((BigInt(unitPriceCents) * BigInt(quantity) * 2n + steps) / (2n * steps));
}

/** What a discount takes off an amount of `quantity` units worth `gross` in all: never more than all of it. */
function discountOff(rule: DiscountRule | null | undefined, gross: number, quantity: number, decimals = 0): number {
  if (!rule) return 0;
  const off =
    rule.type === 'percentage'
      ? ofBasisPoints(gross, Math.min(rule.amount, 10_000))
      : rule.type === 'value'
        ? lineGross(rule.amount, quantity, decimals)
        : gross - lineGross(rule.amount, quantity, decimals);
  return Math.min(gross, Math.max(0, off));
}

/**
 * Prices a cart: each line's gross and discount, the order discount shared over the lines by value
 * (to the cent), VAT per taxable line on what is left, and the total with the delivery fee.
 */
export function priceCart(cart: Cart): PricedCart {
  const gross = cart.lines.map((l) => lineGross(l.unit_price_cents, l.quantity, l.decimals));
  const lineOff = cart.lines.map((l, i) => discountOff(l.discount, gross[i], l.quantity, l.decimals));
  const afterLines = gross.map((g, i) => g - lineOff[i]);
  const sum = afterLines.reduce((a, b) => a + b, 0);
  // a fixed order discount sets the order's price: the discount is what it takes off
  const orderRule = cart.order_discount;
  const orderOff =
    orderRule?.type === 'fixed' ? Math.min(sum, Math.max(0, sum - orderRule.amount)) : discountOff(orderRule, sum, 1);
  const shares = allocate(orderOff, afterLines);
  const lines = cart.lines.map((line, i) => {
    const net = afterLines[i] - shares[i];
    const tax = line.taxable ? ofBasisPoints(net, cart.vat_rate_bp) : 0;
    return {
      gross_cents: gross[i],
      line_discount_cents: lineOff[i],
      order_discount_cents: shares[i],
      net_cents: net,
      tax_cents: tax,
      total_cents: net + tax,
    };
  });
  const subtotal = gross.reduce((a, b) => a + b, 0);
  const discount = lines.reduce((a, l) => a + l.line_discount_cents + l.order_discount_cents, 0);
  const tax = lines.reduce((a, l) => a + l.tax_cents, 0);
  const fee = cart.delivery_fee_cents ?? 0;
  return {
    lines,
    subtotal_cents: subtotal,
    discount_cents: discount,
    tax_cents: tax,
    delivery_fee_cents: fee,
    total_cents: subtotal - discount + tax + fee,
  };
}

// ─── settling in dollars and riel ───────────────────────────────────────────────────────────

export const TENDER_METHODS = ['cash_usd', 'cash_khr', 'card', 'bank_transfer', 'khqr'] as const;
export type TenderMethod = (typeof TENDER_METHODS)[number];

/** Money handed over: cash riel is counted in riel, everything else in US cents. */
export interface Tender {
  method: TenderMethod;
  amount: number;
}

/** The rates of a sale: riel per dollar, with optional rates for riel received and given back. */
export interface Rates {
  rate_khr: number;
  rate_in_khr?: number | null;
  rate_out_khr?: number | null;
  khr_step: number;
}

/**
 * How the change was handed back, which the cashier chooses at the till: whole dollars and the rest
 * in riel (the usual way), all of it in dollars, or all of it in riel. The drawers (shifts) and the
 * cash reports count what left each currency's drawer.
 */
export const CHANGE_IN = ['split', 'usd', 'khr'] as const;
export type ChangeIn = (typeof CHANGE_IN)[number];

/** The change as it left each drawer, for a settlement and the way it was handed back. */
export function changeGiven(s: Pick<Settlement, 'change_cents' | 'change_khr' | 'change_split'>, how: ChangeIn) {
  if (how === 'usd') return { usd_cents: s.change_cents, khr: 0 };
  if (how === 'khr') return { usd_cents: 0, khr: s.change_khr };
  return s.change_split;
}

/** Change as handed back, for people: "$5.00 + 3,600៛", "$5.87" or "24,100៛". */
export function formatChange(given: { usd_cents: number; khr: number }): string {
  if (given.usd_cents > 0 && given.khr > 0) return `${formatUsd(given.usd_cents)} + ${formatKhr(given.khr)}`;
  return given.khr > 0 ? formatKhr(given.khr) : formatUsd(given.usd_cents);
}

export interface Settlement {
  /** The total's riel figure (money.ts `rielOf`): what a customer paying only riel hands over. */
  total_khr: number;
  /** The dollar value of what was handed over (riel at the rate for riel received, down to the cent). */
  tendered_cents: number;
  /** Still to pay, in dollars and in riel (0 once what is left rounds to no riel at all). */
  due_cents: number;
  due_khr: number;
  /** Too much handed over: the change in dollars, all of it in riel, or whole dollars and riel. */
  change_cents: number;
  change_khr: number;
  change_split: { usd_cents: number; khr: number };
  status: 'unpaid' | 'partially_paid' | 'paid';
}

/**
 * What has been paid against a total, and the change. Riel received counts at the rate for riel
 * received; change in riel is given at the rate for riel given; both default to the rate. The
 * reckoning is in hundredths of a riel at the rate received, so riel and cents meet without a
 * fraction lost: a sale is paid once what is left, in riel, rounds to nothing at the step (the
 * customer who hands over the rounded riel total has paid).
 */
export function settle(totalCents: number, tenders: readonly Tender[], rates: Rates): Settlement {
  const rateIn = BigInt(rates.rate_in_khr || rates.rate_khr);
  const rateOut = BigInt(rates.rate_out_khr || rates.rate_khr);
  const step = rates.khr_step;
  // value in hundredths of a riel at the rate received
  const totalU = BigInt(totalCents) * rateIn;
  const tenderedU = tenders.reduce(
    (sum, t) => sum + (t.method === 'cash_khr' ? BigInt(t.amount) * 100n : BigInt(t.amount) * rateIn),
    0n,
  );
  const left = totalU - tenderedU;
  let due = 0;
  let dueKhr = 0;
  let change = 0;
  let changeKhr = 0;
  let split = { usd_cents: 0, khr: 0 };
  if (left > 0n) {
    dueKhr = rielAtStep(left, 100n, step);
    // less than half a step left after a payment: paid (the rounded riel total was handed over)
    if (dueKhr > 0 || tenderedU === 0n) due = Number((left + rateIn - 1n) / rateIn);
    if (due === 0) dueKhr = 0;
  } else if (left < 0n) {
    const over = -left;
    change = Number(over / rateIn);
    // riel for a value in hundredths of riel at the rate received, given at the rate for change
    const asKhr = (u: bigint) => rielAtStep(u * rateOut, rateIn * 100n, step);
    changeKhr = asKhr(over);
    const dollars = Math.floor(change / 100) * 100;
    split = { usd_cents: dollars, khr: asKhr(over - BigInt(dollars) * rateIn) };
  }
  return {
    total_khr: rielOf(totalCents, rates),
    tendered_cents: Number(tenderedU / rateIn),
    due_cents: due,
    due_khr: dueKhr,
    change_cents: change,
    change_khr: changeKhr,
    change_split: split,
    status: due === 0 ? 'paid' : tenderedU > 0n ? 'partially_paid' : 'unpaid',
  };
}
