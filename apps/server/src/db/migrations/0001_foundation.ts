import type { Kysely } from 'kysely';
import { columnTypes, lower, withId, withTimestamps } from './helpers.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp, date } = columnTypes(db);

  await withTimestamps(
    db,
    withId(db, db.schema.createTable('stores'))
      .addColumn('name', 'varchar(100)', (c) => c.notNull())
      .addColumn('code', 'varchar(30)', (c) => c.notNull().unique())
      .addColumn('phone', 'varchar(30)')
      .addColumn('address', 'varchar(255)')
      .addColumn('status', 'varchar(10)', (c) => c.notNull().defaultTo('active')),
    { softDelete: true },
  ).execute();

  await withTimestamps(
    db,
    withId(db, db.schema.createTable('users'))
      .addColumn('name', 'varchar(50)', (c) => c.notNull())
      .addColumn('full_name', 'varchar(100)')
      .addColumn('email', 'varchar(255)')
      .addColumn('phone', 'varchar(30)')
      .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
      .addColumn('status', 'varchar(10)', (c) => c.notNull().defaultTo('active'))
      .addColumn('date_of_birth', date)
      .addColumn('join_date', date)
      .addColumn('position', 'varchar(100)')
      .addColumn('profile_image', 'varchar(500)')
      .addColumn('store_id', 'integer', (c) => c.references('stores.id').onDelete('set null')),
    { softDelete: true },
  ).execute();
  await db.schema.createIndex('users_name_unique').on('users').expression(lower('name')).unique().execute();

  await withTimestamps(
    db,
    withId(db, db.schema.createTable('roles'))
      .addColumn('name', 'varchar(50)', (c) => c.notNull().unique())
      .addColumn('group_name', 'varchar(50)', (c) => c.notNull())
      .addColumn('label_en', 'varchar(100)', (c) => c.notNull())
      .addColumn('label_kh', 'varchar(100)', (c) => c.notNull())
      .addColumn('is_system', 'integer', (c) => c.notNull().defaultTo(0)),
    { softDelete: true },
  ).execute();

  await withId(db, db.schema.createTable('permissions'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull().unique())
    .addColumn('resource', 'varchar(50)', (c) => c.notNull())
    .addColumn('action', 'varchar(20)', (c) => c.notNull())
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('role_permissions')
    .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
    .addColumn('permission_id', 'integer', (c) => c.notNull().references('permissions.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('role_permissions_pk', ['role_id', 'permission_id'])
    .execute();

  await db.schema
    .createTable('user_roles')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('user_roles_pk', ['user_id', 'role_id'])
    .execute();
  await db.schema.createIndex('user_roles_role').on('user_roles').column('role_id').execute();

  await withId(db, db.schema.createTable('auth_sessions'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('ip', 'varchar(64)')
    .addColumn('user_agent', 'varchar(255)')
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addColumn('last_used_at', timestamp, (c) => c.notNull())
    .addColumn('revoked_at', timestamp)
    .execute();
  await db.schema.createIndex('auth_sessions_user').on('auth_sessions').column('user_id').execute();

  await withId(db, db.schema.createTable('auth_tokens'))
    .addColumn('session_id', 'integer', (c) => c.notNull().references('auth_sessions.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(10)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('expires_at', timestamp, (c) => c.notNull())
    .addColumn('used_at', timestamp)
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('auth_tokens_session').on('auth_tokens').column('session_id').execute();

  await db.schema
    .createTable('settings')
    .addColumn('key', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', timestamp, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'settings',
    'auth_tokens',
    'auth_sessions',
    'user_roles',
    'role_permissions',
    'permissions',
    'roles',
    'users',
    'stores',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
