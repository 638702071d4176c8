import { z } from 'zod';
import { abilitiesOf } from './abilities.ts';
import { MAX_ID } from './ids.ts';
import { product, productInput } from './products.ts';
import { recordFields } from './resources.ts';
import { productNames } from './stock.ts';

/**
 * Combo sales (bundles): several products sold together at one selling price. Spec fields:
 * description, items, price, selling price, total cost, profit margin, profit amount, total
 * quantity, created by. `price_cents` is what the items cost bought one by one (each product's
 * price × quantity × the unit's factor); `total_cost_cents` is what they are worth in stock now
 * (the weighted average cost, or the product's cost price when none is in stock); the profit is
 * the selling price less that cost, the margin that profit over the selling price in basis points.
 */
export const COMBO_ITEMS_MAX = 50;
/** The most of one item in a combo, in its unit. */
export const COMBO_QUANTITY_MAX = 10_000;

/** What may be done with a combo (its `abilities`): edit, delete, restore. */
export const COMBO_ACTIONS = ['update', 'delete', 'restore'] as const;
export type ComboAction = (typeof COMBO_ACTIONS)[number];
export const comboAbilities = abilitiesOf(COMBO_ACTIONS);

/** Money a combo shows only to users with `costs.view` (its cost and what it makes). */
export const COMBO_COST_FIELDS = ['total_cost_cents', 'profit_cents', 'margin_bp'] as const;

const id = z.coerce.number().int().min(1).max(MAX_ID);
/**
 * A combo is entered and shown as a product is: its names, SKU, barcode (a GTIN's check digit
 * checked), selling price and status by the product's own rules.
 */
const entered = productInput.shape;
const shown = product.shape;

export const comboItemInput = z.object({
  product_id: id,
  /** The product's own unit or one made of it (a carton of 24); absent, the product's own. */
  unit_id: id.nullish().transform((v) => v ?? null),
  quantity: z.number().int().min(1).max(COMBO_QUANTITY_MAX),
});
export type ComboItemInput = z.input<typeof comboItemInput>;

/**
 * Create, update and preview: the whole combo, items included. SKU unique among live combos and
 * not a live product's; barcode the same, with a GTIN's check digit checked as for products.
 */
export const comboInput = z.object({
  name_en: entered.name_en,
  name_kh: entered.name_kh,
  description: z
    .string()
    .trim()
    .max(500)
    .nullish()
    .transform((v) => (v ? v : null)),
  sku: entered.sku,
  barcode: entered.barcode,
  selling_price_cents: entered.price_usd_cents,
  status: entered.status,
  items: z.array(comboItemInput).min(1).max(COMBO_ITEMS_MAX),
});
export type ComboInput = z.input<typeof comboInput>;

export const comboItem = z.object({
  ...productNames,
  unit_id: z.number().int(),
  unit_name_en: z.string(),
  unit_name_kh: z.string(),
  /** Base units in one unit of the line (24 for a carton of 24). */
  factor: z.number().int(),
  quantity: z.number().int(),
  /** quantity × factor: the product's own units the line takes. */
  base_quantity: z.number().int(),
  /** The product's price for one unit of the line (price × factor). */
  unit_price_cents: z.number().int(),
  price_cents: z.number().int(),
  /** What the line's base units are worth now (sent only to users with `costs.view`). */
  cost_cents: z.number().int().optional(),
});
export type ComboItem = z.infer<typeof comboItem>;

/** A combo as a list shows it: the money without the items. */
export const combo = z.object({
  ...recordFields,
  name_en: shown.name_en,
  name_kh: shown.name_kh,
  description: z.string().nullable(),
  sku: shown.sku,
  barcode: shown.barcode,
  selling_price_cents: shown.price_usd_cents,
  status: shown.status,
  items_count: z.number().int(),
  total_quantity: z.number().int(),
  price_cents: z.number().int(),
  /** The cost, profit and margin are sent only to users with `costs.view`. */
  total_cost_cents: z.number().int().optional(),
  profit_cents: z.number().int().optional(),
  margin_bp: z.number().int().optional(),
  created_by: z.number().int().nullable(),
  created_by_name: z.string().nullable(),
  abilities: comboAbilities,
});
export type Combo = z.infer<typeof combo>;

export const comboDetail = combo.extend({ items: z.array(comboItem) });
export type ComboDetail = z.infer<typeof comboDetail>;

/** `POST /api/combos/preview`: the combo a body would make, computed by the server, nothing saved. */
export const comboPreview = comboDetail.omit({
  id: true,
  created_at: true,
  updated_at: true,
  deleted_at: true,
  abilities: true,
});
export type ComboPreview = z.infer<typeof comboPreview>;

/** `?combo_id=` on a preview: the combo being edited, whose own SKU and barcode are not a conflict. */
export const comboPreviewQuery = z.object({ combo_id: id.optional() });

/**
 * Profit over selling price in basis points, rounded half away from zero (a loss is negative);
 * 0 when the selling price is 0.
 */
export function marginBp(profitCents: number, sellingCents: number): number {
  if (sellingCents <= 0) return 0;
  const p = BigInt(Math.abs(profitCents));
  const s = BigInt(sellingCents);
  const bp = Number((p * 20_000n + s) / (s * 2n));
  return profitCents < 0 ? -bp : bp;
}

/** One line's numbers, as the server computes them (comboItem's price_cents, cost_cents, base_quantity). */
export interface ComboLineNumbers {
  price_cents: number;
  cost_cents: number;
  base_quantity: number;
}

/** The combo's money from its lines: the same sums the list, the detail and the preview show. */
export function comboTotals(lines: readonly ComboLineNumbers[], sellingPriceCents: number) {
  const price = lines.reduce((sum, l) => sum + l.price_cents, 0);
  const cost = lines.reduce((sum, l) => sum + l.cost_cents, 0);
  const profit = sellingPriceCents - cost;
  return {
    items_count: lines.length,
    total_quantity: lines.reduce((sum, l) => sum + l.base_quantity, 0),
    price_cents: price,
    total_cost_cents: cost,
    profit_cents: profit,
    margin_bp: marginBp(profit, sellingPriceCents),
  };
}
