import { z } from 'zod';
import { NAME_MAX } from './constants.ts';
import { MAX_ID } from './ids.ts';
import { RECORD_STATUSES, recordFields } from './resources.ts';
import { QUANTITY_MAX } from './stock.ts';

/**
 * Wholesale prices: customer groups with their own price lists, a price per selling
 * unit (piece, pack, carton) and quantity breaks. A price list is the rows of one group, or of the
 * base list (no group: every customer). `choosePrice` is the one rule that picks a line's price; the
 * server prices orders with it and answers the till's quotes with it. Money in US cents; riel whole.
 */

export const customerGroupInput = z.object({
  name_en: z.string().trim().min(1).max(NAME_MAX),
  name_kh: z.string().trim().min(1).max(NAME_MAX),
  status: z.enum(RECORD_STATUSES).default('active'),
});
export type CustomerGroupInput = z.input<typeof customerGroupInput>;

export const customerGroup = z.object({
  ...recordFields,
  name_en: z.string(),
  name_kh: z.string(),
  status: z.enum(RECORD_STATUSES),
  customers_count: z.coerce.number().int(),
  prices_count: z.coerce.number().int(),
});
export type CustomerGroup = z.infer<typeof customerGroup>;

/** A row of a price list: one product in one unit (a price, or a break's price), or a category's break (a percentage off). */
export const PRICE_SCOPES = ['product', 'category'] as const;
export type PriceScope = (typeof PRICE_SCOPES)[number];

/** The most a price may be: $1,000,000 (cents); riel likewise bounded. */
export const PRICE_MAX_CENTS = 100_000_000;
export const PRICE_MAX_KHR = 10_000_000_000;

const id = z.coerce.number().int().min(1).max(MAX_ID);
const optionalId = id.nullish().transform((v) => v ?? null);

/**
 * Create and update of a price-list row. `customer_group_id` null is the base list. A product row
 * names its unit and a price in cents (with an optional riel price); `min_quantity` 1 is the unit's
 * list price, more is a quantity break from that many of that unit. A category row is a break only
 * (`min_quantity` ≥ 2, counted in the products' own units) and takes `off_bp` basis points off the
 * list price.
 */
export const priceListInput = z
  .object({
    customer_group_id: optionalId,
    scope: z.enum(PRICE_SCOPES),
    product_id: optionalId,
    unit_id: optionalId,
    category_id: optionalId,
    min_quantity: z.number().int().min(1).max(QUANTITY_MAX).default(1),
    price_cents: z
      .number()
      .int()
      .min(0)
      .max(PRICE_MAX_CENTS)
      .nullish()
      .transform((v) => v ?? null),
    price_khr: z
      .number()
      .int()
      .min(0)
      .max(PRICE_MAX_KHR)
      .nullish()
      .transform((v) => v ?? null),
    off_bp: z
      .number()
      .int()
      .min(1)
      .max(10_000)
      .nullish()
      .transform((v) => v ?? null),
    status: z.enum(RECORD_STATUSES).default('active'),
  })
  .superRefine((p, ctx) => {
    const at = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], params: { message } });
    if (p.scope === 'product') {
      if (p.product_id == null) at('product_id', 'validation.required');
      if (p.unit_id == null) at('unit_id', 'validation.required');
      if (p.price_cents == null) at('price_cents', 'validation.required');
    } else {
      if (p.category_id == null) at('category_id', 'validation.required');
      if (p.off_bp == null) at('off_bp', 'validation.required');
      if (Number.isInteger(p.min_quantity) && p.min_quantity < 2) at('min_quantity', 'price.category_break');
    }
  });
export type PriceListInput = z.input<typeof priceListInput>;

export const priceList = z.object({
  ...recordFields,
  customer_group_id: z.number().int().nullable(),
  group_name_en: z.string().nullable(),
  group_name_kh: z.string().nullable(),
  scope: z.enum(PRICE_SCOPES),
  product_id: z.number().int().nullable(),
  product_name_en: z.string().nullable(),
  product_name_kh: z.string().nullable(),
  sku: z.string().nullable(),
  unit_id: z.number().int().nullable(),
  unit_name_en: z.string().nullable(),
  unit_name_kh: z.string().nullable(),
  category_id: z.number().int().nullable(),
  category_name_en: z.string().nullable(),
  category_name_kh: z.string().nullable(),
  min_quantity: z.coerce.number().int(),
  price_cents: z.coerce.number().int().nullable(),
  price_khr: z.coerce.number().int().nullable(),
  off_bp: z.coerce.number().int().nullable(),
  status: z.enum(RECORD_STATUSES),
});
export type PriceList = z.infer<typeof priceList>;

// ─── which price a line is sold at ─────────────────────────────────────────────────────────

/**
 * Where a line's unit price came from: `product` factor × the product's own price, `base` the base
 * list's price of that unit, `group` the customer's group's price of that unit, `break` a quantity
 * break (of the group's list or the base list), `combo` a combo's own price.
 */
export const PRICE_SOURCES = ['product', 'base', 'group', 'break', 'combo'] as const;
export type PriceSource = (typeof PRICE_SOURCES)[number];

/** A price-list row as `choosePrice` reads it (live and active rows only). */
export interface PriceRule {
  customer_group_id: number | null;
  scope: PriceScope;
  product_id: number | null;
  unit_id: number | null;
  category_id: number | null;
  min_quantity: number;
  price_cents: number | null;
  price_khr: number | null;
  off_bp: number | null;
}

export interface PriceAsk {
  product: { id: number; category_id: number; price_usd_cents: number; unit_id: number };
  /** The unit sold and how many of the product's own units it holds. */
  unit_id: number;
  factor: number;
  quantity: number;
  /** The customer's group (null: no group, the base list alone). */
  group_id: number | null;
}

export interface ChosenPrice {
  unit_price_cents: number;
  /** The unit's list price before any break. */
  list_price_cents: number;
  source: Exclude<PriceSource, 'combo'>;
  /** The group whose list gave the price (null: the base list or the product). */
  group_id: number | null;
  /** The riel price set on the row that gave the price (a label: see ARCHITECTURE.md "Wholesale prices"). */
  price_khr: number | null;
  /** The break's threshold, when a break gave the price. */
  min_quantity: number | null;
}

/** `value × (10000 − bp) / 10000`, rounded half up: the price after a percentage off. */
export function afterPercentOff(value: number, bp: number): number {
  const kept = BigInt(10_000 - Math.min(10_000, Math.max(0, bp)));
  return Number((BigInt(value) * kept * 2n + 10_000n) / 20_000n);
}

/**
 * The one rule that picks a product line's unit price (documented in ARCHITECTURE.md):
 *  1. the list price of the unit: the customer's group's row (quantity 1) for that product and
 *     unit, else the base list's row, else factor × the product's own price;
 *  2. then the best quantity break that applies and is lower: product breaks of that unit whose
 *     threshold is at most the line's quantity, category breaks (percentage off the list price)
 *     whose threshold is at most the line's quantity in the product's own units; from the group's
 *     list and from the base list. The lowest price wins; a tie goes to the group's over the
 *     base's, a product's over a category's, the higher threshold, then the smaller price in riel.
 * Rows of another group, product, unit or category are ignored, so the answer depends only on the
 * line and the rows that name it, never on their order.
 */
export function choosePrice(ask: PriceAsk, rules: readonly PriceRule[]): ChosenPrice {
  const mine = (r: PriceRule) => r.customer_group_id === null || r.customer_group_id === ask.group_id;
  const forUnit = (r: PriceRule) =>
    r.scope === 'product' && r.product_id === ask.product.id && r.unit_id === ask.unit_id && r.price_cents !== null;
  const listRow = (group: number | null) =>
    rules.find((r) => r.customer_group_id === group && forUnit(r) && r.min_quantity === 1);
  const groupRow = ask.group_id === null ? undefined : listRow(ask.group_id);
  const baseRow = listRow(null);
  const row = groupRow ?? baseRow;
  const list = row ? (row.price_cents as number) : ask.product.price_usd_cents * ask.factor;
  let chosen: ChosenPrice = {
    unit_price_cents: list,
    list_price_cents: list,
    source: groupRow ? 'group' : baseRow ? 'base' : 'product',
    group_id: groupRow ? ask.group_id : null,
    price_khr: row ? row.price_khr : null,
    min_quantity: null,
  };
  const baseUnits = ask.quantity * ask.factor;
  type Candidate = { price: number; rule: PriceRule };
  const candidates: Candidate[] = [];
  for (const r of rules) {
    if (!mine(r) || r.min_quantity < 2) continue;
    if (forUnit(r) && r.min_quantity <= ask.quantity) candidates.push({ price: r.price_cents as number, rule: r });
    else if (
      r.scope === 'category' &&
      r.category_id === ask.product.category_id &&
      r.off_bp !== null &&
      r.min_quantity <= baseUnits
    )
      candidates.push({ price: afterPercentOff(list, r.off_bp), rule: r });
  }
  const rank = (c: Candidate) => [
    c.price,
    c.rule.customer_group_id === null ? 1 : 0,
    c.rule.scope === 'product' ? 0 : 1,
    -c.rule.min_quantity,
    c.rule.price_khr ?? Number.MAX_SAFE_INTEGER,
  ];
  let best: Candidate | null = null;
  for (const c of candidates) {
    if (c.price >= list) continue;
    if (!best) best = c;
    else {
      const a = rank(c);
      const b = rank(best);
      const i = a.findIndex((v, k) => v !== b[k]);
      if (i !== -1 && a[i] < b[i]) best = c;
    }
  }
  if (best) {
    chosen = {
      unit_price_cents: best.price,
      list_price_cents: list,
      source: 'break',
      group_id: best.rule.customer_group_id,
      price_khr: best.rule.scope === 'product' ? best.rule.price_khr : null,
      min_quantity: best.rule.min_quantity,
    };
  }
  return chosen;
}

/** The till asks what the server would charge: the customer and the product lines (combos keep their price). */
export const priceQuoteInput = z.object({
  customer_id: id,
  items: z
    .array(
      z.object({
        product_id: id,
        unit_id: optionalId,
        quantity: z.number().int().min(1).max(QUANTITY_MAX),
      }),
    )
    .max(200),
});
export type PriceQuoteInput = z.input<typeof priceQuoteInput>;

export const priceQuoteLine = z.object({
  product_id: z.number().int(),
  unit_id: z.number().int(),
  quantity: z.number().int(),
  unit_price_cents: z.number().int(),
  list_price_cents: z.number().int(),
  source: z.enum(PRICE_SOURCES),
  price_list_en: z.string().nullable(),
  price_list_kh: z.string().nullable(),
  min_quantity: z.number().int().nullable(),
});
export type PriceQuoteLine = z.infer<typeof priceQuoteLine>;

export const priceQuote = z.object({
  customer_group_id: z.number().int().nullable(),
  group_name_en: z.string().nullable(),
  group_name_kh: z.string().nullable(),
  lines: z.array(priceQuoteLine),
});
export type PriceQuote = z.infer<typeof priceQuote>;

// ─── price lists in spreadsheets ───────────────────────────────────────────────────────────

/**
 * The columns of a price-list spreadsheet (export and import, xlsx or CSV). `list` is a customer
 * group's name (English or Khmer; empty: the base list); `sku` and `unit` name a product row,
 * `category` a category's break; `percent_off` is a category break's percentage ("5", "12.5").
 */
export const PRICE_SHEET_COLUMNS = [
  'list',
  'scope',
  'sku',
  'unit',
  'category',
  'min_quantity',
  'price_usd',
  'price_khr',
  'percent_off',
  'status',
] as const;
export type PriceSheetColumn = (typeof PRICE_SHEET_COLUMNS)[number];
export const PRICE_SHEET_REQUIRED: readonly PriceSheetColumn[] = ['scope'];
