import { z } from 'zod';
import { EINVOICE_DOCUMENT_KINDS, EINVOICE_STATUSES } from './einvoice.ts';
import { rielAtStep } from './money.ts';
import { RATE_KHR_MAX, RATE_KHR_MIN, type RatePolicy } from './rates.ts';
import { daysBetween } from './reports.ts';

/**
 * Tax documents (issue 27, Prakas 723, Instruction 1127, Notification 4908): a tax invoice for a
 * VAT-registered buyer, a commercial invoice for anyone else (prices including tax, no breakdown),
 * and the credit and debit notes that correct one. Each is a snapshot, written once when issued
 * and never edited: seller, buyer, lines, totals, the rate and its source. Numbered in an unbroken
 * sequence per series (kind, store, year): TI-PP01-2026-000001.
 *
 * The riel rules are here, pure (tax.test.ts holds their properties): which rate an invoice uses
 * (`taxRate`), and the riel of its totals (`rielTotals`), rounded half up to the whole riel.
 */

export const TAX_DOCUMENT_KINDS = ['tax_invoice', 'commercial_invoice', 'credit_note', 'debit_note'] as const;
export type TaxDocumentKind = (typeof TAX_DOCUMENT_KINDS)[number];
/** The invoices a sale is issued; the notes correct one of them. */
export const INVOICE_KINDS = ['tax_invoice', 'commercial_invoice'] as const;
export type InvoiceKind = (typeof INVOICE_KINDS)[number];

/** Each kind's series prefix. */
export const TAX_SERIES: Record<TaxDocumentKind, string> = {
  tax_invoice: 'TI',
  commercial_invoice: 'CI',
  credit_note: 'CN',
  debit_note: 'DN',
};

/**
 * A line's tax category (UNCL5305, as UBL writes it): S standard rate (VAT 10 %), Z zero rated,
 * E exempt. A taxable product is S (Z when VAT is set to 0 %); an untaxed one, and a delivery fee
 * Depot charges no VAT on, is E.
 */
export const TAX_CATEGORIES = ['S', 'Z', 'E'] as const;
export type TaxCategory = (typeof TAX_CATEGORIES)[number];

/** Where a document's rate came from: the GDT's month, the depot's own, or the NBC's day (the floor). */
export const RATE_SOURCES = ['gdt_monthly', 'market', 'nbc_daily'] as const;
export type RateSource = (typeof RATE_SOURCES)[number];

/** The published rates kept with their history: the NBC's of a day, the GDT's of a month. */
export const OFFICIAL_RATE_KINDS = ['nbc_daily', 'gdt_monthly'] as const;
export type OfficialRateKind = (typeof OFFICIAL_RATE_KINDS)[number];

/** How old the newest NBC rate may be when an invoice is issued (weekends and holidays have none). */
export const NBC_RATE_MAX_AGE_DAYS = 7;

// ---- the rules, pure ----

/** 'YYYY-MM-01' of the month before the date's ('2026-01-15' → '2025-12-01'). */
export function previousMonth(date: string): string {
  const [year, month] = date.split('-').map(Number);
  return month === 1 ? `${year - 1}-12-01` : `${year}-${String(month - 1).padStart(2, '0')}-01`;
}

export interface RateFacts {
  policy: RatePolicy;
  /** The issue date, in Cambodia (YYYY-MM-DD). */
  issueDate: string;
  /** The depot's own rate: the sale's, and the day it was sold. */
  market: { rate_khr: number; date: string };
  /** The NBC's newest rate dated on or before the issue date, if any. */
  nbc: { rate_khr: number; date: string } | null;
  /** The GDT's rate of the month before the issue date (date: its first day), if entered. */
  gdt: { rate_khr: number; date: string } | null;
}

export interface ChosenRate {
  rate_khr: number;
  source: RateSource;
  /** The rate's date: the GDT's month (its first day), the NBC's day, or the sale's day. */
  date: string;
}

/** What is missing to choose a rate: the GDT's rate of the previous month, or a recent NBC rate. */
export type RateMissing = { missing: 'gdt_rate'; month: string } | { missing: 'nbc_rate'; date: string };

/**
 * The rate an invoice is issued at. `gdt_monthly`: the GDT's rate of the previous month (none
 * entered: missing). `market`: the sale's rate, raised to the NBC's daily rate when below it; the
 * NBC's rate must be known and at most NBC_RATE_MAX_AGE_DAYS old (else missing).
 */
export function taxRate(facts: RateFacts): ChosenRate | RateMissing {
  if (facts.policy === 'gdt_monthly') {
    const month = previousMonth(facts.issueDate);
    if (!facts.gdt || facts.gdt.date !== month) return { missing: 'gdt_rate', month };
    return { rate_khr: facts.gdt.rate_khr, source: 'gdt_monthly', date: month };
  }
  const nbc = facts.nbc;
  if (!nbc || nbc.date > facts.issueDate || daysBetween(nbc.date, facts.issueDate) > NBC_RATE_MAX_AGE_DAYS) {
    return { missing: 'nbc_rate', date: facts.issueDate };
  }
  if (facts.market.rate_khr < nbc.rate_khr) return { rate_khr: nbc.rate_khr, source: 'nbc_daily', date: nbc.date };
  return { rate_khr: facts.market.rate_khr, source: 'market', date: facts.market.date };
}

/** Riel of an amount in US cents at a rate, rounded half up to the whole riel (the invoice's rule). */
export function taxRiel(cents: number, rateKhr: number): number {
  if (!Number.isSafeInteger(cents) || !Number.isSafeInteger(rateKhr) || rateKhr <= 0) {
    throw new RangeError('riel needs whole cents and a positive whole rate');
  }
  return rielAtStep(BigInt(cents) * BigInt(rateKhr), 100n, 1);
}

/** VAT of a net amount at a rate in basis points, half up to the cent. */
export function vatOf(netCents: number, rateBp: number): number {
  const n = BigInt(netCents) * BigInt(rateBp);
  const magnitude = ((n < 0n ? -n : n) * 2n + 10_000n) / 20_000n;
  return Number(n < 0n ? -magnitude : magnitude);
}

/** A line as the totals read it. */
export interface TaxedLine {
  tax_category: TaxCategory;
  tax_rate_bp: number;
  net_cents: number;
  tax_cents: number;
}

export interface TaxSubtotal {
  tax_category: TaxCategory;
  tax_rate_bp: number;
  net_cents: number;
  tax_cents: number;
}

export interface TaxTotals {
  net_cents: number;
  tax_cents: number;
  total_cents: number;
  /** One per category and rate: each tax on its own line (S 10 % first, then Z, then E). */
  taxes: TaxSubtotal[];
  /** The total including VAT in riel; VAT in riel; and the rest, so that the riel add up. */
  total_khr: number;
  tax_khr: number;
  net_khr: number;
}

/**
 * A document's totals from its lines: before tax, each tax, including tax, and in riel at its
 * rate. The riel of the total and of the VAT are each rounded once, half up; the riel before tax
 * is their difference (the three add up on paper).
 */
export function rielTotals(lines: readonly TaxedLine[], rateKhr: number): TaxTotals {
  const groups = new Map<string, TaxSubtotal>();
  let net = 0;
  let tax = 0;
  for (const line of lines) {
    net += line.net_cents;
    tax += line.tax_cents;
    const key = `${line.tax_category}:${line.tax_rate_bp}`;
    const group = groups.get(key) ?? {
      tax_category: line.tax_category,
      tax_rate_bp: line.tax_rate_bp,
      net_cents: 0,
      tax_cents: 0,
    };
    group.net_cents += line.net_cents;
    group.tax_cents += line.tax_cents;
    groups.set(key, group);
  }
  const order = (c: TaxCategory) => TAX_CATEGORIES.indexOf(c);
  const taxes = [...groups.values()].sort(
    (a, b) => order(a.tax_category) - order(b.tax_category) || b.tax_rate_bp - a.tax_rate_bp,
  );
  const total = net + tax;
  const totalKhr = taxRiel(total, rateKhr);
  const taxKhr = taxRiel(tax, rateKhr);
  return {
    net_cents: net,
    tax_cents: tax,
    total_cents: total,
    taxes,
    total_khr: totalKhr,
    tax_khr: taxKhr,
    net_khr: totalKhr - taxKhr,
  };
}

/** A line's category from what the sale knows: taxed or not, and the VAT rate. */
export function categoryOf(taxable: boolean, vatRateBp: number): { tax_category: TaxCategory; tax_rate_bp: number } {
  if (!taxable) return { tax_category: 'E', tax_rate_bp: 0 };
  return vatRateBp > 0 ? { tax_category: 'S', tax_rate_bp: vatRateBp } : { tax_category: 'Z', tax_rate_bp: 0 };
}

/** "TI-PP01-2026-000042": a document's number from its series and place in it. */
export function taxDocumentNumber(series: string, sequence: number): string {
  return `${series}-${String(sequence).padStart(6, '0')}`;
}

// ---- the API ----

const text = (max: number) => z.string().trim().min(1).max(max);

export const taxDocumentLine = z.object({
  line_no: z.number().int(),
  order_item_id: z.number().int().nullable(),
  description_kh: z.string(),
  description_en: z.string(),
  sku: z.string().nullable(),
  unit_kh: z.string().nullable(),
  unit_en: z.string().nullable(),
  /** Whole steps of the unit (grams of a kg): read it with `decimals` (contracts format `formatQuantity`). */
  quantity: z.number().int(),
  /** The unit's decimals when the document was issued (kg: 3, pieces and manual lines: 0). */
  decimals: z.number().int().min(0),
  /** Before VAT, in the line's currency (US cents: Depot sells in dollars). */
  unit_price_cents: z.number().int(),
  currency: z.literal('USD'),
  discount_cents: z.number().int(),
  tax_category: z.enum(TAX_CATEGORIES),
  tax_rate_bp: z.number().int(),
  net_cents: z.number().int(),
  tax_cents: z.number().int(),
  total_cents: z.number().int(),
});
export type TaxDocumentLine = z.infer<typeof taxDocumentLine>;

export const taxParty = z.object({
  name: z.string(),
  address: z.string().nullable(),
  /** The VAT number (TIN): the seller's always on a tax invoice, the buyer's when registered. */
  tin: z.string().nullable(),
  phone: z.string().nullable(),
});
export type TaxParty = z.infer<typeof taxParty>;

export const taxSubtotal = z.object({
  tax_category: z.enum(TAX_CATEGORIES),
  tax_rate_bp: z.number().int(),
  net_cents: z.number().int(),
  tax_cents: z.number().int(),
});

/** What a document's list row and its full snapshot share. */
const taxDocumentBase = z.object({
  id: z.number().int(),
  kind: z.enum(TAX_DOCUMENT_KINDS),
  series: z.string(),
  sequence: z.number().int(),
  number: z.string(),
  issued_at: z.string(),
  store_id: z.number().int(),
  order_id: z.number().int(),
  order_number: z.string(),
  original_id: z.number().int().nullable(),
  original_number: z.string().nullable(),
  total_cents: z.number().int(),
  total_khr: z.number().int(),
  rate_khr: z.number().int(),
  rate_source: z.enum(RATE_SOURCES),
});

/** A credit or debit note under its invoice. */
export const taxNoteSummary = taxDocumentBase.pick({
  id: true,
  kind: true,
  number: true,
  issued_at: true,
  total_cents: true,
  total_khr: true,
});

/** One document as the list shows it. */
export const taxDocumentSummary = taxDocumentBase.extend({
  store_name: z.string(),
  buyer_name: z.string(),
  buyer_tin: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  deleted_at: z.string().nullable(),
});
export type TaxDocumentSummary = z.infer<typeof taxDocumentSummary>;

/**
 * The full snapshot (`taxDocumentById`): everything printed, and everything an e-invoice needs
 * (UBL 2.1: Invoice 380, CreditNote 381, DebitNote 383; KHR document currency with the rate).
 */
export const taxDocument = taxDocumentBase.extend({
  /** The issue date in Cambodia (YYYY-MM-DD). */
  issue_date: z.string(),
  store_code: z.string(),
  /** The return a credit note refunds (null for a void's, and for the others). */
  return_id: z.number().int().nullable(),
  original_issue_date: z.string().nullable(),
  reason: z.string().nullable(),
  seller: taxParty,
  buyer: taxParty,
  customer_id: z.number().int(),
  /** The lines' currency; the document's is riel (the total including VAT is stated in riel). */
  currency: z.literal('USD'),
  vat_rate_bp: z.number().int(),
  lines: z.array(taxDocumentLine),
  net_cents: z.number().int(),
  tax_cents: z.number().int(),
  taxes: z.array(taxSubtotal),
  tax_khr: z.number().int(),
  net_khr: z.number().int(),
  rate_date: z.string(),
  created_by_name: z.string().nullable(),
});
export type TaxDocument = z.infer<typeof taxDocument>;

export const TAX_DOCUMENT_ACTIONS = ['debit'] as const;
export type TaxDocumentAction = (typeof TAX_DOCUMENT_ACTIONS)[number];

/** `GET /api/tax-documents/{id}`: the snapshot, its notes (an invoice's), and what the user may do. */
export const taxDocumentDetail = taxDocument.extend({
  notes: z.array(taxNoteSummary),
  /** Its CamInvoice clearance (null when it is not queued): the link once valid, for the A4's QR code. */
  einvoice: z
    .object({
      kind: z.enum(EINVOICE_DOCUMENT_KINDS),
      status: z.enum(EINVOICE_STATUSES),
      reason: z.string().nullable(),
      verification_link: z.string().nullable(),
    })
    .nullable(),
  abilities: z.object({ debit: z.union([z.boolean(), z.literal('approval')]) }),
});
export type TaxDocumentDetail = z.infer<typeof taxDocumentDetail>;

/** `POST /api/tax-documents`: an order's invoice; the kind by default from the buyer (a TIN: tax invoice). */
export const taxDocumentInput = z.object({
  order_id: z.number().int().min(1).max(2_147_483_647),
  kind: z.enum(INVOICE_KINDS).optional(),
});
export type TaxDocumentInput = z.input<typeof taxDocumentInput>;

/** `POST /api/tax-documents/{id}/debit-notes`: a price correction upward, with its reason and lines. */
export const debitNoteInput = z.object({
  reason: text(255),
  lines: z
    .array(
      z.object({
        description: text(200),
        quantity: z.number().int().min(1).max(1_000_000),
        unit_price_cents: z.number().int().min(1).max(100_000_000),
        tax_category: z.enum(TAX_CATEGORIES),
      }),
    )
    .min(1)
    .max(100),
});
export type DebitNoteInput = z.input<typeof debitNoteInput>;

/** A published rate, as kept (entered by hand, or fetched from the NBC's feed). */
export const officialRate = z.object({
  id: z.number().int(),
  kind: z.enum(OFFICIAL_RATE_KINDS),
  /** The NBC's day, or the GDT's month (its first day). */
  date: z.string(),
  rate_khr: z.number().int(),
  source: z.enum(['manual', 'feed']),
  created_by_name: z.string().nullable(),
  created_at: z.string(),
});
export type OfficialRate = z.infer<typeof officialRate>;

/** `POST /api/official-rates`: a rate entered by hand (a GDT month: any day of it). */
export const officialRateInput = z.object({
  kind: z.enum(OFFICIAL_RATE_KINDS),
  date: z.iso.date(),
  rate_khr: z.number().int().min(RATE_KHR_MIN).max(RATE_KHR_MAX),
});
export type OfficialRateInput = z.input<typeof officialRateInput>;
