import type { Kysely } from 'kysely';
import { columnTypes } from './helpers.ts';

/**
 * What has been notified already, so a condition that lasts is told once: a product low in a
 * store (`low_stock`, `store:product`; the mark goes when the level is above its reorder level
 * again), a batch near its expiry in a store (`batch_expiring`, `batch:store`), an order's
 * parcel to prepare (`delivery_to_prepare`, the order). The key is the claim: whichever process
 * inserts the row raises the notification.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp } = columnTypes(db);
  await db.schema
    .createTable('notification_marks')
    .addColumn('kind', 'varchar(50)', (c) => c.notNull())
    .addColumn('subject', 'varchar(100)', (c) => c.notNull())
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('notification_marks_pkey', ['kind', 'subject'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('notification_marks').execute();
}
