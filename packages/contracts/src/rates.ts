import { z } from 'zod';
import { DEFAULT_KHR_ROUNDING_STEP, KHR_ROUNDING_STEPS } from './money.ts';
import type { Rates } from './pricing.ts';

/**
 * The exchange rate (spec: a Khmer riel rate with a last-updated time) and the settings of a sale.
 * Rates are whole riel per US dollar. `rate_in_khr` is what riel handed over count at, and
 * `rate_out_khr` what change in riel is given at (pricing.ts `settle`); without them, the rate.
 * Every new rate is kept: the newest is the current one, and it is stale once older than
 * `stale_after_hours` (the till then warns the cashier to check it).
 */
export const RATE_KHR_MIN = 1_000;
export const RATE_KHR_MAX = 10_000;
export const VAT_RATE_BP_MAX = 3_000;
export const STALE_AFTER_HOURS_MAX = 720;
export const RECEIPT_TEXT_MAX = 200;

/**
 * Which riel rate an invoice states its total at, as the business chooses (sale settings):
 * `gdt_monthly` the General Department of Taxation's published rate of the previous month;
 * `market` the depot's own rate (the sale's), never below the National Bank's daily rate.
 */
export const RATE_POLICIES = ['gdt_monthly', 'market'] as const;
export type RatePolicy = (typeof RATE_POLICIES)[number];
export const DEFAULT_RATE_POLICY: RatePolicy = 'market';

const rate = z.number().int().min(RATE_KHR_MIN).max(RATE_KHR_MAX);
const optionalRate = rate.nullish().transform((v) => v ?? null);

export const exchangeRateInput = z.object({
  rate_khr: rate,
  rate_in_khr: optionalRate,
  rate_out_khr: optionalRate,
  note: z
    .string()
    .trim()
    .max(255)
    .nullish()
    .transform((v) => (v ? v : null)),
});
export type ExchangeRateInput = z.input<typeof exchangeRateInput>;

/** One rate of the history. */
export const exchangeRate = z.object({
  id: z.number().int(),
  rate_khr: z.number().int(),
  rate_in_khr: z.number().int().nullable(),
  rate_out_khr: z.number().int().nullable(),
  note: z.string().nullable(),
  created_by: z.number().int().nullable(),
  created_by_name: z.string().nullable(),
  created_at: z.string(),
});
export type ExchangeRate = z.infer<typeof exchangeRate>;

/**
 * `GET /api/exchange-rates/current`: what a till needs to sell. Before any rate is entered, the
 * rate of the settings, with `updated_at` null and `stale` true.
 */
export const currentRates = z.object({
  rate_khr: z.number().int(),
  rate_in_khr: z.number().int().nullable(),
  rate_out_khr: z.number().int().nullable(),
  khr_step: z.number().int(),
  vat_rate_bp: z.number().int(),
  stale_after_hours: z.number().int(),
  updated_at: z.string().nullable(),
  updated_by_name: z.string().nullable(),
  stale: z.boolean(),
  /** The receipt's texts, for the till to print (a cashier reads them here, not in the settings). */
  receipt_title: z.string(),
  receipt_footer: z.string(),
});
export type CurrentRates = z.infer<typeof currentRates>;

const receiptText = z
  .string()
  .trim()
  .max(RECEIPT_TEXT_MAX)
  .nullish()
  .transform((v) => v ?? '');

/**
 * The settings of a sale: VAT in basis points (1000 = 10 %), the riel rounding step (also the step
 * of products' riel prices), how old a rate may be before it is stale, and the receipt's title and
 * footer (Khmer or English). An empty title prints the system title.
 */
export const saleSettingsInput = z.object({
  vat_rate_bp: z.number().int().min(0).max(VAT_RATE_BP_MAX),
  khr_rounding_step: z.literal(KHR_ROUNDING_STEPS),
  stale_after_hours: z.number().int().min(1).max(STALE_AFTER_HOURS_MAX),
  receipt_title: receiptText,
  receipt_footer: receiptText,
  /** Left out: unchanged (clients older than the setting). */
  tax_rate_policy: z.enum(RATE_POLICIES).optional(),
});
export type SaleSettingsInput = z.input<typeof saleSettingsInput>;

export const saleSettings = z.object({
  vat_rate_bp: z.number().int(),
  khr_rounding_step: z.literal(KHR_ROUNDING_STEPS),
  stale_after_hours: z.number().int(),
  receipt_title: z.string(),
  receipt_footer: z.string(),
  tax_rate_policy: z.enum(RATE_POLICIES),
});
export type SaleSettings = z.infer<typeof saleSettings>;

export const DEFAULT_SALE_SETTINGS: SaleSettings = {
  vat_rate_bp: 1000,
  khr_rounding_step: DEFAULT_KHR_ROUNDING_STEP,
  stale_after_hours: 24,
  receipt_title: '',
  receipt_footer: 'សូមអរគុណ! Thank you!',
  tax_rate_policy: DEFAULT_RATE_POLICY,
};

/** The rates of a sale and its VAT: what the orders module prices and settles with. */
export interface SaleRates extends Rates {
  rate_in_khr: number | null;
  rate_out_khr: number | null;
  vat_rate_bp: number;
}

/** A rate set at `updatedAt` is stale once more than `hours` have passed (never set: stale). */
export function isRateStale(updatedAt: string | null, hours: number, at: Date = new Date()): boolean {
  if (!updatedAt) return true;
  return at.getTime() - new Date(updatedAt).getTime() > hours * 3_600_000;
}
