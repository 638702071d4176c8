import {
  type ChosenRate,
  categoryOf,
  type DebitNoteInput,
  type debitNoteInput,
  type InvoiceKind,
  lineGross,
  previousMonth,
  publicSettings,
  rielTotals,
  TAX_SERIES,
  type TaxCategory,
  type TaxDocumentKind,
  type TaxParty,
  taxDocumentNumber,
  taxRate,
  todayInCambodia,
  vatOf,
} from '@depot/contracts';
import type { z } from 'zod';
import { type Db, now } from '../../db/database.ts';
import { nextValue } from '../../db/sequences.ts';
import { AppError, FieldError, notFound } from '../../http/errors.ts';
import { readSettings } from '../rates/rates.repository.ts';
import { readSaleSettings } from '../rates/rates.service.ts';
import { share } from '../stock/ledger.ts';
import { queueTaxEInvoice } from './tax.einvoice.ts';
import {
  type InvoiceSource,
  type InvoiceSourceLine,
  insertDocument,
  invoiceOfOrder,
  officialOnOrBefore,
  orderForInvoice,
  orderLinesForInvoice,
  type TaxDocumentRow,
} from './tax.repository.ts';

/*
 * Issuing tax documents, each in its caller's transaction: a sale's invoice (tax or commercial), a
 * return's or a void's credit note, a price correction's debit note. A document's number is taken
 * from its series' counter (db/sequences.ts) in the same transaction: the counter's row is locked
 * until the commit, so two issues at once take the next two numbers, and a refusal or a rollback
 * after the number was taken undoes the count too. No gap, no repeat.
 */

/** A line as it is written. */
interface Line {
  order_item_id: number | null;
  description_kh: string;
  description_en: string;
  sku: string | null;
  unit_kh: string | null;
  unit_en: string | null;
  /** Whole steps of the unit (grams of a kg), read with `decimals`. */
  quantity: number;
  decimals: number;
  unit_price_cents: number;
  discount_cents: number;
  tax_category: TaxCategory;
  tax_rate_bp: number;
  net_cents: number;
  tax_cents: number;
  total_cents: number;
}

interface Head {
  kind: TaxDocumentKind;
  store_id: number;
  store_code: string;
  order_id: number;
  return_id?: number | null;
  original_id?: number | null;
  /** A note's invoice's kind: a tax invoice's notes are cleared with CamInvoice too. */
  original_kind?: TaxDocumentKind | null;
  reason?: string | null;
  seller: TaxParty;
  buyer: TaxParty;
  customer_id: number;
  vat_rate_bp: number;
  rate: ChosenRate;
}

const DELIVERY = { kh: 'ថ្លៃដឹកជញ្ជូន', en: 'Delivery' };

/** Numbers and writes a document: its series' next number, its totals in dollars and riel. */
async function writeDocument(trx: Db, head: Head, lines: Line[], userId: number | null): Promise<number> {
  const issuedAt = now();
  const issueDate = todayInCambodia();
  const prefix = `${TAX_SERIES[head.kind]}-${head.store_code}`;
  const year = issueDate.slice(0, 4);
  const series = `${prefix}-${year}`;
  // the counter's key is the one db/sequences.ts nextDocumentNumber would use for this prefix and year
  const sequence = await nextValue(trx, `${prefix}:${year}`);
  const totals = rielTotals(lines, head.rate.rate_khr);
  const number = taxDocumentNumber(series, sequence);
  const id = await insertDocument(
    trx,
    {
      kind: head.kind,
      series,
      sequence,
      number,
      issued_at: issuedAt,
      issue_date: issueDate,
      store_id: head.store_id,
      order_id: head.order_id,
      invoiced_order_id: head.kind === 'tax_invoice' || head.kind === 'commercial_invoice' ? head.order_id : null,
      return_id: head.return_id ?? null,
      original_id: head.original_id ?? null,
      reason: head.reason ?? null,
      seller_name: head.seller.name,
      seller_address: head.seller.address,
      seller_tin: head.seller.tin,
      seller_phone: head.seller.phone,
      customer_id: head.customer_id,
      buyer_name: head.buyer.name,
      buyer_address: head.buyer.address,
      buyer_tin: head.buyer.tin,
      buyer_phone: head.buyer.phone,
      vat_rate_bp: head.vat_rate_bp,
      net_cents: totals.net_cents,
      tax_cents: totals.tax_cents,
      total_cents: totals.total_cents,
      net_khr: totals.net_khr,
      tax_khr: totals.tax_khr,
      total_khr: totals.total_khr,
      rate_khr: head.rate.rate_khr,
      rate_source: head.rate.source,
      rate_date: head.rate.date,
      created_by: userId,
      created_at: issuedAt,
    },
    lines.map((line, index) => ({ ...line, line_no: index + 1 })),
  );
  // issued and queued for CamInvoice together (when the business is connected)
  await queueTaxEInvoice(trx, {
    id,
    kind: head.kind,
    store_id: head.store_id,
    number,
    original_kind: head.original_kind ?? null,
  });
  return id;
}

const blank = (text: string | null | undefined) => (text?.trim() ? text.trim() : null);

/** The seller: the business's details of the settings, else the store's. */
async function sellerOf(trx: Db, source: InvoiceSource): Promise<TaxParty> {
  const stored = await readSettings(trx, ['store_name', 'store_address', 'store_phone', 'vat_number']);
  const setting = (key: 'store_name' | 'store_address' | 'store_phone' | 'vat_number') => {
    const field = publicSettings.shape[key].safeParse(stored[key]);
    return field.success ? blank(field.data) : null;
  };
  return {
    name: setting('store_name') ?? source.store_name,
    address: setting('store_address') ?? blank(source.store_address),
    tin: setting('vat_number'),
    phone: setting('store_phone') ?? blank(source.store_phone),
  };
}

function buyerOf(source: InvoiceSource): TaxParty {
  return {
    name: source.customer_name,
    address: blank(source.customer_address) ?? blank(source.shipping_address),
    tin: blank(source.customer_vat_number),
    phone: blank(source.customer_phone),
  };
}

/** The rate of an invoice issued today, by the business's rule; refused when a published rate is missing. */
async function chooseRate(trx: Db, source: InvoiceSource, issueDate: string): Promise<ChosenRate> {
  const { tax_rate_policy: policy } = await readSaleSettings(trx);
  const nbc = policy === 'market' ? await officialOnOrBefore(trx, 'nbc_daily', issueDate) : undefined;
  const gdt =
    policy === 'gdt_monthly' ? await officialOnOrBefore(trx, 'gdt_monthly', previousMonth(issueDate)) : undefined;
  const chosen = taxRate({
    policy,
    issueDate,
    market: { rate_khr: Number(source.exchange_rate_khr), date: source.order_date.slice(0, 10) },
    nbc: nbc ? { rate_khr: nbc.rate_khr, date: nbc.date } : null,
    gdt: gdt ? { rate_khr: gdt.rate_khr, date: gdt.date } : null,
  });
  if ('missing' in chosen) {
    if (chosen.missing === 'gdt_rate')
      throw new AppError(422, 'tax.missing.gdt_rate', { month: chosen.month.slice(0, 7) });
    throw new AppError(422, 'tax.missing.nbc_rate', { date: chosen.date });
  }
  return chosen;
}

/** What a tax invoice must name, each missing one on its field (every one at once). */
function taxInvoiceProblems(seller: TaxParty, buyer: TaxParty, walkIn: boolean) {
  const problems: ConstructorParameters<typeof FieldError>[0] = {};
  if (!seller.tin) problems['seller.tin'] = [{ key: 'tax.missing.seller_tin' }];
  if (!seller.address) problems['seller.address'] = [{ key: 'tax.missing.seller_address' }];
  if (walkIn || !blank(buyer.name)) problems['buyer.name'] = [{ key: 'tax.missing.buyer_name' }];
  if (!buyer.tin) problems['buyer.tin'] = [{ key: 'tax.missing.buyer_tin' }];
  if (!buyer.address) problems['buyer.address'] = [{ key: 'tax.missing.buyer_address' }];
  return problems;
}

/**
 * The part of a sold line from `from` to `to` units (steps: grams of a kg): its quantity and money,
 * each share rounded as refunds are; its discount what the part's gross at the list price
 * (contracts `lineGross`, as the till priced it) is over its net.
 */
function linePart(item: InvoiceSourceLine, from: number, to: number, vatRateBp: number): Line {
  const quantity = Number(item.quantity);
  const piece = (value: number) => share(Number(value), to, quantity) - share(Number(value), from, quantity);
  const net = piece(item.net_cents);
  const total = piece(item.total_cents);
  const units = to - from;
  const decimals = Number(item.decimals);
  return {
    order_item_id: item.id,
    description_kh: item.name_kh,
    description_en: item.name_en,
    sku: item.sku,
    unit_kh: item.unit_kh,
    unit_en: item.unit_en,
    quantity: units,
    decimals,
    unit_price_cents: Number(item.unit_price_cents),
    discount_cents: lineGross(Number(item.unit_price_cents), units, decimals) - net,
    ...categoryOf(Number(item.taxable) === 1, vatRateBp),
    net_cents: net,
    tax_cents: total - net,
    total_cents: total,
  };
}

function deliveryLine(fee: number): Line {
  return {
    order_item_id: null,
    description_kh: DELIVERY.kh,
    description_en: DELIVERY.en,
    sku: null,
    unit_kh: null,
    unit_en: null,
    quantity: 1,
    decimals: 0,
    unit_price_cents: fee,
    discount_cents: 0,
    ...categoryOf(false, 0),
    net_cents: fee,
    tax_cents: 0,
    total_cents: fee,
  };
}

/**
 * A sale's invoice: a tax invoice for a VAT-registered buyer, else a commercial invoice (`kind`
 * chooses). A tax invoice naming nobody or missing a TIN or an address is refused (422, on each
 * field). The lines are what is left of the sale (a return before the invoice is not invoiced).
 */
export async function issueSaleInvoice(
  trx: Db,
  orderId: number,
  wanted: InvoiceKind | undefined,
  userId: number,
): Promise<number> {
  const source = await orderForInvoice(trx, orderId);
  if (!source) throw notFound();
  if (source.status !== 'confirmed') throw new AppError(409, 'tax.not_sold', { number: source.number });
  const existing = await invoiceOfOrder(trx, orderId);
  if (existing) throw new AppError(409, 'tax.already_issued', { number: existing.number });
  const seller = await sellerOf(trx, source);
  const buyer = buyerOf(source);
  const kind = wanted ?? (buyer.tin ? 'tax_invoice' : 'commercial_invoice');
  if (kind === 'tax_invoice') {
    const problems = taxInvoiceProblems(seller, buyer, Number(source.is_walk_in) === 1);
    if (Object.keys(problems).length) throw new FieldError(problems);
  }
  const vat = Number(source.vat_rate_bp);
  const lines = (await orderLinesForInvoice(trx, orderId))
    .filter((item) => item.quantity > item.returned_quantity)
    .map((item) => linePart(item, Number(item.returned_quantity), Number(item.quantity), vat));
  const fee = Number(source.delivery_fee_cents);
  if (fee > 0) lines.push(deliveryLine(fee));
  if (!lines.length) throw new AppError(409, 'tax.not_sold', { number: source.number });
  const rate = await chooseRate(trx, source, todayInCambodia());
  return writeDocument(
    trx,
    {
      kind,
      store_id: source.store_id,
      store_code: source.store_code,
      order_id: orderId,
      seller,
      buyer,
      customer_id: source.customer_id,
      vat_rate_bp: vat,
      rate,
    },
    lines,
    userId,
  );
}

const partyOf = (row: TaxDocumentRow, who: 'seller' | 'buyer'): TaxParty => ({
  name: row[`${who}_name`],
  address: row[`${who}_address`],
  tin: row[`${who}_tin`],
  phone: row[`${who}_phone`],
});

/** What a note copies of its invoice: the parties, the store, the VAT and the rate (an invoice's rate is kept forever). */
async function noteHead(trx: Db, invoice: TaxDocumentRow, kind: TaxDocumentKind): Promise<Head> {
  const store = await trx
    .selectFrom('stores')
    .select('code')
    .where('id', '=', invoice.store_id)
    .executeTakeFirstOrThrow();
  return {
    kind,
    store_id: invoice.store_id,
    store_code: store.code,
    order_id: invoice.order_id,
    original_id: invoice.id,
    original_kind: invoice.kind as TaxDocumentKind,
    seller: partyOf(invoice, 'seller'),
    buyer: partyOf(invoice, 'buyer'),
    customer_id: invoice.customer_id,
    vat_rate_bp: invoice.vat_rate_bp,
    rate: {
      rate_khr: invoice.rate_khr,
      source: invoice.rate_source as ChosenRate['source'],
      date: invoice.rate_date,
    },
  };
}

/**
 * The credit note of a return, or of a void, of an invoiced sale (nothing when the sale has no
 * invoice): the units given back (each line from `from` to `to` returned units, the money its
 * refund's share), and on a void the delivery fee; at the invoice's rate, referencing it.
 */
export async function creditNoteFor(
  trx: Db,
  orderId: number,
  parts: { itemId: number; from: number; to: number }[],
  note: { returnId: number | null; reason: string | null; delivery: boolean; userId: number },
): Promise<number | null> {
  const invoice = await invoiceOfOrder(trx, orderId);
  if (!invoice) return null;
  const items = new Map((await orderLinesForInvoice(trx, orderId)).map((item) => [item.id, item]));
  const lines = parts
    .filter((part) => part.to > part.from && items.has(part.itemId))
    .map((part) => linePart(items.get(part.itemId)!, part.from, part.to, invoice.vat_rate_bp));
  if (note.delivery) {
    const order = await trx
      .selectFrom('orders')
      .select('delivery_fee_cents')
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow();
    if (Number(order.delivery_fee_cents) > 0) lines.push(deliveryLine(Number(order.delivery_fee_cents)));
  }
  if (!lines.length) return null;
  const head = await noteHead(trx, invoice, 'credit_note');
  return writeDocument(trx, { ...head, return_id: note.returnId, reason: note.reason }, lines, note.userId);
}

/** A debit note against an invoice: a price correction upward, its lines at the invoice's VAT and rate. */
export async function issueDebitNote(
  trx: Db,
  invoice: TaxDocumentRow,
  input: z.output<typeof debitNoteInput> | DebitNoteInput,
  userId: number,
): Promise<number> {
  if (invoice.kind !== 'tax_invoice' && invoice.kind !== 'commercial_invoice') {
    throw new AppError(409, 'tax.not_invoice');
  }
  const problems: ConstructorParameters<typeof FieldError>[0] = {};
  const lines = input.lines.map((line, index): Line => {
    const rateBp = line.tax_category === 'S' ? invoice.vat_rate_bp : 0;
    if (line.tax_category === 'S' && rateBp <= 0)
      problems[`lines.${index}.tax_category`] = [{ key: 'tax.category_rate' }];
    const net = line.quantity * line.unit_price_cents;
    const tax = vatOf(net, rateBp);
    return {
      order_item_id: null,
      description_kh: line.description,
      description_en: line.description,
      sku: null,
      unit_kh: null,
      unit_en: null,
      quantity: line.quantity,
      decimals: 0,
      unit_price_cents: line.unit_price_cents,
      discount_cents: 0,
      tax_category: line.tax_category,
      tax_rate_bp: rateBp,
      net_cents: net,
      tax_cents: tax,
      total_cents: net + tax,
    };
  });
  if (Object.keys(problems).length) throw new FieldError(problems);
  const head = await noteHead(trx, invoice, 'debit_note');
  return writeDocument(trx, { ...head, reason: input.reason.trim() }, lines, userId);
}

/** The credit note of a void of an invoiced sale: every unit not returned yet, and the delivery fee. */
export async function creditVoid(trx: Db, orderId: number, reason: string | null, userId: number) {
  if (!(await invoiceOfOrder(trx, orderId))) return null;
  const parts = (await orderLinesForInvoice(trx, orderId)).map((item) => ({
    itemId: item.id,
    from: Number(item.returned_quantity),
    to: Number(item.quantity),
  }));
  return creditNoteFor(trx, orderId, parts, { returnId: null, reason, delivery: true, userId });
}
