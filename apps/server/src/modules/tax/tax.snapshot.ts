import {
  RATE_SOURCES,
  rielTotals,
  TAX_CATEGORIES,
  TAX_DOCUMENT_KINDS,
  type TaxCategory,
  type TaxDocument,
} from '@depot/contracts';
import type { Db } from '../../db/database.ts';
import { notFound } from '../../http/errors.ts';
import { documentHead, documentLines } from './tax.repository.ts';

const oneOf = <T extends string>(values: readonly T[], value: string): T => {
  if (!(values as readonly string[]).includes(value)) throw new Error(`unexpected value ${value}`);
  return value as T;
};

/**
 * A tax document's full snapshot, as it was issued (contracts `TaxDocument`): what prints it, and
 * what an e-invoice is made from (modules/einvoice adapts it without reading the order again).
 * Nothing here depends on the order as it is now, only on the document's own rows.
 */
export async function taxDocumentById(db: Db, id: number): Promise<TaxDocument> {
  const head = await documentHead(db, id);
  if (!head) throw notFound();
  const lines = (await documentLines(db, id)).map((line) => ({
    line_no: line.line_no,
    order_item_id: line.order_item_id,
    description_kh: line.description_kh,
    description_en: line.description_en,
    sku: line.sku,
    unit_kh: line.unit_kh,
    unit_en: line.unit_en,
    quantity: Number(line.quantity),
    decimals: Number(line.decimals),
    unit_price_cents: Number(line.unit_price_cents),
    currency: 'USD' as const,
    discount_cents: Number(line.discount_cents),
    tax_category: oneOf<TaxCategory>(TAX_CATEGORIES, line.tax_category),
    tax_rate_bp: Number(line.tax_rate_bp),
    net_cents: Number(line.net_cents),
    tax_cents: Number(line.tax_cents),
    total_cents: Number(line.total_cents),
  }));
  // each tax on its own line, from the lines as written (the same sums the totals were written from)
  const { taxes } = rielTotals(lines, Number(head.rate_khr));
  return {
    id: head.id,
    kind: oneOf(TAX_DOCUMENT_KINDS, head.kind),
    series: head.series,
    sequence: Number(head.sequence),
    number: head.number,
    issued_at: head.issued_at,
    issue_date: head.issue_date,
    store_id: head.store_id,
    store_code: head.store_code,
    order_id: head.order_id,
    order_number: head.order_number,
    return_id: head.return_id,
    original_id: head.original_id,
    original_number: head.original_number,
    original_issue_date: head.original_issue_date,
    reason: head.reason,
    seller: { name: head.seller_name, address: head.seller_address, tin: head.seller_tin, phone: head.seller_phone },
    buyer: { name: head.buyer_name, address: head.buyer_address, tin: head.buyer_tin, phone: head.buyer_phone },
    customer_id: head.customer_id,
    currency: 'USD',
    vat_rate_bp: Number(head.vat_rate_bp),
    lines,
    net_cents: Number(head.net_cents),
    tax_cents: Number(head.tax_cents),
    total_cents: Number(head.total_cents),
    taxes,
    total_khr: Number(head.total_khr),
    tax_khr: Number(head.tax_khr),
    net_khr: Number(head.net_khr),
    rate_khr: Number(head.rate_khr),
    rate_source: oneOf(RATE_SOURCES, head.rate_source),
    rate_date: head.rate_date,
    created_by_name: head.created_by_name,
  };
}
