import type { Kysely } from 'kysely';
import { columnTypes } from './helpers.ts';

/**
 * CamInvoice (issue 27, e-invoicing): the business's connection (tokens sealed with AES-256-GCM,
 * never in the clear), the connect flow's one-time states, the outbox of tax documents to clear
 * (one row per document kind and id, no foreign key: the tax documents' tables are another
 * module's), and the suppliers' e-invoices received, each of which may become a draft purchase.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp, id } = columnTypes(db);

  await db.schema
    .createTable('einvoice_connections')
    .addColumn('id', 'integer', id)
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .addColumn('endpoint_id', 'varchar(100)', (c) => c.notNull())
    .addColumn('tin', 'varchar(50)')
    .addColumn('company_name_en', 'varchar(255)')
    .addColumn('company_name_kh', 'varchar(255)')
    .addColumn('refresh_token', 'text', (c) => c.notNull())
    .addColumn('access_token', 'text')
    .addColumn('access_expires_at', timestamp)
    .addColumn('last_polled_at', timestamp)
    .addColumn('problem', 'varchar(255)')
    .addColumn('connected_by', 'integer', (c) => c.references('users.id'))
    .addColumn('connected_at', timestamp, (c) => c.notNull())
    .addColumn('revoked_at', timestamp)
    .addColumn('updated_at', timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('einvoice_connect_states')
    .addColumn('state', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('expires_at', timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('einvoice_outbox')
    .addColumn('id', 'integer', id)
    .addColumn('document_kind', 'varchar(20)', (c) => c.notNull())
    .addColumn('document_id', 'integer', (c) => c.notNull())
    .addColumn('store_id', 'integer', (c) => c.notNull().references('stores.id'))
    .addColumn('number', 'varchar(100)', (c) => c.notNull())
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .addColumn('platform_document_id', 'varchar(100)')
    .addColumn('verification_link', 'varchar(1000)')
    .addColumn('reason', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', timestamp, (c) => c.notNull())
    .addColumn('lease_until', timestamp)
    .addColumn('submitted_at', timestamp)
    .addColumn('xml', 'text')
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addColumn('updated_at', timestamp, (c) => c.notNull())
    .addUniqueConstraint('einvoice_outbox_document', ['document_kind', 'document_id'])
    .execute();
  await db.schema
    .createIndex('einvoice_outbox_due')
    .on('einvoice_outbox')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('einvoice_outbox_platform')
    .on('einvoice_outbox')
    .column('platform_document_id')
    .execute();

  await db.schema
    .createTable('einvoice_received')
    .addColumn('id', 'integer', id)
    .addColumn('platform_document_id', 'varchar(100)', (c) => c.notNull().unique())
    .addColumn('document_type', 'varchar(20)', (c) => c.notNull())
    .addColumn('number', 'varchar(100)', (c) => c.notNull())
    .addColumn('issue_date', 'varchar(10)', (c) => c.notNull())
    .addColumn('supplier_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('supplier_tin', 'varchar(50)')
    .addColumn('supplier_endpoint_id', 'varchar(100)')
    .addColumn('total_khr', 'bigint', (c) => c.notNull())
    .addColumn('rate_khr', 'integer')
    .addColumn('lines', 'text', (c) => c.notNull())
    .addColumn('xml', 'text', (c) => c.notNull())
    .addColumn('purchase_id', 'integer', (c) => c.references('purchases.id'))
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addColumn('updated_at', timestamp, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('einvoice_received').execute();
  await db.schema.dropTable('einvoice_outbox').execute();
  await db.schema.dropTable('einvoice_connect_states').execute();
  await db.schema.dropTable('einvoice_connections').execute();
}
