import type { Kysely } from 'kysely';
import { withId, withTimestamps } from './helpers.ts';

/**
 * Credit: a customer's credit limit (US cents; null: not limited, as before; 0: nothing
 * may be left unpaid) and payment terms in days; a supplier's terms; the manager who let a sale go
 * over a customer's limit; customer payments against several orders at once (one tender, allocated
 * to orders: each share is an order payment carrying the customer payment's id).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('customers').addColumn('credit_limit_cents', 'bigint').execute();
  await db.schema
    .alterTable('customers')
    .addColumn('payment_terms_days', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('suppliers')
    .addColumn('payment_terms_days', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('orders')
    .addColumn('credit_approved_by', 'integer', (c) => c.references('users.id'))
    .execute();

  await withTimestamps(
    db,
    withId(db, db.schema.createTable('customer_payments'))
      .addColumn('number', 'varchar(30)', (c) => c.notNull().unique())
      .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id'))
      .addColumn('store_id', 'integer', (c) => c.notNull().references('stores.id'))
      .addColumn('method', 'varchar(20)', (c) => c.notNull())
      .addColumn('amount', 'bigint', (c) => c.notNull())
      .addColumn('amount_cents', 'bigint', (c) => c.notNull())
      .addColumn('exchange_rate_khr', 'integer', (c) => c.notNull())
      .addColumn('transaction_id', 'varchar(100)')
      .addColumn('note', 'varchar(255)')
      .addColumn('received_by', 'integer', (c) => c.references('users.id')),
    { softDelete: true },
  ).execute();
  await db.schema
    .createIndex('customer_payments_customer')
    .on('customer_payments')
    .columns(['customer_id', 'created_at'])
    .execute();

  await db.schema
    .alterTable('order_payments')
    .addColumn('customer_payment_id', 'integer', (c) => c.references('customer_payments.id'))
    .execute();
  await db.schema
    .createIndex('order_payments_customer_payment')
    .on('order_payments')
    .column('customer_payment_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('order_payments_customer_payment').execute();
  await db.schema.alterTable('order_payments').dropColumn('customer_payment_id').execute();
  await db.schema.dropTable('customer_payments').execute();
  await db.schema.alterTable('orders').dropColumn('credit_approved_by').execute();
  await db.schema.alterTable('suppliers').dropColumn('payment_terms_days').execute();
  await db.schema.alterTable('customers').dropColumn('payment_terms_days').execute();
  await db.schema.alterTable('customers').dropColumn('credit_limit_cents').execute();
}
