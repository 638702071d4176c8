import type { OfficialRate, OfficialRateKind } from '@depot/contracts';
import { type Insertable, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { TaxDocumentLinesTable, TaxDocumentsTable } from '../../db/schema.ts';

/** The queries of tax documents and published rates: the rules are in tax.issue.ts and tax.rates.ts. */

/** What an invoice of an order copies: the order, its store and its buyer. */
export function orderForInvoice(db: Db, orderId: number) {
  return db
    .selectFrom('orders')
    .innerJoin('stores', 'stores.id', 'orders.store_id')
    .innerJoin('customers', 'customers.id', 'orders.customer_id')
    .select([
      'orders.id',
      'orders.number',
      'orders.status',
      'orders.store_id',
      'orders.order_date',
      'orders.exchange_rate_khr',
      'orders.vat_rate_bp',
      'orders.delivery_fee_cents',
      'orders.shipping_address',
      'orders.customer_id',
      'stores.code as store_code',
      'stores.name as store_name',
      'stores.address as store_address',
      'stores.phone as store_phone',
      'customers.name as customer_name',
      'customers.address as customer_address',
      'customers.phone as customer_phone',
      'customers.vat_number as customer_vat_number',
      'customers.is_walk_in',
    ])
    .where('orders.id', '=', orderId)
    .executeTakeFirst();
}
export type InvoiceSource = NonNullable<Awaited<ReturnType<typeof orderForInvoice>>>;

/** An order's lines, as an invoice and a note copy them (in the order they were sold). */
export function orderLinesForInvoice(db: Db, orderId: number) {
  return db
    .selectFrom('order_items')
    .leftJoin('units', 'units.id', 'order_items.unit_id')
    .select([
      'order_items.id',
      'order_items.name_kh',
      'order_items.name_en',
      'order_items.sku',
      'units.name_kh as unit_kh',
      'units.name_en as unit_en',
      // the decimals of the unit sold, as the order's lines read them (orders.repository itemsOf)
      sql<number>`coalesce(units.decimals, 0)`.as('decimals'),
      'order_items.quantity',
      'order_items.returned_quantity',
      'order_items.unit_price_cents',
      'order_items.line_discount_cents',
      'order_items.order_discount_cents',
      'order_items.net_cents',
      'order_items.tax_cents',
      'order_items.total_cents',
      'order_items.taxable',
    ])
    .where('order_items.order_id', '=', orderId)
    .orderBy('order_items.id')
    .execute();
}
export type InvoiceSourceLine = Awaited<ReturnType<typeof orderLinesForInvoice>>[number];

/** The invoice (tax or commercial) of an order, if it has one. */
export function invoiceOfOrder(db: Db, orderId: number) {
  return db.selectFrom('tax_documents').selectAll().where('invoiced_order_id', '=', orderId).executeTakeFirst();
}

/** A document's row. */
export function documentRow(db: Db, id: number) {
  return db.selectFrom('tax_documents').selectAll().where('id', '=', id).executeTakeFirst();
}
export type TaxDocumentRow = NonNullable<Awaited<ReturnType<typeof documentRow>>>;

/** A document with what its snapshot names beside it: the store's code, the order's number, the original's. */
export function documentHead(db: Db, id: number) {
  return db
    .selectFrom('tax_documents as d')
    .innerJoin('stores', 'stores.id', 'd.store_id')
    .innerJoin('orders', 'orders.id', 'd.order_id')
    .leftJoin('tax_documents as o', 'o.id', 'd.original_id')
    .leftJoin('users', 'users.id', 'd.created_by')
    .selectAll('d')
    .select([
      'stores.code as store_code',
      'orders.number as order_number',
      'o.number as original_number',
      'o.issue_date as original_issue_date',
      sql<string | null>`coalesce(users.full_name, users.name)`.as('created_by_name'),
    ])
    .where('d.id', '=', id)
    .executeTakeFirst();
}

export function documentLines(db: Db, id: number) {
  return db.selectFrom('tax_document_lines').selectAll().where('document_id', '=', id).orderBy('line_no').execute();
}

/** The credit and debit notes of an invoice, oldest first. */
export function notesOf(db: Db, id: number) {
  return db
    .selectFrom('tax_documents')
    .select(['id', 'kind', 'number', 'issued_at', 'total_cents', 'total_khr'])
    .where('original_id', '=', id)
    .orderBy('id')
    .execute();
}

/** A document and its lines, written once; answers its id. */
export async function insertDocument(
  trx: Db,
  values: Insertable<TaxDocumentsTable>,
  lines: Omit<Insertable<TaxDocumentLinesTable>, 'document_id'>[],
): Promise<number> {
  const { id } = await trx.insertInto('tax_documents').values(values).returning('id').executeTakeFirstOrThrow();
  if (lines.length) {
    await trx
      .insertInto('tax_document_lines')
      .values(lines.map((line) => ({ ...line, document_id: id })))
      .execute();
  }
  return id;
}

// ---- published rates ----

function officialRows(db: Db) {
  return db
    .selectFrom('official_rates')
    .leftJoin('users', 'users.id', 'official_rates.created_by')
    .select([
      'official_rates.id',
      'official_rates.kind',
      'official_rates.date',
      'official_rates.rate_khr',
      'official_rates.source',
      sql<string | null>`coalesce(users.full_name, users.name)`.as('created_by_name'),
      'official_rates.created_at',
    ]);
}

const asRate = (row: Awaited<ReturnType<ReturnType<typeof officialRows>['executeTakeFirstOrThrow']>>) =>
  ({ ...row, kind: row.kind as OfficialRateKind, source: row.source as 'manual' | 'feed' }) as OfficialRate;

/** The newest rate of a kind dated on or before a day (the last entered for that date wins). */
export async function officialOnOrBefore(db: Db, kind: OfficialRateKind, date: string) {
  const row = await officialRows(db)
    .where('official_rates.kind', '=', kind)
    .where('official_rates.date', '<=', date)
    .orderBy('official_rates.date', 'desc')
    .orderBy('official_rates.id', 'desc')
    .executeTakeFirst();
  return row ? asRate(row) : undefined;
}

/** One page of the published rates, newest date first, and how many there are. */
export async function officialHistory(db: Db, page: { page: number; per_page: number }, kind?: OfficialRateKind) {
  let query = officialRows(db);
  let count = db.selectFrom('official_rates').select(sql<number>`count(*)`.as('n'));
  if (kind) {
    query = query.where('official_rates.kind', '=', kind);
    count = count.where('official_rates.kind', '=', kind);
  }
  const rows = await query
    .orderBy('official_rates.date', 'desc')
    .orderBy('official_rates.id', 'desc')
    .limit(page.per_page)
    .offset((page.page - 1) * page.per_page)
    .execute();
  return { rows: rows.map(asRate), total: Number((await count.executeTakeFirstOrThrow()).n) };
}

export async function insertOfficial(
  trx: Db,
  values: {
    kind: OfficialRateKind;
    date: string;
    rate_khr: number;
    source: 'manual' | 'feed';
    created_by: number | null;
    created_at: string;
  },
): Promise<OfficialRate> {
  const { id } = await trx.insertInto('official_rates').values(values).returning('id').executeTakeFirstOrThrow();
  return asRate(await officialRows(trx).where('official_rates.id', '=', id).executeTakeFirstOrThrow());
}
