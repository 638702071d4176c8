import type { Kysely } from 'kysely';
import { columnTypes } from './helpers.ts';

/**
 * Sample data (/samples): its one load (a row named `demo`, whose key keeps two loads from running
 * at once) and every record the load created, as (table, id), so that removal takes those and only
 * those.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp } = columnTypes(db);
  await db.schema
    .createTable('sample_loads')
    .addColumn('name', 'varchar(30)', (c) => c.primaryKey())
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('started_at', timestamp, (c) => c.notNull())
    .addColumn('finished_at', timestamp)
    .execute();
  await db.schema
    .createTable('sample_records')
    .addColumn('table_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('record_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('sample_records_pk', ['table_name', 'record_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sample_records').execute();
  await db.schema.dropTable('sample_loads').execute();
}
