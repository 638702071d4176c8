/**
 * Money is never a float. US dollars are held in cents, riel in whole riel, exchange rates in
 * whole riel per dollar; every conversion and rounding lives here.
 */
export const KHR_ROUNDING_STEPS = [100, 500, 1000] as const;
export type KhrRoundingStep = (typeof KHR_ROUNDING_STEPS)[number];
export const DEFAULT_KHR_ROUNDING_STEP: KhrRoundingStep = 100;
export const DEFAULT_EXCHANGE_RATE_KHR = 4100;

function assertInteger(value: number, what: string): void {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${what} must be a whole number, got ${value}`);
}

/** Riel, rounded half up to the step, for an amount in US cents at a rate in riel per dollar. */
export function usdCentsToKhr(cents: number, ratePerUsd: number, step: number = DEFAULT_KHR_ROUNDING_STEP): number {
  assertInteger(cents, 'cents');
  assertInteger(ratePerUsd, 'rate');
  assertInteger(step, 'step');
  const hundredthsOfRiel = cents * ratePerUsd; // riel × 100
  const unit = step * 100;
  const sign = hundredthsOfRiel < 0 ? -1 : 1;
  return sign * Math.floor((Math.abs(hundredthsOfRiel) + unit / 2) / unit) * step;
}

/** Riel rounded half up to the step (100 riel is the smallest note in daily use). */
export function roundKhr(riel: number, step: number = DEFAULT_KHR_ROUNDING_STEP): number {
  assertInteger(riel, 'riel');
  const sign = riel < 0 ? -1 : 1;
  return sign * Math.floor((Math.abs(riel) + step / 2) / step) * step;
}

/** "12.50" from 1250 cents. */
export function formatUsdCents(cents: number): string {
  assertInteger(cents, 'cents');
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** 1250 from "12.50", "12.5" or "12"; null for anything else (no floats are involved). */
export function parseUsdCents(text: string): number | null {
  const match = /^\s*(-)?(\d{1,9})(?:\.(\d{1,2}))?\s*$/.exec(text);
  if (!match) return null;
  const cents = Number(match[2]) * 100 + Number((match[3] ?? '').padEnd(2, '0'));
  return match[1] ? -cents : cents;
}

/** "5,200៛" from 5200 riel: thousands grouped as on Cambodian price tags. */
export function formatKhr(riel: number): string {
  assertInteger(riel, 'riel');
  const sign = riel < 0 ? '-' : '';
  return `${sign}${String(Math.abs(riel)).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}៛`;
}

/** "$12.50" from 1250 cents. */
export function formatUsd(cents: number): string {
  const text = formatUsdCents(cents);
  return text.startsWith('-') ? `-$${text.slice(1)}` : `$${text}`;
}
