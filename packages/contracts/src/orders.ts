import { z } from 'zod';
import { abilitiesOf, approvalInput } from './abilities.ts';
import { optionalText } from './fields.ts';
import { MAX_ID } from './ids.ts';
import { PRICE_SOURCES } from './prices.ts';
import { CHANGE_IN, TENDER_METHODS } from './pricing.ts';
import { PAYMENT_STATUSES } from './purchases.ts';
import { recordFields } from './resources.ts';
import { serialsField } from './serials.ts';
import { QUANTITY_MAX } from './stock.ts';

/**
 * A sale. `held` is a parked cart (no stock taken, payment status `onhold`); `confirmed` is sold
 * (stock taken, paid in full, in part or not yet); `cancelled` gave its stock back. Payment
 * statuses are the spec's: unpaid, partially paid, paid, pending (sold for delivery, to be paid on
 * delivery), onhold (held). Delivery moves along DELIVERY_FLOW.
 */
export const ORDER_STATUSES = ['held', 'confirmed', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Spec: preparing, preparing done, ready for delivery, shipping, shipped, returned/problem, order completed. */
export const DELIVERY_STATUSES = [
  'preparing',
  'preparing_done',
  'ready_for_delivery',
  'shipping',
  'shipped',
  'returned',
  'completed',
] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Where a delivery may go next: forward one step, or back as returned/problem while on its way. */
export const DELIVERY_FLOW: Record<DeliveryStatus, readonly DeliveryStatus[]> = {
  preparing: ['preparing_done', 'returned'],
  preparing_done: ['ready_for_delivery', 'returned'],
  ready_for_delivery: ['shipping', 'returned'],
  shipping: ['shipped', 'returned'],
  shipped: ['completed', 'returned'],
  returned: ['preparing'],
  completed: [],
};

/**
 * What may be done with an order (its `abilities`): change the held cart or check it out, take a
 * payment, cancel (void), return lines for a refund, move its delivery on.
 */
export const ORDER_ACTIONS = ['update', 'pay', 'cancel', 'return', 'deliver'] as const;
export type OrderAction = (typeof ORDER_ACTIONS)[number];
export const orderAbilities = abilitiesOf(ORDER_ACTIONS);

const id = z.number().int().min(1).max(MAX_ID);
/** A manager's approval, where the write needs one and the user is not a manager. */
const approval = approvalInput.nullish().transform((v) => v ?? null);
const optionalId = id.nullish().transform((v) => v ?? null);
const text = optionalText;

export const tenderInput = z.object({
  method: z.enum(TENDER_METHODS),
  /** Riel for cash in riel, US cents for everything else. */
  amount: z.number().int().min(1).max(100_000_000_000),
  /** The card slip, bank or KHQR reference. */
  transaction_id: text(100),
});
export type TenderInput = z.input<typeof tenderInput>;

export const orderItemInput = z
  .object({
    product_id: optionalId,
    combo_id: optionalId,
    /** A product's unit: its own or one made of it (a carton); absent, its own. Combos have none. */
    unit_id: optionalId,
    quantity: z.number().int().min(1).max(QUANTITY_MAX),
    discount_id: optionalId,
    /** A serial-tracked product's serials, one per base unit sold (serials.ts). */
    serials: serialsField,
  })
  .refine((item) => (item.product_id === null) !== (item.combo_id === null), {
    path: ['product_id'],
    params: { message: 'order.product_or_combo' },
  });
export type OrderItemInput = z.input<typeof orderItemInput>;

/**
 * A sale from the till (spec: a customer and at least one product must be selected). `hold` parks
 * it; otherwise the stock leaves at once and the tenders given are recorded.
 */
export const orderInput = z.object({
  store_id: optionalId,
  customer_id: id,
  items: z.array(orderItemInput).min(1).max(200),
  discount_id: optionalId,
  note: text(500),
  delivery: z
    .object({
      shipping_address: z.string().trim().min(1).max(255),
      fee_cents: z.number().int().min(0).max(100_000_000).default(0),
    })
    .nullish()
    .transform((v) => v ?? null),
  hold: z.boolean().default(false),
  payments: z.array(tenderInput).max(10).default([]),
  /** How the change (if any) was handed back: it decides which drawer it leaves (pricing.ts). */
  change_in: z.enum(CHANGE_IN).default('split'),
  /** A manager's approval for a sale leaving the customer owing more than their credit limit. */
  approval,
  /**
   * Checked out to be paid by KHQR at the counter now (the QR carries the order's number, so the
   * order comes first): what is due is being paid, not lent, so no credit is asked for it where the
   * store takes KHQR (credit.steps.ts `checkCredit`).
   */
  awaiting_khqr: z.boolean().default(false),
  /**
   * A sale made on the till with no connection, sent later from its queue (the web's outbox.ts):
   * when, and the device's receipt number. The stock could not be checked on the device, so the
   * server records it even beyond the stock, marks the lines it oversold and tells the managers
   * (orders.service.ts: who may claim it and what it costs them).
   */
  offline: z
    .object({
      sold_at: z.iso.datetime({ offset: true }),
      device_receipt_no: z.string().regex(/^OFF-[A-Z0-9]{1,12}-\d{1,10}$/),
    })
    .nullish()
    .transform((v) => v ?? null),
});
export type OrderInput = z.input<typeof orderInput>;

export const paymentsInput = z.object({
  payments: z.array(tenderInput).min(1).max(10),
  change_in: z.enum(CHANGE_IN).default('split'),
});
export type PaymentsInput = z.input<typeof paymentsInput>;

export const deliveryInput = z.object({ status: z.enum(DELIVERY_STATUSES), note: text(255) });

export const returnInput = z.object({
  items: z
    .array(
      z.object({
        order_item_id: id,
        quantity: z.number().int().min(1).max(QUANTITY_MAX),
        /** A serial-tracked line's serials coming back, one per base unit: only those it sold. */
        serials: serialsField,
      }),
    )
    .min(1)
    .max(200),
  refund_method: z.enum(['cash_usd', 'cash_khr']),
  note: text(255),
  approval,
});
export type ReturnInput = z.input<typeof returnInput>;

/** Why an order was cancelled; the body may be left out. */
export const cancelInput = z
  .object({ reason: text(255), approval })
  .nullish()
  .transform((v) => v ?? { reason: null, approval: null });

export const orderItem = z.object({
  id: z.number().int(),
  kind: z.enum(['product', 'combo']),
  product_id: z.number().int().nullable(),
  combo_id: z.number().int().nullable(),
  name_en: z.string(),
  name_kh: z.string(),
  sku: z.string(),
  unit_id: z.number().int().nullable(),
  unit_name_en: z.string().nullable(),
  unit_name_kh: z.string().nullable(),
  /** The unit sold's decimals (kg: 3): `quantity` is in its smallest step (grams). */
  decimals: z.coerce.number().int().default(0),
  factor: z.number().int(),
  quantity: z.number().int(),
  unit_price_cents: z.number().int(),
  discount_id: z.number().int().nullable(),
  discount_name: z.string().nullable(),
  line_discount_cents: z.number().int(),
  order_discount_cents: z.number().int(),
  net_cents: z.number().int(),
  tax_cents: z.number().int(),
  total_cents: z.number().int(),
  taxable: z.boolean(),
  returned_quantity: z.number().int(),
  /** Base units an offline sale took beyond the store's stock (0: none). */
  oversold: z.coerce.number().int().default(0),
  /** Why the line costs what it does (prices.ts `choosePrice`): list, group list, break, combo. */
  price_source: z.enum(PRICE_SOURCES).default('product'),
  /** The unit's list price before a break (null on lines sold before price lists existed). */
  list_price_cents: z.coerce.number().int().nullable().default(null),
  /** The group's price list the price came from (null: the base prices). */
  price_list_en: z.string().nullable().default(null),
  price_list_kh: z.string().nullable().default(null),
  /** The serials of the units the line sold (a serial-tracked product's; empty otherwise). */
  serials: z.array(z.string()).default([]),
});
export type OrderItem = z.infer<typeof orderItem>;

export const orderPayment = z.object({
  id: z.number().int(),
  kind: z.enum(['payment', 'refund']),
  method: z.enum(TENDER_METHODS),
  /** As handed over: riel for cash in riel, cents otherwise. */
  amount: z.number().int(),
  /** What it counts for, in cents (riel at the rate for riel received). */
  amount_cents: z.number().int(),
  transaction_id: z.string().nullable(),
  received_by_name: z.string().nullable(),
  created_at: z.string(),
});

export const invoiceSummary = z.object({
  id: z.number().int(),
  number: z.string(),
  total_cents: z.number().int(),
  items_count: z.number().int(),
  paid_at: z.string(),
});

export const order = z.object({
  ...recordFields,
  number: z.string(),
  store_id: z.number().int(),
  store_name: z.string(),
  cashier_id: z.number().int().nullable(),
  cashier_name: z.string().nullable(),
  customer_id: z.number().int(),
  customer_name: z.string(),
  customer_phone: z.string().nullable(),
  /** The buyer's VAT number for the tax invoice (empty for most customers). */
  customer_vat_number: z.string().nullable(),
  order_date: z.string(),
  status: z.enum(ORDER_STATUSES),
  payment_status: z.enum(PAYMENT_STATUSES),
  subtotal_cents: z.number().int(),
  discount_cents: z.number().int(),
  tax_cents: z.number().int(),
  delivery_fee_cents: z.number().int(),
  total_cents: z.number().int(),
  paid_cents: z.number().int(),
  due_cents: z.number().int(),
  /** The change owed, in dollars or (the same value) in riel. */
  change_cents: z.number().int(),
  change_khr: z.number().int(),
  /** The change as it was handed back: what left the dollar drawer and the riel drawer. */
  change_given_cents: z.number().int(),
  change_given_khr: z.number().int(),
  /** The rates of the sale, kept with it: receipts and refunds use them, not today's. */
  exchange_rate_khr: z.number().int(),
  rate_in_khr: z.number().int().nullable(),
  rate_out_khr: z.number().int().nullable(),
  khr_step: z.number().int(),
  total_khr: z.number().int(),
  vat_rate_bp: z.number().int(),
  discount_id: z.number().int().nullable(),
  note: z.string().nullable(),
  shipping_address: z.string().nullable(),
  delivery_status: z.enum(DELIVERY_STATUSES).nullable(),
  items_count: z.number().int(),
  invoice_number: z.string().nullable(),
  cancelled_at: z.string().nullable(),
  cancel_reason: z.string().nullable(),
  /** Sold on the till with no connection: when, and the device's receipt number (null: online). */
  offline_sold_at: z.string().nullable().default(null),
  offline_receipt_no: z.string().nullable().default(null),
  /** An offline sale that took more than the store had (some line oversold). */
  oversold: z.coerce.boolean().default(false),
  abilities: orderAbilities,
});
export type Order = z.infer<typeof order>;

export const orderDetail = order.extend({
  items: z.array(orderItem),
  payments: z.array(orderPayment),
  invoice: invoiceSummary.nullable(),
  store_code: z.string(),
  store_phone: z.string().nullable(),
  store_address: z.string().nullable(),
  /** The manager whose approval, entered at the till, allowed the void. */
  approved_by_name: z.string().nullable(),
});
export type OrderDetail = z.infer<typeof orderDetail>;

/** Who has sold: the orders list's cashier filter (`GET /api/orders/cashiers`). */
export const cashier = z.object({ id: z.number().int(), name: z.string() });
export type Cashier = z.infer<typeof cashier>;

export const invoice = z.object({
  ...recordFields,
  number: z.string(),
  order_id: z.number().int(),
  order_number: z.string(),
  store_id: z.number().int(),
  store_name: z.string(),
  customer_name: z.string(),
  total_cents: z.number().int(),
  tax_cents: z.number().int(),
  items_count: z.number().int(),
  paid_at: z.string(),
});
export type Invoice = z.infer<typeof invoice>;
