import type { Kysely } from 'kysely';
import { columnTypes, withId } from './helpers.ts';

/**
 * Administration: password resets, the areas a user covers, and the audit trail.
 * - users: `must_change_password` (set by an administrator's reset: the sign-in answers it and the
 *   web asks for a new password first), the last sign-in's time and address.
 * - `user_areas`: the operational districts and health facilities a user covers (coverage.ts).
 * - `audit_log`: who did what, when, from where, with the record before and after (JSON text).
 *   Written in the transaction of the action it records; the API has no route to change it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp } = columnTypes(db);
  await db.schema
    .alterTable('users')
    .addColumn('must_change_password', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('users').addColumn('last_login_at', timestamp).execute();
  await db.schema.alterTable('users').addColumn('last_login_ip', 'varchar(64)').execute();

  await db.schema
    .createTable('user_operational_districts')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('operational_district_id', 'integer', (c) =>
      c.notNull().references('operational_districts.id').onDelete('cascade'),
    )
    .addPrimaryKeyConstraint('user_operational_districts_pk', ['user_id', 'operational_district_id'])
    .execute();
  await db.schema
    .createTable('user_health_facilities')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('health_facility_id', 'integer', (c) =>
      c.notNull().references('health_facilities.id').onDelete('cascade'),
    )
    .addPrimaryKeyConstraint('user_health_facilities_pk', ['user_id', 'health_facility_id'])
    .execute();

  await withId(db, db.schema.createTable('audit_log'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    /** The name typed or held at the time: a failed sign-in has no user, a deleted user keeps it. */
    .addColumn('user_name', 'varchar(100)')
    .addColumn('ip', 'varchar(64)')
    .addColumn('action', 'varchar(50)', (c) => c.notNull())
    .addColumn('subject_type', 'varchar(50)')
    .addColumn('subject_id', 'integer')
    .addColumn('before', 'text')
    .addColumn('after', 'text')
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_created').on('audit_log').column('created_at').execute();
  await db.schema.createIndex('audit_log_user').on('audit_log').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('audit_log_subject').on('audit_log').columns(['subject_type', 'subject_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_log').execute();
  await db.schema.dropTable('user_health_facilities').execute();
  await db.schema.dropTable('user_operational_districts').execute();
  await db.schema.alterTable('users').dropColumn('last_login_ip').execute();
  await db.schema.alterTable('users').dropColumn('last_login_at').execute();
  await db.schema.alterTable('users').dropColumn('must_change_password').execute();
}
