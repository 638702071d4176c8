import { quantityDecimal, usdCentsToKhr } from '@depot/contracts';
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import {
  type EInvoiceDocument,
  type EInvoiceLine,
  type EInvoiceParty,
  type TaxCategory,
  TYPE_CODES,
} from './document.ts';

/**
 * A tax document as UBL 2.1 (OASIS): Invoice 380, CreditNote 381, DebitNote 383, in riel (KHR, the
 * document currency) with the dollar rate the document was issued at (`TaxExchangeRate`, USD → KHR,
 * as GDT's samples write it). Elements follow the schemas' order (apps/server/assets/ubl-2.1); every
 * document written validates against them (ubl.test.ts, xmllint).
 *
 * Dollar lines become riel at the document's rate, each amount rounded once, half up, to the riel
 * (contracts `usdCentsToKhr`). The riel of parts need not add up to the stated riel total (the riel
 * of a sum is rounded once): the difference is `PayableRoundingAmount`, so `PayableAmount` is always
 * the document's stated total.
 */

const NS = {
  invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  credit_note: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  debit_note: 'urn:oasis:names:specification:ubl:schema:xsd:DebitNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
} as const;

const ROOT = { invoice: 'Invoice', credit_note: 'CreditNote', debit_note: 'DebitNote' } as const;
const LINE = { invoice: 'InvoiceLine', credit_note: 'CreditNoteLine', debit_note: 'DebitNoteLine' } as const;
const QUANTITY = {
  invoice: 'InvoicedQuantity',
  credit_note: 'CreditedQuantity',
  debit_note: 'DebitedQuantity',
} as const;

const EXEMPTION = 'Exempt from VAT (Law on Taxation, article 57)';

/** A line amount in riel at the document's rate (riel lines as they are). */
function riel(amount: number, line: Pick<EInvoiceLine, 'currency'>, rate: number): number {
  return line.currency === 'KHR' ? amount : usdCentsToKhr(amount, rate, 1);
}

/** A unit price in riel, exact (two decimals at most: cents × rate / 100). */
function unitPriceText(line: EInvoiceLine, rate: number): string {
  if (line.currency === 'KHR') return String(line.unit_price);
  const hundredths = BigInt(line.unit_price) * BigInt(rate);
  const whole = hundredths / 100n;
  const rest = hundredths % 100n;
  return rest === 0n ? String(whole) : `${whole}.${String(rest).padStart(2, '0').replace(/0$/, '')}`;
}

export interface RielLine {
  net: number;
  tax: number;
}

/** Each line's net and tax in riel, the category sums and the rounding to the stated total. */
export function rielFigures(doc: EInvoiceDocument) {
  const rate = doc.exchange_rate.riel_per_usd;
  const lines: RielLine[] = doc.lines.map((l) => ({ net: riel(l.net, l, rate), tax: riel(l.tax, l, rate) }));
  const categories = new Map<string, { category: TaxCategory; percent: number; taxable: number; tax: number }>();
  doc.lines.forEach((line, i) => {
    const key = `${line.tax_category}:${line.tax_percent}`;
    const entry = categories.get(key) ?? { category: line.tax_category, percent: line.tax_percent, taxable: 0, tax: 0 };
    entry.taxable += lines[i].net;
    entry.tax += lines[i].tax;
    categories.set(key, entry);
  });
  const net = lines.reduce((sum, l) => sum + l.net, 0);
  const tax = [...categories.values()].reduce((sum, c) => sum + c.tax, 0);
  return {
    lines,
    categories: [...categories.values()],
    net,
    tax,
    inclusive: net + tax,
    rounding: doc.totals.total_khr - (net + tax),
    payable: doc.totals.total_khr,
  };
}

function amount(parent: XMLBuilder, name: string, value: number | string): void {
  parent.ele(NS.cbc, `cbc:${name}`, { currencyID: 'KHR' }).txt(String(value));
}

function taxCategory(parent: XMLBuilder, category: TaxCategory, percent: number): void {
  const node = parent.ele(NS.cac, 'cac:TaxCategory');
  node.ele(NS.cbc, 'cbc:ID').txt(category);
  node.ele(NS.cbc, 'cbc:Percent').txt(String(percent));
  if (category === 'E') node.ele(NS.cbc, 'cbc:TaxExemptionReason').txt(EXEMPTION);
  node.ele(NS.cac, 'cac:TaxScheme').ele(NS.cbc, 'cbc:ID').txt('VAT');
}

function party(parent: XMLBuilder, role: 'AccountingSupplierParty' | 'AccountingCustomerParty', p: EInvoiceParty) {
  const node = parent.ele(NS.cac, `cac:${role}`).ele(NS.cac, 'cac:Party');
  // the platform's id of the business (KHUID…); GDT writes no scheme, 0088-style scheme ids do not apply
  if (p.endpoint_id) node.ele(NS.cbc, 'cbc:EndpointID', { schemeID: 'KHUID' }).txt(p.endpoint_id);
  node.ele(NS.cac, 'cac:PartyName').ele(NS.cbc, 'cbc:Name').txt(p.name);
  const address = node.ele(NS.cac, 'cac:PostalAddress');
  address.ele(NS.cbc, 'cbc:StreetName').txt(p.address);
  address.ele(NS.cac, 'cac:Country').ele(NS.cbc, 'cbc:IdentificationCode').txt('KH');
  if (p.tin) {
    const scheme = node.ele(NS.cac, 'cac:PartyTaxScheme');
    scheme.ele(NS.cbc, 'cbc:CompanyID').txt(p.tin);
    scheme.ele(NS.cac, 'cac:TaxScheme').ele(NS.cbc, 'cbc:ID').txt('VAT');
  }
  const legal = node.ele(NS.cac, 'cac:PartyLegalEntity');
  legal.ele(NS.cbc, 'cbc:RegistrationName').txt(p.name_en || p.name);
  if (p.tin) legal.ele(NS.cbc, 'cbc:CompanyID').txt(p.tin);
}

/** The document as UBL 2.1 XML (UTF-8, with its declaration). */
export function writeUbl(doc: EInvoiceDocument): string {
  const kind = doc.kind;
  const figures = rielFigures(doc);
  const rate = doc.exchange_rate.riel_per_usd;
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele(NS[kind], ROOT[kind], {
    'xmlns:cac': NS.cac,
    'xmlns:cbc': NS.cbc,
  });
  const cbc = (name: string, text: string) => root.ele(NS.cbc, `cbc:${name}`).txt(text);
  cbc('UBLVersionID', '2.1');
  cbc('ID', doc.number);
  cbc('IssueDate', doc.issue_date);
  if (kind === 'invoice') cbc('InvoiceTypeCode', TYPE_CODES.invoice);
  if (kind === 'credit_note') cbc('CreditNoteTypeCode', TYPE_CODES.credit_note);
  if (doc.reason) cbc('Note', doc.reason);
  cbc('DocumentCurrencyCode', 'KHR');
  if (kind === 'credit_note' || kind === 'debit_note') {
    if (!doc.billing_reference) throw new Error(`${kind} ${doc.number} has no billing reference`);
  }
  if (doc.billing_reference) {
    const ref = root.ele(NS.cac, 'cac:BillingReference').ele(NS.cac, 'cac:InvoiceDocumentReference');
    ref.ele(NS.cbc, 'cbc:ID').txt(doc.billing_reference.number);
    if (doc.billing_reference.platform_id) ref.ele(NS.cbc, 'cbc:UUID').txt(doc.billing_reference.platform_id);
    ref.ele(NS.cbc, 'cbc:IssueDate').txt(doc.billing_reference.issue_date);
  }
  party(root, 'AccountingSupplierParty', doc.seller);
  party(root, 'AccountingCustomerParty', doc.buyer);
  const exchange = root.ele(NS.cac, 'cac:TaxExchangeRate');
  exchange.ele(NS.cbc, 'cbc:SourceCurrencyCode').txt('USD');
  exchange.ele(NS.cbc, 'cbc:TargetCurrencyCode').txt('KHR');
  exchange.ele(NS.cbc, 'cbc:CalculationRate').txt(String(rate));
  exchange.ele(NS.cbc, 'cbc:MathematicOperatorCode').txt('Multiply');
  exchange.ele(NS.cbc, 'cbc:Date').txt(doc.exchange_rate.date);

  const taxTotal = root.ele(NS.cac, 'cac:TaxTotal');
  amount(taxTotal, 'TaxAmount', figures.tax);
  for (const c of figures.categories) {
    const sub = taxTotal.ele(NS.cac, 'cac:TaxSubtotal');
    amount(sub, 'TaxableAmount', c.taxable);
    amount(sub, 'TaxAmount', c.tax);
    taxCategory(sub, c.category, c.percent);
  }
  const total = root.ele(NS.cac, kind === 'debit_note' ? 'cac:RequestedMonetaryTotal' : 'cac:LegalMonetaryTotal');
  amount(total, 'LineExtensionAmount', figures.net);
  amount(total, 'TaxExclusiveAmount', figures.net);
  amount(total, 'TaxInclusiveAmount', figures.inclusive);
  if (figures.rounding !== 0) amount(total, 'PayableRoundingAmount', figures.rounding);
  amount(total, 'PayableAmount', figures.payable);

  doc.lines.forEach((line, i) => {
    const node = root.ele(NS.cac, `cac:${LINE[kind]}`);
    node.ele(NS.cbc, 'cbc:ID').txt(String(i + 1));
    node
      .ele(NS.cbc, `cbc:${QUANTITY[kind]}`, { unitCode: line.unit_code })
      .txt(quantityDecimal(line.quantity, line.decimals ?? 0));
    amount(node, 'LineExtensionAmount', figures.lines[i].net);
    const lineTax = node.ele(NS.cac, 'cac:TaxTotal');
    amount(lineTax, 'TaxAmount', figures.lines[i].tax);
    const item = node.ele(NS.cac, 'cac:Item');
    item.ele(NS.cbc, 'cbc:Description').txt(line.description);
    item.ele(NS.cbc, 'cbc:Name').txt(line.description);
    if (line.sku) item.ele(NS.cac, 'cac:SellersItemIdentification').ele(NS.cbc, 'cbc:ID').txt(line.sku);
    if (line.barcode) {
      item.ele(NS.cac, 'cac:StandardItemIdentification').ele(NS.cbc, 'cbc:ID', { schemeID: 'GTIN' }).txt(line.barcode);
    }
    const classified = item.ele(NS.cac, 'cac:ClassifiedTaxCategory');
    classified.ele(NS.cbc, 'cbc:ID').txt(line.tax_category);
    classified.ele(NS.cbc, 'cbc:Percent').txt(String(line.tax_percent));
    if (line.tax_category === 'E') classified.ele(NS.cbc, 'cbc:TaxExemptionReason').txt(EXEMPTION);
    classified.ele(NS.cac, 'cac:TaxScheme').ele(NS.cbc, 'cbc:ID').txt('VAT');
    node.ele(NS.cac, 'cac:Price').ele(NS.cbc, 'cbc:PriceAmount', { currencyID: 'KHR' }).txt(unitPriceText(line, rate));
  });
  return root.end({ prettyPrint: true });
}
