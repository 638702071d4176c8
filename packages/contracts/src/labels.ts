import { z } from 'zod';
import { gtinCheckDigit, isValidBarcode } from './barcode.ts';
import { MAX_ID } from './ids.ts';

/**
 * Barcode labels and shelf tags on A4 label sheets (issue 28): the sheet layouts, what a print asks
 * for, and the store's own barcodes for products that came without one.
 */

/** A4 label sheets: columns × rows of equal cells (millimetres), margins as the common stock has them. */
export const LABEL_SHEETS = {
  '3x7': { columns: 3, rows: 7, width: 70, height: 42.3, top: 0, left: 0 },
  '3x8': { columns: 3, rows: 8, width: 70, height: 37, top: 0.5, left: 0 },
  '4x10': { columns: 4, rows: 10, width: 48.5, height: 25.4, top: 21.5, left: 8 },
  '2x5': { columns: 2, rows: 5, width: 105, height: 57, top: 6, left: 0 },
} as const;
export type LabelSheet = keyof typeof LABEL_SHEETS;
export const LABEL_SHEET_NAMES = Object.keys(LABEL_SHEETS) as [LabelSheet, ...LabelSheet[]];

/** `barcode`: a product's barcode with its name and price; `tag`: a shelf tag (names, both prices, unit). */
export const LABEL_KINDS = ['barcode', 'tag'] as const;
export type LabelKind = (typeof LABEL_KINDS)[number];

/** The sheets chosen in the settings: one for barcode labels, one for shelf tags. */
export const labelSettings = z.object({
  barcode_sheet: z.enum(LABEL_SHEET_NAMES),
  tag_sheet: z.enum(LABEL_SHEET_NAMES),
});
export type LabelSettings = z.infer<typeof labelSettings>;
export const DEFAULT_LABEL_SETTINGS: LabelSettings = { barcode_sheet: '3x8', tag_sheet: '2x5' };

/** At most this many labels in one print (a few dozen sheets); more is several prints. */
export const LABELS_MAX = 1000;
/** At most this many products in one print. */
export const LABEL_PRODUCTS_MAX = 200;

const id = z.number().int().min(1).max(MAX_ID);

/**
 * `POST /api/labels/pdf` and `/api/labels/print`: which products, how many of each, which kind,
 * on which sheet (absent: the settings'), leaving the first `skip` cells of a used sheet empty.
 */
export const labelsInput = z
  .object({
    kind: z.enum(LABEL_KINDS),
    items: z
      .array(z.object({ product_id: id, quantity: z.number().int().min(1).max(LABELS_MAX) }))
      .min(1)
      .max(LABEL_PRODUCTS_MAX),
    sheet: z.enum(LABEL_SHEET_NAMES).optional(),
    skip: z.number().int().min(0).max(39).default(0),
  })
  .superRefine((input, ctx) => {
    const total = input.items.reduce((sum, item) => sum + item.quantity, 0);
    if (total > LABELS_MAX) {
      ctx.addIssue({ code: 'custom', path: ['items'], params: { message: 'label.too_many', max: LABELS_MAX } });
    }
  });
export type LabelsInput = z.input<typeof labelsInput>;

/** `POST /api/labels/print`: the same on one of the store's printers (the raster pipeline). */
export const labelsPrintInput = z.object({
  printer_id: id,
  kind: z.enum(LABEL_KINDS),
  items: labelsInput.shape.items,
});

/** `GET /api/labels/price-changes?since=`: products whose selling price changed (or that were added) since a day. */
export const priceChangesQuery = z.object({ since: z.iso.date() });

/** What a print starts from: products and how many labels of each. */
export const labelItems = z.object({
  items: z.array(
    z.object({
      product_id: z.number().int(),
      name_en: z.string(),
      name_kh: z.string(),
      sku: z.string(),
      barcode: z.string().nullable(),
      quantity: z.number().int(),
    }),
  ),
});
export type LabelItems = z.infer<typeof labelItems>;

/** The symbology a barcode is drawn in: a valid EAN-13, EAN-8 or UPC-A as itself, anything else Code 128. */
export type Symbology = 'ean13' | 'ean8' | 'upca' | 'code128';
export function symbologyOf(code: string): Symbology {
  if (/^\d+$/.test(code) && isValidBarcode(code)) {
    if (code.length === 13) return 'ean13';
    if (code.length === 8) return 'ean8';
    if (code.length === 12) return 'upca';
  }
  return 'code128';
}

/**
 * The store's own EAN-13 for a product without a barcode: the in-store prefix (20, then 21 when 20's
 * ten billion numbers are used), a ten-digit counter, and the check digit, so a till scans it.
 */
export function storeBarcode(counter: number): string {
  const prefix = 20 + Math.floor((counter - 1) / 1e10);
  if (counter < 1 || prefix > 21) throw new RangeError('in-store barcodes used up');
  const body = `${prefix}${String((counter - 1) % 1e10).padStart(10, '0')}`;
  return `${body}${gtinCheckDigit(body)}`;
}
