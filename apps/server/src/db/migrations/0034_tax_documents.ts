import type { Kysely } from 'kysely';
import { columnTypes, withId } from './helpers.ts';

/**
 * Tax documents (issue 27): tax and commercial invoices, credit and debit notes, each a snapshot
 * written once and never edited (no updated_at, no deleted_at), with its lines; and the published
 * rates they are issued at (the NBC's daily rate, the GDT's monthly rate), kept with their history.
 * `invoiced_order_id` is set on an invoice only: unique, one invoice a sale (notes leave it null,
 * and nulls are distinct on both databases). `series` + `sequence` is unique: the numbers of a
 * series (kind, store, year) are counted by db/sequences.ts in the issuing transaction.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp, date } = columnTypes(db);
  await withId(db, db.schema.createTable('tax_documents'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('series', 'text', (c) => c.notNull())
    .addColumn('sequence', 'integer', (c) => c.notNull())
    .addColumn('number', 'text', (c) => c.notNull().unique())
    .addColumn('issued_at', timestamp, (c) => c.notNull())
    .addColumn('issue_date', date, (c) => c.notNull())
    .addColumn('store_id', 'integer', (c) => c.notNull().references('stores.id'))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id'))
    .addColumn('invoiced_order_id', 'integer', (c) => c.references('orders.id').unique())
    .addColumn('return_id', 'integer', (c) => c.references('order_returns.id'))
    .addColumn('original_id', 'integer', (c) => c.references('tax_documents.id'))
    .addColumn('reason', 'text')
    .addColumn('seller_name', 'text', (c) => c.notNull())
    .addColumn('seller_address', 'text')
    .addColumn('seller_tin', 'text')
    .addColumn('seller_phone', 'text')
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id'))
    .addColumn('buyer_name', 'text', (c) => c.notNull())
    .addColumn('buyer_address', 'text')
    .addColumn('buyer_tin', 'text')
    .addColumn('buyer_phone', 'text')
    .addColumn('vat_rate_bp', 'integer', (c) => c.notNull())
    .addColumn('net_cents', 'bigint', (c) => c.notNull())
    .addColumn('tax_cents', 'bigint', (c) => c.notNull())
    .addColumn('total_cents', 'bigint', (c) => c.notNull())
    .addColumn('net_khr', 'bigint', (c) => c.notNull())
    .addColumn('tax_khr', 'bigint', (c) => c.notNull())
    .addColumn('total_khr', 'bigint', (c) => c.notNull())
    .addColumn('rate_khr', 'integer', (c) => c.notNull())
    .addColumn('rate_source', 'text', (c) => c.notNull())
    .addColumn('rate_date', date, (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('users.id'))
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addUniqueConstraint('tax_documents_series_sequence', ['series', 'sequence'])
    .execute();
  await db.schema.createIndex('tax_documents_store').on('tax_documents').columns(['store_id', 'issued_at']).execute();
  await db.schema.createIndex('tax_documents_order').on('tax_documents').column('order_id').execute();
  await db.schema.createIndex('tax_documents_original').on('tax_documents').column('original_id').execute();

  await withId(db, db.schema.createTable('tax_document_lines'))
    .addColumn('document_id', 'integer', (c) => c.notNull().references('tax_documents.id'))
    .addColumn('line_no', 'integer', (c) => c.notNull())
    .addColumn('order_item_id', 'integer', (c) => c.references('order_items.id'))
    .addColumn('description_kh', 'text', (c) => c.notNull())
    .addColumn('description_en', 'text', (c) => c.notNull())
    .addColumn('sku', 'text')
    .addColumn('unit_kh', 'text')
    .addColumn('unit_en', 'text')
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('unit_price_cents', 'bigint', (c) => c.notNull())
    .addColumn('discount_cents', 'bigint', (c) => c.notNull())
    .addColumn('tax_category', 'text', (c) => c.notNull())
    .addColumn('tax_rate_bp', 'integer', (c) => c.notNull())
    .addColumn('net_cents', 'bigint', (c) => c.notNull())
    .addColumn('tax_cents', 'bigint', (c) => c.notNull())
    .addColumn('total_cents', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('tax_document_lines_no', ['document_id', 'line_no'])
    .execute();

  await withId(db, db.schema.createTable('official_rates'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('date', date, (c) => c.notNull())
    .addColumn('rate_khr', 'integer', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('users.id'))
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('official_rates_kind_date')
    .on('official_rates')
    .columns(['kind', 'date', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('official_rates').execute();
  await db.schema.dropTable('tax_document_lines').execute();
  await db.schema.dropTable('tax_documents').execute();
}
