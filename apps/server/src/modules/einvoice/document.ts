import type { Db } from '../../db/database.ts';

/**
 * What CamInvoice is sent: one issued tax document, as plain data. Depot's tax documents (tax
 * invoices, credit and debit notes: immutable snapshots) are turned into this by a loader each
 * kind registers at start-up (`registerEInvoiceSource`); the outbox keeps only (kind, id) and asks
 * the loader when it writes the UBL, so nothing here depends on how the documents are stored.
 */

export const EINVOICE_KINDS = ['invoice', 'credit_note', 'debit_note'] as const;
export type EInvoiceKind = (typeof EINVOICE_KINDS)[number];

/** UN/CEFACT 1001 document type codes as UBL writes them: Invoice 380, CreditNote 381, DebitNote 383. */
export const TYPE_CODES: Record<EInvoiceKind, '380' | '381' | '383'> = {
  invoice: '380',
  credit_note: '381',
  debit_note: '383',
};

/** CamInvoice's `document_type` for each kind (POST /api/v1/document). */
export const PLATFORM_TYPES: Record<EInvoiceKind, 'INVOICE' | 'CREDIT_NOTE' | 'DEBIT_NOTE'> = {
  invoice: 'INVOICE',
  credit_note: 'CREDIT_NOTE',
  debit_note: 'DEBIT_NOTE',
};

/** VAT categories (UNCL 5305): S standard (10 %), Z zero-rated (exports), E exempt. */
export type TaxCategory = 'S' | 'Z' | 'E';

export interface EInvoiceParty {
  /** The registered name as printed (Khmer first when the business has one). */
  name: string;
  /** The Latin name, when the business has one besides. */
  name_en?: string | null;
  address: string;
  /** VAT TIN (e.g. K001-123456789); null for a buyer that is not registered. */
  tin: string | null;
  /** The business's CamInvoice id (KHUID…), null when it is not on the platform. */
  endpoint_id: string | null;
}

export interface EInvoiceLine {
  description: string;
  /** Whole steps of the unit: units, or grams of a kg when `decimals` is 3. */
  quantity: number;
  /** The unit's decimals (kg: 3); absent: 0. The UBL quantity is written as the decimal (1.250). */
  decimals?: number;
  /** UN/ECE rec. 20 unit code (`C62` one, `KGM` kilogram, `BX` box…). */
  unit_code: string;
  /** Minor units of `currency`: US cents or whole riel. */
  unit_price: number;
  currency: 'USD' | 'KHR';
  tax_category: TaxCategory;
  /** 10 for S, 0 for Z and E. */
  tax_percent: number;
  /** The line before tax and its tax, minor units of `currency`. */
  net: number;
  tax: number;
  /** How the buyer may match the line to their own products. */
  sku?: string | null;
  barcode?: string | null;
}

export interface EInvoiceDocument {
  kind: EInvoiceKind;
  /** The store that issued it: who may see its status (policies/einvoices.ts). */
  store_id: number;
  number: string;
  /** YYYY-MM-DD. */
  issue_date: string;
  seller: EInvoiceParty;
  buyer: EInvoiceParty;
  lines: EInvoiceLine[];
  /** The document's totals in riel, as stated on the printed document (the riel total is the law's). */
  totals: { net_khr: number; tax_khr: number; total_khr: number };
  /** The document currency: always riel. */
  currency: 'KHR';
  /** The rate the document was issued with (riel per US dollar), its date and source. */
  exchange_rate: { riel_per_usd: number; date: string; source?: string | null };
  /** A credit or debit note's invoice. */
  billing_reference?: { number: string; issue_date: string; platform_id?: string | null } | null;
  /** Why a credit or debit note was issued. */
  reason?: string | null;
}

export type EInvoiceSource = (db: Db, id: number) => Promise<EInvoiceDocument>;

const sources = new Map<EInvoiceKind, EInvoiceSource>();

/** The tax documents' module tells the outbox how to read one of its documents (at start-up). */
export function registerEInvoiceSource(kind: EInvoiceKind, source: EInvoiceSource): void {
  sources.set(kind, source);
}

/** Whether a kind has a loader: documents of a kind without one cannot be queued. */
export function hasEInvoiceSource(kind: EInvoiceKind): boolean {
  return sources.has(kind);
}

export async function loadEInvoiceDocument(db: Db, kind: EInvoiceKind, id: number): Promise<EInvoiceDocument> {
  const source = sources.get(kind);
  if (!source) throw new Error(`no e-invoice source registered for ${kind}`);
  return source(db, id);
}
