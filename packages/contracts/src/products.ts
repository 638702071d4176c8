import { z } from 'zod';
import { isValidBarcode } from './barcode.ts';
import { NAME_MAX, NAME_MIN_SHORT } from './constants.ts';
import { MAX_ID } from './ids.ts';
import { RECORD_STATUSES, recordFields } from './resources.ts';
import { expiryDate, lot, QUANTITY_MAX } from './stock.ts';

/** A record's id, from JSON or a sheet's text; an empty choice reads "required" (never "at least 1"). */
const id = z.preprocess(
  (v) => (v === null || v === '' ? undefined : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
  z.number().int().min(1).max(MAX_ID),
);
const optionalId = id.nullish().transform((v) => v ?? null);
/** Money and counts arrive as JSON numbers: a missing one is "required", never silently 0. */
const cents = z.number().int().min(0).max(100_000_000);

/**
 * A product. Prices are integers: `price_usd_cents` in US cents, the price a sale charges;
 * `price_khr`, optional, the product's own riel price for its labels (kept and exported, but no sale
 * charges it: sales are in dollars, and riel is a dollar amount's riel figure, money.ts).
 * Names 3 to 50 characters in both languages. SKU unique; barcode unique, and a numeric EAN/UPC
 * must carry its check digit.
 */
export const productInput = z.object({
  name_en: z.string().trim().min(NAME_MIN_SHORT).max(NAME_MAX),
  name_kh: z.string().trim().min(NAME_MIN_SHORT).max(NAME_MAX),
  short_name: z
    .string()
    .trim()
    .max(30)
    .nullish()
    .transform((v) => (v ? v : null)),
  sku: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9._-]{1,40}$/),
  barcode: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9-]{1,50}$/)
    .refine(isValidBarcode, { params: { message: 'validation.barcode' } })
    .nullish()
    .or(z.literal(''))
    .transform((v) => (v ? v : null)),
  brand_id: optionalId,
  category_id: id,
  sub_category_id: optionalId,
  unit_id: id,
  price_usd_cents: cents,
  price_khr: z
    .number()
    .int()
    .min(0)
    .max(100_000_000_000)
    .nullish()
    .transform((v) => v ?? null),
  cost_usd_cents: cents.default(0),
  taxable: z.boolean().default(true),
  expiry_date: z.iso
    .date()
    .nullish()
    .or(z.literal(''))
    .transform((v) => (v ? v : null)),
  reorder_level: z.number().int().min(0).max(1_000_000_000).default(0),
  status: z.enum(RECORD_STATUSES).default('active'),
  /** Each unit carries a serial (an IMEI for a phone): received, sold, returned and moved by it (serials.ts). */
  serial_tracked: z.boolean().default(false),
  /** The warranty a unit sold carries, in months (0: none). */
  warranty_months: z.number().int().min(0).max(120).default(0),
  /**
   * A new product's opening stock, per store (create only; `stocks.create` and the store covered):
   * whole base units, at a unit cost in cents (absent: the product's cost price), into a lot and
   * expiry date if given. Written as an `opening` adjustment in the product's transaction.
   */
  opening_stock: z
    .array(
      z.object({
        store_id: id,
        quantity: z.number().int().min(1).max(QUANTITY_MAX),
        unit_cost_cents: cents.nullish().transform((v) => v ?? null),
        lot,
        expiry_date: expiryDate,
      }),
    )
    .max(100)
    .nullish()
    .transform((v) => v ?? []),
});
export type OpeningStockLine = z.output<typeof productInput>['opening_stock'][number];
export type ProductInput = z.input<typeof productInput>;

export const product = z.object({
  ...recordFields,
  name_en: z.string(),
  name_kh: z.string(),
  short_name: z.string().nullable(),
  sku: z.string(),
  barcode: z.string().nullable(),
  brand_id: z.number().int().nullable(),
  brand_name: z.string().nullable(),
  category_id: z.number().int(),
  category_name_en: z.string(),
  category_name_kh: z.string(),
  sub_category_id: z.number().int().nullable(),
  sub_category_name_en: z.string().nullable(),
  sub_category_name_kh: z.string().nullable(),
  unit_id: z.number().int(),
  unit_name_en: z.string(),
  unit_name_kh: z.string(),
  /** The unit's decimals (kg: 3): `stock` and quantities sold are in its smallest step (grams). */
  unit_decimals: z.number().int(),
  price_usd_cents: z.number().int(),
  price_khr: z.number().int().nullable(),
  /**
   * What one costs in riel at the till now: the riel figure of `price_usd_cents` (money.ts `rielOf`)
   * at the rates a sale is priced with, the figure the till's tile and the sale's riel total show.
   */
  price_khr_effective: z.number().int(),
  /**
   * With `stock_store=<id>` (the till's list): the units the store holds, in the product's own unit
   * (a carton sold takes its factor of them). The server still decides at checkout.
   */
  stock: z.number().int().optional(),
  /** Sent only to users with `costs.view`. */
  cost_usd_cents: z.number().int().optional(),
  taxable: z.coerce.boolean(),
  image_url: z.string().nullable(),
  thumbnail_url: z.string().nullable(),
  expiry_date: z.string().nullable(),
  reorder_level: z.number().int(),
  status: z.enum(RECORD_STATUSES),
  serial_tracked: z.coerce.boolean(),
  warranty_months: z.number().int(),
});
export type Product = z.infer<typeof product>;

/**
 * `GET /api/products/snapshot`: a new till's first sync in one answer (issue 34). The active
 * products, only what the till sells with, by column (each list the same length, in id order),
 * with the cursor their changes start after (`GET /api/products/changes?after=`; null: none yet).
 * The same for everyone who may list products: no cost, no stock (the till asks a store's stock
 * online). `unit` is a place in `units`.
 */
export const productSnapshot = z.object({
  cursor: z.string().nullable(),
  units: z.array(
    z.object({ id: z.number().int(), name_en: z.string(), name_kh: z.string(), decimals: z.number().int() }),
  ),
  id: z.array(z.number().int()),
  name_en: z.array(z.string()),
  name_kh: z.array(z.string()),
  sku: z.array(z.string()),
  barcode: z.array(z.string().nullable()),
  category_id: z.array(z.number().int()),
  thumbnail_url: z.array(z.string().nullable()),
  unit: z.array(z.number().int()),
  price_usd_cents: z.array(z.number().int()),
  taxable: z.array(z.boolean()),
  /** Sold by serial: the till asks one per unit (serials.ts). */
  serial_tracked: z.array(z.boolean()),
  updated_at: z.array(z.string()),
});
export type ProductSnapshotAnswer = z.infer<typeof productSnapshot>;

/**
 * A product as the till's search answers it on a device that has not synced its catalogue yet
 * (`GET /api/products/till`): only what a tile and a cart line need, with the store's stock where
 * `stock_store` is asked.
 */
export const tillProduct = product.pick({
  id: true,
  name_en: true,
  name_kh: true,
  sku: true,
  barcode: true,
  category_id: true,
  unit_id: true,
  unit_name_en: true,
  unit_name_kh: true,
  unit_decimals: true,
  price_usd_cents: true,
  taxable: true,
  thumbnail_url: true,
  stock: true,
  serial_tracked: true,
});
export type TillProduct = z.infer<typeof tillProduct>;

/**
 * The columns of a product spreadsheet, in the order an export writes them; an import reads the
 * same keys in any order, so an exported file imports back unchanged. Brand, category,
 * sub-category and unit are names; prices are "1.26" dollars and whole riel.
 */
export const PRODUCT_SHEET_COLUMNS = [
  'sku',
  'barcode',
  'name_kh',
  'name_en',
  'short_name',
  'brand',
  'category',
  'sub_category',
  'unit',
  'price_usd',
  'price_khr',
  'cost_usd',
  'taxable',
  'expiry_date',
  'reorder_level',
  'status',
] as const;
export type ProductSheetColumn = (typeof PRODUCT_SHEET_COLUMNS)[number];
/** Columns an imported file must have (the others may be left out). */
export const PRODUCT_SHEET_REQUIRED: readonly ProductSheetColumn[] = [
  'sku',
  'name_kh',
  'name_en',
  'category',
  'unit',
  'price_usd',
];
export const PRODUCT_IMPORT_MAX_MB = 10;
export const PRODUCT_IMPORT_MAX_ROWS = 20_000;

/** `POST /api/products/import` when every row was right: all of them were written, in one transaction. */
export const productImportResult = z.object({
  message: z.string(),
  data: z.object({ created: z.number().int(), updated: z.number().int(), total: z.number().int() }),
});
export type ProductImportResult = z.infer<typeof productImportResult>;

/** One mistake in an imported file: its spreadsheet row (the header is row 1) and column key. */
export const productImportRowError = z.object({
  row: z.number().int(),
  column: z.string(),
  value: z.string(),
  message: z.string(),
});
export type ProductImportRowError = z.infer<typeof productImportRowError>;

/** The 422 of an import: nothing was written; `errors.file` sums up, `rows` lists each mistake. */
export const productImportError = z.object({
  message: z.string(),
  errors: z.object({ file: z.array(z.string()) }),
  rows: z.array(productImportRowError),
});
export type ProductImportError = z.infer<typeof productImportError>;
