import { z } from 'zod';
import { gtinCheckDigit } from './barcode.ts';
import { latinDigits } from './numerals.ts';
import { lineGross } from './pricing.ts';

/**
 * Weighed goods and the barcodes a label scale prints. A unit may have decimals (kg: 3, m: 2);
 * quantities of its products are whole numbers of its smallest step (grams) everywhere they are
 * kept. A label scale prints an EAN-13 of the store's layout: a prefix 20–29, the product's code,
 * the weight or the price, the check digit: `PP CCCCC VVVVV K`. The till (online and offline) and
 * the server read them with `parseScaleBarcode`, the one reading.
 */

export const SCALE_VALUE_KINDS = ['weight', 'price'] as const;
export type ScaleValueKind = (typeof SCALE_VALUE_KINDS)[number];

/** Code and value share the 10 digits between the 2-digit prefix and the check digit. */
export const SCALE_BODY_DIGITS = 10;

export const scaleLayout = z
  .object({
    /** "20" to "29": the GS1 prefixes for a store's own variable-measure codes. */
    prefix: z.string().refine((v) => /^2\d$/.test(v), { params: { message: 'validation.scale_prefix' } }),
    /** Digits of the product's code: the product's barcode (its PLU on the scale) is these digits. */
    code_length: z
      .number()
      .int()
      .min(1)
      .max(SCALE_BODY_DIGITS - 1),
    value_length: z
      .number()
      .int()
      .min(1)
      .max(SCALE_BODY_DIGITS - 1),
    /** Decimals of the value: a weight in kg with 3 (grams), a price in dollars with 2 (cents). */
    decimals: z.number().int().min(0).max(3),
    kind: z.enum(SCALE_VALUE_KINDS),
  })
  .refine((l) => l.code_length + l.value_length === SCALE_BODY_DIGITS, {
    path: ['value_length'],
    params: { message: 'validation.scale_lengths' },
  });
export type ScaleLayout = z.infer<typeof scaleLayout>;

/** The store's layouts: one per prefix. */
export const scaleSettings = z.object({
  layouts: z
    .array(scaleLayout)
    .max(10)
    .refine((list) => new Set(list.map((l) => l.prefix)).size === list.length, {
      params: { message: 'validation.unique' },
    }),
});
export type ScaleSettings = z.infer<typeof scaleSettings>;

/** None until the store says how its scales print (a 20–29 code is otherwise a product's own barcode). */
export const DEFAULT_SCALE_SETTINGS: ScaleSettings = { layouts: [] };

/** A common layout to start from: prefix 20, a 5-digit code, the weight in grams. */
export const COMMON_SCALE_LAYOUT: ScaleLayout = {
  prefix: '20',
  code_length: 5,
  value_length: 5,
  decimals: 3,
  kind: 'weight',
};

/**
 * A quantity typed in its unit ("1.25" kg, Khmer digits too) as whole steps of the unit (1250 g
 * for `decimals` 3), read exactly (no float); null when it is not a quantity with at most
 * `decimals` places.
 */
export function parseQuantity(text: string, decimals: number): number | null {
  const match = /^\s*(\d{1,9})(?:[.,](\d*))?\s*$/.exec(latinDigits(text));
  if (!match) return null;
  const fraction = match[2] ?? '';
  if (fraction.length > decimals) return null;
  return Number(match[1]) * 10 ** decimals + Number(fraction.padEnd(decimals, '0') || '0');
}

export interface ScaleCode {
  layout: ScaleLayout;
  /** The product's code as printed (leading zeros kept). */
  code: string;
  /** The value's digits as a whole number: grams, or cents, at the layout's decimals. */
  value: number;
}

/** Whether a code is a GS1 store variable-measure EAN-13: 13 digits starting 20–29. */
export function isScalePrefix(code: string): boolean {
  return /^2\d{12}$/.test(code);
}

/**
 * The product code and value of a scale barcode in one of the layouts; null for any other code:
 * not 13 digits, a prefix no layout has, or a wrong check digit.
 */
export function parseScaleBarcode(code: string, layouts: readonly ScaleLayout[]): ScaleCode | null {
  if (!isScalePrefix(code)) return null;
  const layout = layouts.find((l) => l.prefix === code.slice(0, 2));
  if (!layout) return null;
  if (gtinCheckDigit(code.slice(0, 12)) !== Number(code[12])) return null;
  const body = code.slice(2, 12);
  return {
    layout,
    code: body.slice(0, layout.code_length),
    value: Number(body.slice(layout.code_length)),
  };
}

/**
 * The product codes a scale barcode may carry, whatever the layout (every code length), for a
 * lookup that does not know the store's layouts (the server's `filter[code]`); none for a code
 * that is not a scale code or whose check digit is wrong. `parseScaleBarcode` then picks.
 */
export function scaleCodeCandidates(code: string): string[] {
  if (!isScalePrefix(code) || gtinCheckDigit(code.slice(0, 12)) !== Number(code[12])) return [];
  return Array.from({ length: SCALE_BODY_DIGITS - 1 }, (_, i) => code.slice(2, 3 + i));
}

/** The barcode a label scale prints for a code and a value (tests, and labels printed in store). */
export function encodeScaleBarcode(layout: ScaleLayout, code: string, value: number): string {
  if (!/^\d+$/.test(code) || code.length > layout.code_length) throw new RangeError(`bad code ${code}`);
  const digits = String(value);
  if (!Number.isSafeInteger(value) || value < 0 || digits.length > layout.value_length)
    throw new RangeError(`bad value ${value}`);
  const body = `${layout.prefix}${code.padStart(layout.code_length, '0')}${digits.padStart(layout.value_length, '0')}`;
  return `${body}${gtinCheckDigit(body)}`;
}

/** `value` at `from` decimals as a whole number at `to` decimals, half up (a weight to the unit's step). */
function rescale(value: number, from: number, to: number): number {
  if (to >= from) return value * 10 ** (to - from);
  const div = 10 ** (from - to);
  return Math.floor((value * 2 + div) / (2 * div));
}

/**
 * What a scale code puts in the cart for a product whose unit has `unitDecimals`, priced at
 * `unitPriceCents` per whole unit: a weight is the quantity; a price is the quantity it buys.
 * The quantity bought is the one whose line total (`lineGross`) is the printed price when one
 * exists: what the label says is what the customer pays, and the stock goes down by the weight
 * the scale weighed. Null when the code says nothing sellable (no weight, no price).
 */
export function scaleQuantity(scan: ScaleCode, unitDecimals: number, unitPriceCents: number): number | null {
  if (scan.layout.kind === 'weight') {
    const quantity = rescale(scan.value, scan.layout.decimals, unitDecimals);
    return quantity > 0 ? quantity : null;
  }
  const price = rescale(scan.value, scan.layout.decimals, 2);
  if (price <= 0 || unitPriceCents <= 0) return null;
  return quantityForPrice(price, unitPriceCents, unitDecimals);
}

/** The quantity (in the unit's steps) that `priceCents` buys at `unitPriceCents`: exact when it can be. */
export function quantityForPrice(priceCents: number, unitPriceCents: number, decimals: number): number {
  const steps = 10 ** decimals;
  const near = Math.max(1, Math.round((priceCents * steps) / unitPriceCents));
  for (const q of [near, near - 1, near + 1]) {
    if (q >= 1 && lineGross(unitPriceCents, q, decimals) === priceCents) return q;
  }
  return near;
}
