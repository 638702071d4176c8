import type { Kysely } from 'kysely';
import { columnTypes } from './helpers.ts';

/**
 * Notifications in Laravel's shape (a uuid key, `type`, `notifiable_id`, `data` as JSON text,
 * `read_at`) plus `archived_at`; and the secrets the server generates once and every process on
 * the database shares (the real-time app key and secret), apart from the settings a screen shows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp } = columnTypes(db);

  await db.schema
    .createTable('notifications')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('type', 'varchar(100)', (c) => c.notNull())
    .addColumn('notifiable_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('read_at', timestamp)
    .addColumn('archived_at', timestamp)
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addColumn('updated_at', timestamp, (c) => c.notNull())
    .execute();
  // a user's inbox, newest first; and their unread count
  await db.schema
    .createIndex('notifications_user_created')
    .on('notifications')
    .columns(['notifiable_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('notifications_user_unread')
    .on('notifications')
    .columns(['notifiable_id', 'read_at', 'archived_at'])
    .execute();

  await db.schema
    .createTable('app_secrets')
    .addColumn('name', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('app_secrets').execute();
  await db.schema.dropTable('notifications').execute();
}
