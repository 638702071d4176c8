/**
 * Money is never a float. US dollars are held in cents, riel in whole riel, exchange rates in
 * whole riel per dollar; every conversion and rounding lives here.
 */
import { latinDigits } from './numerals.ts';
export const KHR_ROUNDING_STEPS = [100, 500, 1000] as const;
export type KhrRoundingStep = (typeof KHR_ROUNDING_STEPS)[number];
export const DEFAULT_KHR_ROUNDING_STEP: KhrRoundingStep = 100;
export const DEFAULT_EXCHANGE_RATE_KHR = 4100;

function assertInteger(value: number, what: string): void {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${what} must be a whole number, got ${value}`);
}

/*
 * Riel, the rule (docs/ARCHITECTURE.md, "Money"). Depot sells in dollars: prices, discounts, VAT
 * and totals are cents, and a sale is settled against its dollar total. Riel is what a dollar amount
 * comes to for a customer paying riel: the amount at the rate riel is received at (`rate_in_khr`,
 * else the day's rate), converted exactly and rounded once, half up, straight to the riel step
 * (`rielOf`). Every riel figure a cashier or a customer reads is that of the dollar figure beside
 * it, by this one function: a product's price on the till's tile and in the product list, the
 * cart's total, the review, the amount due, the receipt and the invoice. So one $1.50 item is
 * 6,200៛ at 4,100 (6,150 rounded), and two are $3.00 = 12,300៛, not 2 × 6,200៛: the riel of a sum
 * is the riel of the sum, rounded once. The riel of parts does not add up to the riel of the whole,
 * so a cart line or a receipt line shows dollars only; riel stands beside what is paid at once (one
 * of a product, the sale). A product's own riel price (`price_khr`) is its label price: no sale
 * charges it, so the till never shows it as a price.
 */

/** Rates as riel figures need them: riel per dollar, the rate riel is received at, the step. */
export interface RielRates {
  rate_khr: number;
  rate_in_khr?: number | null;
  khr_step: number;
}

/** The rate riel handed over count at: the rate for riel received, else the day's rate. */
export function rielRate(rates: Pick<RielRates, 'rate_khr' | 'rate_in_khr'>): number {
  return rates.rate_in_khr || rates.rate_khr;
}

/**
 * Riel for `n / d` riel, rounded once, half up (away from zero), straight to the step: never to the
 * riel first. The one rounding of riel: every conversion and every riel amount of a settlement.
 */
export function rielAtStep(n: bigint, d: bigint, step: number): number {
  assertInteger(step, 'step');
  if (d <= 0n || step <= 0) throw new RangeError('a riel amount needs a positive divisor and step');
  const unit = d * BigInt(step);
  const magnitude = ((n < 0n ? -n : n) * 2n + unit) / (unit * 2n);
  return Number(n < 0n ? -magnitude : magnitude) * step;
}

/** Riel for an amount in US cents at a rate in riel per dollar, rounded once to the step. */
export function usdCentsToKhr(cents: number, ratePerUsd: number, step: number = DEFAULT_KHR_ROUNDING_STEP): number {
  assertInteger(cents, 'cents');
  assertInteger(ratePerUsd, 'rate');
  return rielAtStep(BigInt(cents) * BigInt(ratePerUsd), 100n, step);
}

/** The riel figure of a dollar amount: what a customer paying riel hands over for it (the rule above). */
export function rielOf(cents: number, rates: RielRates): number {
  return usdCentsToKhr(cents, rielRate(rates), rates.khr_step);
}

/** The cents a riel amount is worth at a rate, rounded down (a till never credits a fraction). */
export function khrToCents(riel: number, rate: number): number {
  assertInteger(riel, 'riel');
  assertInteger(rate, 'rate');
  return Number((BigInt(riel) * 100n) / BigInt(rate));
}

/** Riel rounded half up to the step (100 riel is the smallest note in daily use). */
export function roundKhr(riel: number, step: number = DEFAULT_KHR_ROUNDING_STEP): number {
  assertInteger(riel, 'riel');
  return rielAtStep(BigInt(riel), 1n, step);
}

/** "12.50" from 1250 cents: how a dollar amount is typed (format.ts `formatUsd` is how it is read). */
export function formatUsdCents(cents: number): string {
  assertInteger(cents, 'cents');
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** 1250 from "12.50", "12.5" or "12" (Khmer digits too); null for anything else (no floats are involved). */
export function parseUsdCents(text: string): number | null {
  const match = /^\s*(-)?(\d{1,9})(?:\.(\d{1,2}))?\s*$/.exec(latinDigits(text));
  if (!match) return null;
  const cents = Number(match[2]) * 100 + Number((match[3] ?? '').padEnd(2, '0'));
  return match[1] ? -cents : cents;
}
