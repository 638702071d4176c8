import { z } from 'zod';
import { abilitiesOf } from './abilities.ts';
import { MAX_ID } from './ids.ts';
import { recordFields } from './resources.ts';
import { productNames, QUANTITY_MAX } from './stock.ts';

/**
 * Stock counts (issue 28): a store's shelves counted by people with phones or scanners, as a
 * document: open (counters scan) → submitted → approved (the differences are posted through the
 * ledger as a `count` adjustment) or cancelled. Blind: only who may approve sees what the store
 * expected. Each line keeps the quantity the store held when the line was first scanned, so sales
 * made while the count goes on are not counted twice. Quantities are whole base units.
 */
export const COUNT_STATUSES = ['open', 'submitted', 'approved', 'cancelled'] as const;
export type CountStatus = (typeof COUNT_STATUSES)[number];

/** What may be done with a count (its `abilities`): scan, submit, send back, approve, cancel. */
export const COUNT_ACTIONS = ['scan', 'submit', 'reopen', 'approve', 'cancel'] as const;
export type CountAction = (typeof COUNT_ACTIONS)[number];
export const countAbilities = abilitiesOf(COUNT_ACTIONS);

const id = z.number().int().min(1).max(MAX_ID);
const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => (v ? v : null));

export const countInput = z.object({
  store_id: id,
  /** Where on the floor: an aisle, a shelf, the back room (free text). */
  zone: text(60),
  note: text(255),
});
export type CountInput = z.input<typeof countInput>;

/**
 * One scan (or a typed code, or a chosen product): `add` counts `quantity` more units (a scan is
 * one), `set` corrects the line to `quantity`. A code is the product's barcode or SKU.
 */
export const countScanInput = z
  .object({
    code: z.string().trim().min(1).max(100).optional(),
    product_id: id.optional(),
    quantity: z.number().int().min(0).max(QUANTITY_MAX).default(1),
    mode: z.enum(['add', 'set']).default('add'),
  })
  .refine((s) => s.code !== undefined || s.product_id !== undefined, {
    path: ['code'],
    params: { message: 'validation.required' },
  })
  .refine((s) => s.mode === 'set' || s.quantity >= 1, {
    path: ['quantity'],
    params: { message: 'count.add_one' },
  });
export type CountScanInput = z.input<typeof countScanInput>;

export const stockCountLine = z.object({
  id: z.number().int(),
  ...productNames,
  barcode: z.string().nullable(),
  counted: z.number().int(),
  /** What the store held when the line was first scanned: only for who may approve. */
  expected: z.number().int().optional(),
  /** counted − expected: only for who may approve. */
  difference: z.number().int().optional(),
  /** The difference at the weighted average cost (at approval, what was posted): costs.view too. */
  difference_value_cents: z.number().int().optional(),
  scanned_at: z.string(),
  updated_at: z.string(),
});
export type StockCountLine = z.infer<typeof stockCountLine>;

export const stockCount = z.object({
  ...recordFields,
  number: z.string(),
  store_id: z.number().int(),
  store_name: z.string(),
  zone: z.string().nullable(),
  note: z.string().nullable(),
  status: z.enum(COUNT_STATUSES),
  lines_count: z.number().int(),
  created_by_name: z.string().nullable(),
  submitted_at: z.string().nullable(),
  approved_at: z.string().nullable(),
  approved_by_name: z.string().nullable(),
  cancelled_at: z.string().nullable(),
  /** The `count` adjustment posted on approval (none when nothing differed). */
  adjustment_id: z.number().int().nullable(),
  abilities: countAbilities,
});
export type StockCount = z.infer<typeof stockCount>;

export const countDetail = stockCount.extend({
  lines: z.array(stockCountLine),
  /** Who may approve: the sum of the differences' value at cost (with costs.view). */
  difference_value_cents: z.number().int().optional(),
});
export type CountDetail = z.infer<typeof countDetail>;
