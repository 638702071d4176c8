import { z } from 'zod';
import { abilitiesOf } from './abilities.ts';
import { MAX_ID } from './ids.ts';
import { recordFields } from './resources.ts';
import { serialsField } from './serials.ts';
import { expiryDate, lot, productNames, QUANTITY_MAX } from './stock.ts';

/**
 * A purchase from a supplier into one store. Draft → ordered → partially received → received, or
 * cancelled before anything arrives. Money in US cents: items at a unit price in the unit bought
 * (a carton), shipping spread over the items by their value when they are received (their landed
 * cost), tax kept apart (input VAT is claimed back, not stocked).
 */
export const PURCHASE_STATUSES = ['draft', 'ordered', 'partially_received', 'received', 'cancelled'] as const;
export type PurchaseStatus = (typeof PURCHASE_STATUSES)[number];

/** What may be done with a purchase (its `abilities`): edit, send to the supplier, receive, pay, cancel. */
export const PURCHASE_ACTIONS = ['update', 'order', 'receive', 'pay', 'cancel'] as const;
export type PurchaseAction = (typeof PURCHASE_ACTIONS)[number];
export const purchaseAbilities = abilitiesOf(PURCHASE_ACTIONS);

/** Spec section 4: payment statuses (a purchase uses the first three). */
export const PAYMENT_STATUSES = ['unpaid', 'partially_paid', 'paid', 'pending', 'onhold'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const PAYMENT_METHODS = ['cash_usd', 'cash_khr', 'bank_transfer', 'khqr', 'card', 'cheque'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** The most one line may come to ($100,000,000): quantity × unit price stays an exact integer. */
export const LINE_TOTAL_MAX_CENTS = 10_000_000_000;

const id = z.number().int().min(1).max(MAX_ID);
const cents = z.number().int().min(0).max(10_000_000_000);
const note = z
  .string()
  .trim()
  .max(500)
  .nullish()
  .transform((v) => (v ? v : null));

export const purchaseItemInput = z.object({
  product_id: id,
  /** The unit bought: the product's base unit or one made of it (a carton of 24). */
  unit_id: id,
  quantity: z.number().int().min(1).max(QUANTITY_MAX),
  /** Per unit bought, in cents. */
  unit_price_cents: cents,
  lot,
  expiry_date: expiryDate,
});
export type PurchaseItemInput = z.input<typeof purchaseItemInput>;

/** Create and update: the whole purchase. `ordered: false` keeps it a draft. */
export const purchaseInput = z.object({
  supplier_id: id,
  store_id: id,
  purchase_date: z.iso.date(),
  notes: note,
  shipping_cents: cents.default(0),
  tax_cents: cents.default(0),
  ordered: z.boolean().default(true),
  items: z.array(purchaseItemInput).min(1).max(500),
});
export type PurchaseInput = z.input<typeof purchaseInput>;

/** Receive some or all of what is still due, line by line, in each line's unit. */
export const receiveInput = z.object({
  received_at: z.iso.date().nullish(),
  items: z
    .array(
      z.object({
        item_id: id,
        quantity: z.number().int().min(1).max(QUANTITY_MAX),
        /** A serial-tracked product's serials, one per base unit received, scanned or typed (serials.ts). */
        serials: serialsField,
      }),
    )
    .min(1)
    .max(500),
});
export type ReceiveInput = z.input<typeof receiveInput>;

export const purchasePaymentInput = z.object({
  amount_cents: z.number().int().min(1).max(10_000_000_000),
  method: z.enum(PAYMENT_METHODS),
  paid_at: z.iso.date(),
  reference: z
    .string()
    .trim()
    .max(100)
    .nullish()
    .transform((v) => (v ? v : null)),
  note,
});
export type PurchasePaymentInput = z.input<typeof purchasePaymentInput>;

export const purchaseItem = z.object({
  id: z.number().int(),
  ...productNames,
  unit_id: z.number().int(),
  unit_name_en: z.string(),
  unit_name_kh: z.string(),
  factor: z.number().int(),
  quantity: z.number().int(),
  received_quantity: z.number().int(),
  unit_price_cents: z.number().int(),
  line_total_cents: z.number().int(),
  /** The line's share of the shipping, added to its cost when received. */
  shipping_share_cents: z.number().int(),
  /** The landed value (line total + shipping share) already received into stock. */
  received_value_cents: z.number().int(),
  lot: z.string().nullable(),
  expiry_date: z.string().nullable(),
  /** The product is received by serial: one per base unit (serials.ts). */
  serial_tracked: z.coerce.boolean().default(false),
});
export type PurchaseItem = z.infer<typeof purchaseItem>;

export const purchasePayment = z.object({
  id: z.number().int(),
  amount_cents: z.number().int(),
  method: z.enum(PAYMENT_METHODS),
  paid_at: z.string(),
  reference: z.string().nullable(),
  note: z.string().nullable(),
  created_by_name: z.string().nullable(),
  created_at: z.string(),
});

export const purchase = z.object({
  ...recordFields,
  number: z.string(),
  supplier_id: z.number().int(),
  supplier_name: z.string(),
  store_id: z.number().int(),
  store_name: z.string(),
  purchase_date: z.string(),
  notes: z.string().nullable(),
  status: z.enum(PURCHASE_STATUSES),
  subtotal_cents: z.number().int(),
  shipping_cents: z.number().int(),
  tax_cents: z.number().int(),
  grand_total_cents: z.number().int(),
  paid_cents: z.number().int(),
  due_cents: z.number().int(),
  payment_status: z.enum(PAYMENT_STATUSES),
  items_count: z.number().int(),
  created_by_name: z.string().nullable(),
  received_at: z.string().nullable(),
  cancelled_at: z.string().nullable(),
  abilities: purchaseAbilities,
});
export type Purchase = z.infer<typeof purchase>;

export const purchaseDetail = purchase.extend({
  items: z.array(purchaseItem),
  payments: z.array(purchasePayment),
});
export type PurchaseDetail = z.infer<typeof purchaseDetail>;

/** Status for a paid amount against a total (spec: unpaid, partially paid, paid). */
export function paymentStatusOf(paidCents: number, totalCents: number): 'unpaid' | 'partially_paid' | 'paid' {
  if (paidCents <= 0) return totalCents === 0 ? 'paid' : 'unpaid';
  return paidCents >= totalCents ? 'paid' : 'partially_paid';
}

/**
 * Shares of `amount` in proportion to `weights`, in whole cents that add up to `amount` exactly:
 * each gets the floor of its share and the cents left go to the largest remainders. BigInt inside,
 * so a large shipping cost over large lines cannot lose a cent.
 */
export function allocate(amount: number, weights: readonly number[]): number[] {
  const total = weights.reduce((a, b) => a + b, 0);
  if (weights.length === 0) return [];
  if (total <= 0)
    return allocate(
      amount,
      weights.map(() => 1),
    );
  const a = BigInt(amount);
  const t = BigInt(total);
  const shares = weights.map((w) => (a * BigInt(w)) / t);
  let left = a - shares.reduce((x, y) => x + y, 0n);
  const order = weights
    .map((w, i) => ({ i, remainder: (a * BigInt(w)) % t }))
    .sort((x, y) => (y.remainder > x.remainder ? 1 : y.remainder < x.remainder ? -1 : x.i - y.i));
  for (const { i } of order) {
    if (left <= 0n) break;
    shares[i]++;
    left--;
  }
  return shares.map(Number);
}

/** One line as bought: quantity × unit price. */
export interface PurchaseLine {
  quantity: number;
  unit_price_cents: number;
}

/**
 * The money of a purchase, the same on the review screen and on the server: each line's total and
 * its share of the shipping (by value, to the cent), the subtotal and the grand total.
 */
export function purchaseTotals(lines: readonly PurchaseLine[], shippingCents: number, taxCents: number) {
  const totals = lines.map((line) => line.quantity * line.unit_price_cents);
  const shares = allocate(shippingCents, totals);
  const subtotal = totals.reduce((a, b) => a + b, 0);
  return {
    lines: totals.map((line_total_cents, i) => ({ line_total_cents, shipping_share_cents: shares[i] })),
    subtotal_cents: subtotal,
    grand_total_cents: subtotal + shippingCents + taxCents,
  };
}

/** `value × part / whole` rounded half up, exact for integers of any size (BigInt inside). */
function shareHalfUp(value: number, part: number, whole: number): number {
  if (whole <= 0) return 0;
  return Number((BigInt(value) * BigInt(part) * 2n + BigInt(whole)) / (BigInt(whole) * 2n));
}

/** A line as far as it has been received. */
export interface ReceivedLine {
  quantity: number;
  received_quantity: number;
  line_total_cents: number;
  shipping_share_cents: number;
  received_value_cents: number;
}

/**
 * What a receipt of `quantity` more units of a line is worth in stock, in cents: its part of the
 * line's landed cost (line total + shipping share; tax is not stock value). Counted on the running
 * total, round(landed × received after / ordered) − value already received, so each receipt is
 * about its proportional part, no receipt is ever negative however the line is split, and the
 * receipt completing the line takes exactly what is left: the line's landed cost enters stock to
 * the cent.
 */
export function receiptValueCents(line: ReceivedLine, quantity: number): number {
  const landed = line.line_total_cents + line.shipping_share_cents;
  const after = line.received_quantity + quantity;
  if (after >= line.quantity) return landed - line.received_value_cents;
  return shareHalfUp(landed, after, line.quantity) - line.received_value_cents;
}
