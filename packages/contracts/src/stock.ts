import { z } from 'zod';
import { abilitiesOf } from './abilities.ts';
import { MAX_ID } from './ids.ts';
import { recordFields } from './resources.ts';
import { serialsField } from './serials.ts';

/**
 * Stock is a ledger. Every change is a movement (who, when, which store, product and batch, how
 * many base units, what value) written in the same transaction as the level it changes. Quantities
 * are whole base units (a carton of 24 received is +24 pieces); values are US cents.
 */
export const MOVEMENT_TYPES = [
  'purchase_receipt',
  'sale',
  'return',
  'adjustment',
  'transfer_out',
  'transfer_in',
  'bundle_consumption',
  'expiry_write_off',
] as const;
export type MovementType = (typeof MOVEMENT_TYPES)[number];

/** Why stock was adjusted by hand; `count` sets the counted quantity. */
export const HAND_ADJUSTMENT_REASONS = ['count', 'damage', 'loss', 'found', 'expired'] as const;
/** Every reason an adjustment may carry: by hand, or `opening` (a new product's first stock, from its form). */
export const ADJUSTMENT_REASONS = [...HAND_ADJUSTMENT_REASONS, 'opening'] as const;
export type AdjustmentReason = (typeof ADJUSTMENT_REASONS)[number];

/** Batches expiring within this many days are listed as expiring soon, unless asked otherwise. */
export const DEFAULT_EXPIRING_DAYS = 30;
/** The most a single movement may move: a guard against a mistyped count, not a business rule. */
export const QUANTITY_MAX = 1_000_000_000;

const id = z.number().int().min(1).max(MAX_ID);
const note = z
  .string()
  .trim()
  .max(255)
  .nullish()
  .transform((v) => (v ? v : null));
export const lot = z
  .string()
  .trim()
  .max(40)
  .nullish()
  .transform((v) => (v ? v : null));
export const expiryDate = z.iso
  .date()
  .nullish()
  .or(z.literal(''))
  .transform((v) => (v ? v : null));

/** A batch: a lot number and an expiry date. A product without either has one open batch. */
/** The product a row names, as a document's lines and stock rows show it: its names and SKU. */
export const productNames = {
  product_id: z.number().int(),
  product_name_en: z.string(),
  product_name_kh: z.string(),
  sku: z.string(),
};

export const batch = z.object({
  id: z.number().int(),
  lot: z.string().nullable(),
  expiry_date: z.string().nullable(),
});
export type Batch = z.infer<typeof batch>;

/**
 * The unit a stock row counts in: its names, and its `unit_decimals` (kg: 3), the quantities being in
 * its smallest step (grams), written with the one quantity formatter.
 */
const unitNames = { unit_name_en: z.string(), unit_name_kh: z.string(), unit_decimals: z.number().int() };

/** A product's stock in one store: its batches, first to expire first, and what it is worth. */
export const stockLevel = z.object({
  store_id: z.number().int(),
  store_name: z.string(),
  ...productNames,
  barcode: z.string().nullable(),
  ...unitNames,
  quantity: z.number().int(),
  reorder_level: z.number().int(),
  /**
   * Weighted average cost of one base unit, in cents (rounded for display; values are exact sums).
   * This and the value are sent only to users with `costs.view`.
   */
  average_cost_cents: z.number().int().optional(),
  value_cents: z.number().int().optional(),
  batches: z.array(batch.extend({ quantity: z.number().int() })),
});
export type StockLevel = z.infer<typeof stockLevel>;

export const stockMovement = z.object({
  id: z.number().int(),
  type: z.enum(MOVEMENT_TYPES),
  store_id: z.number().int(),
  store_name: z.string(),
  ...productNames,
  batch_id: z.number().int(),
  lot: z.string().nullable(),
  expiry_date: z.string().nullable(),
  /** Signed: + into the store, − out of it. */
  quantity: z.number().int(),
  /** What the units were worth (sent only to users with `costs.view`). */
  value_cents: z.number().int().optional(),
  /** The level of that store and batch right after this movement. */
  balance: z.number().int(),
  reason: z.enum(ADJUSTMENT_REASONS).nullable(),
  note: z.string().nullable(),
  document_type: z.string().nullable(),
  document_id: z.number().int().nullable(),
  user_name: z.string().nullable(),
  created_at: z.string(),
});
export type StockMovement = z.infer<typeof stockMovement>;

/**
 * A hand adjustment of one store: each line names a product and, where the product has several
 * batches there, the batch. `count` lines give the counted quantity; the others a quantity that
 * `found` adds and `damage`, `loss`, `expired` take away.
 */
export const adjustmentInput = z.object({
  store_id: id,
  reason: z.enum(HAND_ADJUSTMENT_REASONS),
  note,
  items: z
    .array(
      z.object({
        product_id: id,
        batch_id: id.nullish().transform((v) => v ?? null),
        quantity: z.number().int().min(0).max(QUANTITY_MAX),
      }),
    )
    .min(1)
    .max(500),
});
export type AdjustmentInput = z.input<typeof adjustmentInput>;

export const adjustmentResult = z.object({
  message: z.string(),
  data: z.object({ id: z.number().int(), movements: z.array(stockMovement) }),
});

/** Every unit of an expired batch leaves the store, written off at its value. */
export const writeOffInput = z.object({ store_id: id, batch_id: id, note });

/** A batch with stock in a store: the expired and expiring lists, and the write-off. */
export const stockBatch = z.object({
  store_id: z.number().int(),
  store_name: z.string(),
  ...productNames,
  ...unitNames,
  batch_id: z.number().int(),
  lot: z.string().nullable(),
  expiry_date: z.string().nullable(),
  quantity: z.number().int(),
  /** Sent only to users with `costs.view`. */
  value_cents: z.number().int().optional(),
  /** Days from today (Cambodia) to the expiry date; negative once expired. */
  days_left: z.number().int().nullable(),
});
export type StockBatch = z.infer<typeof stockBatch>;

/** A product at or under its reorder level in a store, and how much to order to double that level. */
export const lowStock = z.object({
  store_id: z.number().int(),
  store_name: z.string(),
  ...productNames,
  ...unitNames,
  quantity: z.number().int(),
  reorder_level: z.number().int(),
  reorder_quantity: z.number().int(),
});
export type LowStock = z.infer<typeof lowStock>;

export const lowStockCount = z.object({ data: z.object({ count: z.number().int() }) });

// ─── transfers ────────────────────────────────────────────────────────────────────────────────

export const TRANSFER_STATUSES = ['draft', 'sent', 'received', 'cancelled'] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

/** What may be done with a transfer (its `abilities`): edit the draft, send, receive, cancel. */
export const TRANSFER_ACTIONS = ['update', 'send', 'receive', 'cancel'] as const;
export type TransferAction = (typeof TRANSFER_ACTIONS)[number];
export const transferAbilities = abilitiesOf(TRANSFER_ACTIONS);

export const transferInput = z
  .object({
    from_store_id: id,
    to_store_id: id,
    note,
    items: z
      .array(
        z.object({
          product_id: id,
          /** In the unit chosen (the product's base unit, or one made of it: a carton). */
          unit_id: id,
          quantity: z.number().int().min(1).max(QUANTITY_MAX),
          /** A serial-tracked product's serials, one per base unit sent (serials.ts). */
          serials: serialsField,
        }),
      )
      .min(1)
      .max(500),
  })
  .refine((t) => t.from_store_id !== t.to_store_id, {
    path: ['to_store_id'],
    params: { message: 'validation.same_store' },
  });
export type TransferInput = z.input<typeof transferInput>;

export const transferItem = z.object({
  id: z.number().int(),
  ...productNames,
  unit_id: z.number().int(),
  ...unitNames,
  factor: z.number().int(),
  quantity: z.number().int(),
  /** quantity × factor: the base units that move. */
  base_quantity: z.number().int(),
  /** The serials of those units (a serial-tracked product's; empty otherwise). */
  serials: z.array(z.string()).default([]),
});

export const transfer = z.object({
  ...recordFields,
  number: z.string(),
  from_store_id: z.number().int(),
  from_store_name: z.string(),
  to_store_id: z.number().int(),
  to_store_name: z.string(),
  status: z.enum(TRANSFER_STATUSES),
  note: z.string().nullable(),
  items_count: z.number().int(),
  created_by_name: z.string().nullable(),
  sent_at: z.string().nullable(),
  received_at: z.string().nullable(),
  cancelled_at: z.string().nullable(),
  abilities: transferAbilities,
});
export type Transfer = z.infer<typeof transfer>;

export const transferDetail = transfer.extend({ items: z.array(transferItem) });
export type TransferDetail = z.infer<typeof transferDetail>;
