import type { TaxDocument, TaxDocumentDetail, TaxDocumentKind } from '@depot/contracts';
import type { Db } from '../../db/database.ts';
import {
  type EInvoiceDocument,
  type EInvoiceKind,
  type EInvoiceLine,
  registerEInvoiceSource,
} from '../einvoice/document.ts';
import { einvoiceVerificationLink } from '../einvoice/einvoice.service.ts';
import { enqueueEInvoice } from '../einvoice/outbox.ts';
import { taxDocumentById } from './tax.snapshot.ts';

/*
 * Tax documents as CamInvoice receives them. A tax invoice is an Invoice (380), its credit note a
 * CreditNote (381), its debit note a DebitNote (383). A commercial invoice (a buyer without a VAT
 * number) is not cleared, nor are its notes: CamInvoice's B2B flow names a registered buyer.
 */

/** The e-invoice kind of a tax document, or null when it is not cleared with CamInvoice. */
export function einvoiceKindOf(kind: TaxDocumentKind, originalKind: TaxDocumentKind | null): EInvoiceKind | null {
  if (kind === 'tax_invoice') return 'invoice';
  if (originalKind !== 'tax_invoice') return null;
  return kind === 'credit_note' ? 'credit_note' : kind === 'debit_note' ? 'debit_note' : null;
}

/** UN/ECE rec. 20 codes for the units Depot's catalogue names; anything else counts in ones. */
const UNIT_CODES: Record<string, string> = {
  kg: 'KGM',
  kilogram: 'KGM',
  g: 'GRM',
  gram: 'GRM',
  m: 'MTR',
  metre: 'MTR',
  meter: 'MTR',
  l: 'LTR',
  litre: 'LTR',
  liter: 'LTR',
  box: 'BX',
  bag: 'BG',
  bottle: 'BO',
  can: 'CA',
  pack: 'PK',
  carton: 'CT',
  dozen: 'DZN',
};

const unitCode = (unit: string | null) => UNIT_CODES[(unit ?? '').trim().toLowerCase()] ?? 'C62';

/** The connected business's CamInvoice id (the seller's endpoint). */
async function sellerEndpoint(db: Db): Promise<string | null> {
  const row = await db
    .selectFrom('einvoice_connections')
    .select('endpoint_id')
    .where('status', '!=', 'disconnected')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return row?.endpoint_id ?? null;
}

/** A snapshot as the UBL writer takes it: riel totals as printed, the lines in dollars, the rate kept. */
export async function toEInvoiceDocument(db: Db, kind: EInvoiceKind, doc: TaxDocument): Promise<EInvoiceDocument> {
  const lines = doc.lines.map(
    (line): EInvoiceLine => ({
      description:
        line.description_kh === line.description_en
          ? line.description_en
          : `${line.description_kh} ${line.description_en}`.trim(),
      quantity: line.quantity,
      decimals: line.decimals,
      unit_code: unitCode(line.unit_en),
      unit_price: line.unit_price_cents,
      currency: 'USD',
      tax_category: line.tax_category,
      tax_percent: line.tax_category === 'S' ? line.tax_rate_bp / 100 : 0,
      net: line.net_cents,
      tax: line.tax_cents,
      sku: line.sku,
    }),
  );
  let reference: EInvoiceDocument['billing_reference'] = null;
  if (kind !== 'invoice' && doc.original_id && doc.original_number && doc.original_issue_date) {
    const cleared = await db
      .selectFrom('einvoice_outbox')
      .select('platform_document_id')
      .where('document_kind', '=', 'invoice')
      .where('document_id', '=', doc.original_id)
      .executeTakeFirst();
    reference = {
      number: doc.original_number,
      issue_date: doc.original_issue_date,
      platform_id: cleared?.platform_document_id ?? null,
    };
  }
  const address = (text: string | null) => text ?? '';
  return {
    kind,
    store_id: doc.store_id,
    number: doc.number,
    issue_date: doc.issue_date,
    seller: {
      name: doc.seller.name,
      address: address(doc.seller.address),
      tin: doc.seller.tin,
      endpoint_id: await sellerEndpoint(db),
    },
    // the buyer is named by its TIN (CamInvoice finds its endpoint from it)
    buyer: { name: doc.buyer.name, address: address(doc.buyer.address), tin: doc.buyer.tin, endpoint_id: null },
    lines,
    totals: { net_khr: doc.net_khr, tax_khr: doc.tax_khr, total_khr: doc.total_khr },
    currency: 'KHR',
    exchange_rate: { riel_per_usd: doc.rate_khr, date: doc.rate_date, source: doc.rate_source },
    billing_reference: reference,
    reason: kind === 'invoice' ? null : doc.reason,
  };
}

async function load(db: Db, kind: EInvoiceKind, id: number): Promise<EInvoiceDocument> {
  const doc = await taxDocumentById(db, id);
  const original = doc.original_id
    ? await db.selectFrom('tax_documents').select('kind').where('id', '=', doc.original_id).executeTakeFirst()
    : undefined;
  if (einvoiceKindOf(doc.kind, (original?.kind as TaxDocumentKind) ?? null) !== kind) {
    throw new Error(`tax document ${id} is not a CamInvoice ${kind}`);
  }
  return toEInvoiceDocument(db, kind, doc);
}

/** At start-up: the outbox reads tax invoices, credit and debit notes through these. */
export function registerTaxEInvoiceSources(): void {
  for (const kind of ['invoice', 'credit_note', 'debit_note'] as const) {
    registerEInvoiceSource(kind, (db, id) => load(db, kind, id));
  }
}

/**
 * In the issuing transaction: queue a document for CamInvoice when the business is connected (or
 * its connection was revoked: it is sent once connected again). Disconnected, or never connected,
 * nothing is queued; an administrator may queue a document later (einvoice routes).
 */
export async function queueTaxEInvoice(
  trx: Db,
  doc: { id: number; kind: TaxDocumentKind; store_id: number; number: string; original_kind: TaxDocumentKind | null },
): Promise<void> {
  const kind = einvoiceKindOf(doc.kind, doc.original_kind);
  if (!kind) return;
  if (!(await sellerEndpoint(trx))) return;
  await enqueueEInvoice(trx, kind, doc.id, doc.store_id, doc.number);
}

/** A document's CamInvoice clearance for its detail: status, refusal, and the link once cleared. */
export async function einvoiceOf(db: Db, doc: TaxDocument): Promise<TaxDocumentDetail['einvoice']> {
  const rows = await db
    .selectFrom('einvoice_outbox')
    .select(['document_kind', 'status', 'reason'])
    .where('document_id', '=', doc.id)
    .execute();
  const wanted = doc.kind === 'tax_invoice' ? 'invoice' : doc.kind;
  const row = rows.find((r) => r.document_kind === wanted);
  if (!row) return null;
  return {
    kind: row.document_kind,
    status: row.status,
    reason: row.reason,
    verification_link: await einvoiceVerificationLink(db, row.document_kind, doc.id),
  };
}
