import { z } from 'zod';

/**
 * Serial and IMEI numbers (issue 28). A product with `serial_tracked` carries one serial per base
 * unit: received with a purchase, named when sold, returned and transferred by it. A serial is
 * letters, digits and - / . (a scanner's code); one of 15 digits is an IMEI and must pass its Luhn
 * check (`isValidImei`): the one rule, for the server's checks and the web's forms.
 */
export const SERIAL_STATUSES = ['in_stock', 'sold', 'returned', 'moved'] as const;
export type SerialStatus = (typeof SERIAL_STATUSES)[number];
/** The states in which a unit is on a store's shelf and may be sold or sent. */
export const SERIAL_ON_HAND: readonly SerialStatus[] = ['in_stock', 'returned'];
export const SERIAL_MAX = 64;

/** An IMEI: 15 digits, the last the Luhn check digit of the first 14. */
export function isImei(serial: string): boolean {
  return /^\d{15}$/.test(serial);
}

/** The Luhn check (ISO/IEC 7812-1) of a string of digits, its last digit the check digit. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** A serial's check: a 15-digit serial is an IMEI and must pass Luhn; other serials are free. */
export function isValidSerial(serial: string): boolean {
  return !isImei(serial) || luhnValid(serial);
}

/** A serial as typed or scanned: trimmed, its letters upper case (a serial is compared as written). */
export const serialText = z
  .string()
  .trim()
  .toUpperCase()
  .refine((s) => /^[A-Z0-9][A-Z0-9./-]{0,63}$/.test(s), { params: { message: 'serial.format' } })
  .refine(isValidSerial, { params: { message: 'serial.imei' } });

/** A line's serials (one per base unit), none named twice; absent: none. */
export const serialsField = z
  .array(serialText)
  .max(500)
  .refine((list) => new Set(list).size === list.length, { params: { message: 'serial.duplicate' } })
  .nullish()
  .transform((v) => v ?? []);

/**
 * `GET /api/serials?search=`: a unit found by its serial, with where it is and, sold, who bought
 * it, when, and the warranty's end (`warranty_until`, the sale's day plus the product's months).
 */
export const serialRecord = z.object({
  id: z.number().int(),
  serial: z.string(),
  product_id: z.number().int(),
  product_name_en: z.string(),
  product_name_kh: z.string(),
  sku: z.string(),
  store_id: z.number().int(),
  store_name: z.string(),
  status: z.enum(SERIAL_STATUSES),
  warranty_months: z.number().int(),
  received_at: z.string(),
  purchase_number: z.string().nullable(),
  order_id: z.number().int().nullable(),
  order_number: z.string().nullable(),
  invoice_number: z.string().nullable(),
  customer_name: z.string().nullable(),
  customer_phone: z.string().nullable(),
  sold_at: z.string().nullable(),
  warranty_until: z.string().nullable(),
});
export type SerialRecord = z.infer<typeof serialRecord>;

export const serialSearchQuery = z.object({
  search: z.string().trim().min(1).max(SERIAL_MAX),
});
