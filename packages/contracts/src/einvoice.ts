import { z } from 'zod';
import { MAX_ID } from './ids.ts';

/**
 * CamInvoice, the GDT's e-invoicing platform (issue 27): the business's connection, each tax
 * document's clearance status, suppliers' e-invoices received, and a buyer looked up by TIN.
 */

export const EINVOICE_STATUSES = ['draft', 'submitting', 'valid', 'delivered', 'accepted', 'rejected'] as const;
export type EInvoiceStatus = (typeof EINVOICE_STATUSES)[number];

export const EINVOICE_DOCUMENT_KINDS = ['invoice', 'credit_note', 'debit_note'] as const;

/** Connected, revoked by the business on CamInvoice (connect again), or never connected / disconnected. */
export const einvoiceConnection = z.object({
  configured: z.boolean(),
  environment: z.enum(['sandbox', 'production']),
  status: z.enum(['connected', 'revoked', 'disconnected']),
  endpoint_id: z.string().nullable(),
  tin: z.string().nullable(),
  company_name_en: z.string().nullable(),
  company_name_kh: z.string().nullable(),
  connected_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  /** Where CamInvoice must send its events (the operator registers it with CamInvoice). */
  webhook_url: z.string(),
  problem: z.string().nullable(),
});
export type EInvoiceConnection = z.infer<typeof einvoiceConnection>;

export const einvoiceConnectStart = z.object({ authorize_url: z.string() });

/** The address CamInvoice sent the browser back to, whole: its `state` is checked, its `authToken` used. */
export const einvoiceConnectInput = z.object({ callback_url: z.string().url().max(4000) });

export const einvoiceStartInput = z.object({ redirect_url: z.string().url().max(2000) });

export const einvoiceKindParams = z.object({
  kind: z.enum(EINVOICE_DOCUMENT_KINDS),
  id: z.coerce.number().int().min(1).max(MAX_ID),
});

export const einvoiceDocumentStatus = z.object({
  document_kind: z.enum(EINVOICE_DOCUMENT_KINDS),
  document_id: z.number().int(),
  number: z.string(),
  status: z.enum(EINVOICE_STATUSES),
  reason: z.string().nullable(),
  platform_document_id: z.string().nullable(),
  verification_link: z.string().nullable(),
  attempts: z.number().int(),
  updated_at: z.string(),
});
export type EInvoiceDocumentStatus = z.infer<typeof einvoiceDocumentStatus>;

export const einvoiceListQuery = z.object({
  status: z.enum(EINVOICE_STATUSES).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});

/** A business on CamInvoice, as the customer form fills it in. */
export const einvoiceBusiness = z.object({
  endpoint_id: z.string(),
  tin: z.string().nullable(),
  name_en: z.string().nullable(),
  name_kh: z.string().nullable(),
  address: z.string().nullable(),
});

export const tinLookupQuery = z.object({
  tin: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9-]{5,30}$/),
});

export const receivedLine = z.object({
  description: z.string(),
  quantity: z.number(),
  unit_code: z.string().nullable(),
  /** Riel, as the supplier wrote them (decimals allowed in a unit price). */
  unit_price_khr: z.number(),
  net_khr: z.number(),
  barcode: z.string().nullable(),
  sku: z.string().nullable(),
  /** The product matched by barcode, else by SKU; null: a person chooses. */
  product_id: z.number().int().nullable(),
  product_name: z.string().nullable(),
});
export type ReceivedEInvoiceLine = z.infer<typeof receivedLine>;

export const receivedEInvoice = z.object({
  id: z.number().int(),
  platform_document_id: z.string(),
  document_type: z.string(),
  number: z.string(),
  issue_date: z.string(),
  supplier_name: z.string(),
  supplier_tin: z.string().nullable(),
  total_khr: z.number(),
  rate_khr: z.number().nullable(),
  purchase_id: z.number().int().nullable(),
  lines: z.array(receivedLine),
  created_at: z.string(),
});
export type ReceivedEInvoice = z.infer<typeof receivedEInvoice>;

const id = z.number().int().min(1).max(MAX_ID);

/** A draft purchase from a received e-invoice: the store, the supplier, each line's product. */
export const receivedToPurchaseInput = z.object({
  store_id: id,
  supplier_id: id,
  /** One entry per line of the e-invoice, in order: the product (matched or chosen), null to leave it out. */
  products: z.array(id.nullable()).min(1).max(500),
});
