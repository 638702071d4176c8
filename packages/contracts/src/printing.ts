import { z } from 'zod';
import { NAME_MAX, NAME_MIN_SHORT } from './constants.ts';
import { PAPER_DOTS } from './escpos.ts';
import { RECORD_STATUSES, recordFields } from './resources.ts';

/**
 * Receipt printers of a store that the server reaches over the network (ESC/POS on port 9100),
 * configured by whoever may update stores; and a print job: a rendered picture the server turns
 * into raster commands itself, so a client never sends a printer raw commands.
 */
export const PAPER_WIDTHS = ['80', '58'] as const;
export const DRAWER_PINS = [2, 5] as const;

/** An IPv4 or IPv6 address, or a host name of the local network (`printer-1`, `bar.local`). */
export const PRINTER_HOST_PATTERN =
  /^(?:(?:\d{1,3}\.){3}\d{1,3}|\[?[0-9A-Fa-f:.]+\]?|(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*)$/;

export const printerInput = z.object({
  store_id: z.number().int().min(1),
  name: z.string().trim().min(NAME_MIN_SHORT).max(NAME_MAX),
  host: z.string().trim().min(1).max(253).regex(PRINTER_HOST_PATTERN),
  port: z.number().int().min(1).max(65535).default(9100),
  paper: z.enum(PAPER_WIDTHS).default('80'),
  drawer_kick: z.boolean().default(false),
  drawer_pin: z.union([z.literal(2), z.literal(5)]).default(2),
  status: z.enum(RECORD_STATUSES).default('active'),
});
export type PrinterInput = z.input<typeof printerInput>;

export const printer = z.object({
  ...recordFields,
  store_id: z.number().int(),
  store_name: z.string(),
  name: z.string(),
  host: z.string(),
  port: z.number().int(),
  paper: z.enum(PAPER_WIDTHS),
  /** SQLite answers 0/1. */
  drawer_kick: z.coerce.boolean(),
  drawer_pin: z.union([z.literal(2), z.literal(5)]),
  status: z.enum(RECORD_STATUSES),
});
export type Printer = z.infer<typeof printer>;

/** Base64 of at most ~3 MB: a receipt as a PNG is tens of kilobytes. */
const base64 = z
  .string()
  .max(4_000_000)
  .regex(/^[A-Za-z0-9+/]*={0,2}$/);

/**
 * `POST /api/printers/{id}/print`: the document as a PNG the browser drew (any width: the server
 * scales it to the paper's dots and thresholds it again), or as packed 1-bit rows already at the
 * paper's width. `drawer_order_id` asks for the cash drawer after the receipt of a cash sale: the
 * server opens it only for a sale paid in cash by this user in the last minutes, and only on a
 * printer with a drawer.
 */
export const printJobInput = z
  .object({
    png: base64.optional(),
    raster: z
      .object({
        width: z.number().int().min(8).max(PAPER_DOTS['80']),
        height: z.number().int().min(1).max(20_000),
        /** Rows of ceil(width / 8) bytes, leftmost dot in the high bit, 1 = black. */
        data: base64,
      })
      .optional(),
    cut: z.boolean().default(true),
    drawer_order_id: z.number().int().min(1).nullish(),
  })
  .refine((job) => (job.png === undefined) !== (job.raster === undefined), {
    path: ['png'],
    params: { message: 'printer.image' },
  });
export type PrintJobInput = z.input<typeof printJobInput>;

export const printResult = z.object({
  printer_id: z.number().int(),
  /** Bytes sent, and the picture's size in dots. */
  bytes: z.number().int(),
  width: z.number().int(),
  height: z.number().int(),
  drawer_opened: z.boolean(),
});
export type PrintResult = z.infer<typeof printResult>;
