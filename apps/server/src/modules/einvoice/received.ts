import type { ReceivedEInvoice, ReceivedEInvoiceLine } from '@depot/contracts';
import { create } from 'xmlbuilder2';
import type { Db } from '../../db/database.ts';
import { now } from '../../db/database.ts';
import { AppError, FieldError } from '../../http/errors.ts';
import type { Actor } from '../../policies/policy.ts';
import { auditWho, recordAudit } from '../audit/audit.ts';
import { purchaseService } from '../purchases/purchases.service.ts';
import type { ConnectionService } from './connection.ts';

/**
 * Suppliers' e-invoices received through CamInvoice (a `RECEIVE` in the poll, or the webhook's
 * DOCUMENT.RECEIVED): the document and its UBL are read from CamInvoice's API, the lines matched to
 * products by barcode (StandardItemIdentification), else by SKU (SellersItemIdentification).
 * A person turns one into a draft purchase, choosing products for the lines left unmatched; the
 * purchase then follows the purchases flow (order, receive, pay) like any other.
 */

const CAC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2';
const CBC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';

type El = {
  getElementsByTagNameNS(ns: string, name: string): ArrayLike<El>;
  textContent: string | null;
  localName: string;
  parentNode: El | null;
  getAttribute(name: string): string | null;
};

const first = (el: El, ns: string, name: string): El | null => el.getElementsByTagNameNS(ns, name)[0] ?? null;
const textOf = (el: El | null) => el?.textContent?.trim() || null;
const numberOf = (el: El | null) => {
  const n = Number(textOf(el));
  return Number.isFinite(n) ? n : 0;
};

export interface ParsedUbl {
  number: string;
  issue_date: string;
  rate_khr: number | null;
  total_khr: number;
  supplier_name: string;
  supplier_tin: string | null;
  lines: Omit<ReceivedEInvoiceLine, 'product_id' | 'product_name'>[];
}

/** The parts of a received UBL invoice Depot uses (namespaces as UBL defines them, any prefixes). */
export function parseUbl(xml: string): ParsedUbl {
  let root: El;
  try {
    root = (create(xml).root().node as unknown as El) ?? null;
  } catch {
    throw new Error('not XML');
  }
  const lines: ParsedUbl['lines'] = [];
  for (const tag of ['InvoiceLine', 'CreditNoteLine', 'DebitNoteLine']) {
    const found = root.getElementsByTagNameNS(CAC, tag);
    for (let i = 0; i < found.length; i++) {
      const line = found[i];
      const quantity =
        first(line, CBC, 'InvoicedQuantity') ??
        first(line, CBC, 'CreditedQuantity') ??
        first(line, CBC, 'DebitedQuantity');
      const item = first(line, CAC, 'Item');
      const standard = item && first(item, CAC, 'StandardItemIdentification');
      const sellers = item && first(item, CAC, 'SellersItemIdentification');
      lines.push({
        description: (item && (textOf(first(item, CBC, 'Name')) ?? textOf(first(item, CBC, 'Description')))) || '—',
        quantity: numberOf(quantity),
        unit_code: quantity?.getAttribute('unitCode') ?? null,
        unit_price_khr: numberOf(first(first(line, CAC, 'Price') ?? line, CBC, 'PriceAmount')),
        net_khr: numberOf(first(line, CBC, 'LineExtensionAmount')),
        barcode: standard ? textOf(first(standard, CBC, 'ID')) : null,
        sku: sellers ? textOf(first(sellers, CBC, 'ID')) : null,
      });
    }
  }
  const children = (name: string) => {
    const all = root.getElementsByTagNameNS(CBC, name);
    for (let i = 0; i < all.length; i++) if (all[i].parentNode === root) return all[i];
    return null;
  };
  const supplier = first(root, CAC, 'AccountingSupplierParty');
  const total = first(root, CAC, 'LegalMonetaryTotal') ?? first(root, CAC, 'RequestedMonetaryTotal');
  const rate = first(root, CAC, 'TaxExchangeRate');
  return {
    number: textOf(children('ID')) ?? '',
    issue_date: textOf(children('IssueDate')) ?? '',
    rate_khr: rate ? Math.round(numberOf(first(rate, CBC, 'CalculationRate'))) || null : null,
    total_khr: Math.round(numberOf(total && first(total, CBC, 'PayableAmount'))),
    supplier_name: (supplier && textOf(first(supplier, CBC, 'Name'))) ?? '',
    supplier_tin: supplier ? textOf(first(first(supplier, CAC, 'PartyTaxScheme') ?? supplier, CBC, 'CompanyID')) : null,
    lines,
  };
}

async function matchLines(db: Db, lines: ParsedUbl['lines']): Promise<ReceivedEInvoiceLine[]> {
  const barcodes = lines.map((l) => l.barcode).filter((b): b is string => Boolean(b));
  const skus = lines.map((l) => l.sku).filter((s): s is string => Boolean(s));
  const products =
    barcodes.length || skus.length
      ? await db
          .selectFrom('products')
          .select(['id', 'barcode', 'sku', 'name_en', 'name_kh'])
          .where('deleted_at', 'is', null)
          .where((eb) =>
            eb.or([
              ...(barcodes.length ? [eb('barcode', 'in', barcodes)] : []),
              ...(skus.length ? [eb('sku', 'in', skus)] : []),
            ]),
          )
          .execute()
      : [];
  return lines.map((line) => {
    const product =
      (line.barcode && products.find((p) => p.barcode === line.barcode)) ||
      (line.sku && products.find((p) => p.sku === line.sku)) ||
      null;
    return { ...line, product_id: product?.id ?? null, product_name: product ? product.name_en : null };
  });
}

export function receivedService(db: Db, connection: ConnectionService) {
  async function present(row: {
    id: number;
    platform_document_id: string;
    document_type: string;
    number: string;
    issue_date: string;
    supplier_name: string;
    supplier_tin: string | null;
    total_khr: number;
    rate_khr: number | null;
    purchase_id: number | null;
    lines: string;
    created_at: string;
  }): Promise<ReceivedEInvoice> {
    // matched again on reading: a product added since the e-invoice came is found
    const lines = await matchLines(db, JSON.parse(row.lines) as ParsedUbl['lines']);
    const { lines: _raw, ...rest } = row;
    return { ...rest, total_khr: Number(row.total_khr), lines };
  }

  const columns = [
    'id',
    'platform_document_id',
    'document_type',
    'number',
    'issue_date',
    'supplier_name',
    'supplier_tin',
    'total_khr',
    'rate_khr',
    'purchase_id',
    'lines',
    'created_at',
  ] as const;

  return {
    /** Read a received document from CamInvoice and keep it (once: the platform's id is unique). */
    async import(platformId: string): Promise<void> {
      const known = await db
        .selectFrom('einvoice_received')
        .select('id')
        .where('platform_document_id', '=', platformId)
        .executeTakeFirst();
      if (known) return;
      const token = await connection.accessToken();
      const api = connection.client();
      const detail = await api.document(token, platformId);
      const xml = await api.xml(token, platformId);
      const parsed = parseUbl(xml);
      const at = now();
      await db
        .insertInto('einvoice_received')
        .values({
          platform_document_id: platformId,
          document_type: detail.document_type ?? 'INVOICE',
          number: (detail.document_number ?? parsed.number).slice(0, 100),
          issue_date: (detail.issue_date ?? parsed.issue_date).slice(0, 10),
          supplier_name: (detail.supplier_name ?? parsed.supplier_name).slice(0, 255),
          supplier_tin: detail.supplier_vattin ?? parsed.supplier_tin,
          supplier_endpoint_id: detail.supplier_id,
          total_khr: parsed.total_khr,
          rate_khr: parsed.rate_khr,
          lines: JSON.stringify(parsed.lines),
          xml,
          created_at: at,
          updated_at: at,
        })
        .onConflict((c) => c.column('platform_document_id').doNothing())
        .execute();
    },

    async list(): Promise<ReceivedEInvoice[]> {
      const rows = await db.selectFrom('einvoice_received').select(columns).orderBy('id', 'desc').limit(200).execute();
      return Promise.all(rows.map(present));
    },

    async show(id: number): Promise<ReceivedEInvoice> {
      const row = await db.selectFrom('einvoice_received').select(columns).where('id', '=', id).executeTakeFirst();
      if (!row) throw new AppError(404, 'error.not_found');
      return present(row);
    },

    /**
     * A draft purchase from the e-invoice: each line's product as the person chose (the matched
     * one offered), in its base unit, at the line's price in dollars at the e-invoice's rate (or
     * today's). Everything else (store, supplier, who may) is the purchases flow's own checks.
     */
    async toPurchase(
      actor: Actor,
      id: number,
      input: { store_id: number; supplier_id: number; products: (number | null)[] },
    ) {
      const received = await this.show(id);
      if (received.purchase_id) throw new AppError(409, 'einvoice.purchase_exists');
      if (input.products.length !== received.lines.length) {
        throw new FieldError({ products: [{ key: 'einvoice.lines_count', params: { count: received.lines.length } }] });
      }
      const chosen = input.products
        .map((productId, i) => ({ productId, line: received.lines[i] }))
        .filter((c) => c.productId);
      if (!chosen.length) throw new FieldError({ products: [{ key: 'einvoice.no_lines' }] });
      const units = await db
        .selectFrom('products')
        .select(['id', 'unit_id'])
        .where(
          'id',
          'in',
          chosen.map((c) => c.productId as number),
        )
        .where('deleted_at', 'is', null)
        .execute();
      const rate =
        received.rate_khr ??
        (await db.selectFrom('exchange_rates').select('rate_khr').orderBy('id', 'desc').executeTakeFirst())?.rate_khr ??
        4100;
      const items = chosen.map(({ productId, line }, i) => {
        const product = units.find((u) => u.id === productId);
        if (!product) throw new FieldError({ [`products.${i}`]: [{ key: 'validation.exists' }] });
        return {
          product_id: product.id,
          unit_id: product.unit_id,
          quantity: Math.max(1, Math.round(line.quantity)),
          unit_price_cents: Math.max(0, Math.round((line.unit_price_khr * 100) / rate)),
          lot: null,
          expiry_date: null,
        };
      });
      const purchase = await purchaseService(db).create(actor, {
        supplier_id: input.supplier_id,
        store_id: input.store_id,
        purchase_date: received.issue_date,
        notes: `CamInvoice ${received.number}`.slice(0, 500),
        ordered: false,
        shipping_cents: 0,
        // the supplier's VAT on the lines taken, at the same rate
        tax_cents: Math.max(
          0,
          Math.round(
            (chosen.reduce((sum, { line }) => sum + line.net_khr, 0) *
              (received.total_khr /
                Math.max(
                  1,
                  received.lines.reduce((sum, l) => sum + l.net_khr, 0),
                ) -
                1) *
              100) /
              rate,
          ),
        ),
        items,
      });
      const claimed = await db
        .updateTable('einvoice_received')
        .set({ purchase_id: purchase.id, updated_at: now() })
        .where('id', '=', id)
        .where('purchase_id', 'is', null)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) throw new AppError(409, 'einvoice.purchase_exists');
      await recordAudit(db, auditWho(actor), {
        action: 'einvoice.purchase_drafted',
        subject: { type: 'purchase', id: purchase.id },
        after: { einvoice: received.number, supplier: received.supplier_name },
      });
      return purchase;
    },
  };
}

export type ReceivedService = ReturnType<typeof receivedService>;
