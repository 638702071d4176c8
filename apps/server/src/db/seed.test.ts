import { DEFAULT_ROLES, PERMISSIONS } from '@depot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../modules/auth/passwords.ts';
import { emptyDatabase, freshDatabase } from '../test/harness.ts';
import { createDatabase, type Database, now } from './database.ts';
import { MIGRATION_NAMES, migrateOnly, migrateTo, migrateToLatest } from './migrate.ts';
import { seed } from './seed.ts';

let database: Database;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(() => database.close());

const rolePermissions = (role: string) =>
  database.db
    .selectFrom('role_permissions')
    .innerJoin('roles', 'roles.id', 'role_permissions.role_id')
    .innerJoin('permissions', 'permissions.id', 'role_permissions.permission_id')
    .select('permissions.name')
    .where('roles.name', '=', role)
    .execute()
    .then((rows) => rows.map((r) => r.name).sort());

describe('seed', () => {
  it('creates every permission, the default roles, the first store and one administrator', async () => {
    const { db } = database;
    expect((await db.selectFrom('permissions').select('name').execute()).length).toBe(PERMISSIONS.length);
    for (const role of DEFAULT_ROLES) {
      expect(await rolePermissions(role.name)).toEqual([...new Set(role.permissions)].sort());
    }
    const users = await db.selectFrom('users').selectAll().execute();
    expect(users.map((u) => u.name)).toEqual(['admin']);
    expect(users[0].store_id).not.toBeNull();
  });

  it('is idempotent: a second run adds nothing and leaves the administrator alone', async () => {
    const result = await seed(database.db, { adminPassword: 'another-password' });
    expect(result).toEqual({ createdAdmin: false });
    const { db } = database;
    expect((await db.selectFrom('permissions').select('id').execute()).length).toBe(PERMISSIONS.length);
    expect((await db.selectFrom('roles').select('id').execute()).length).toBe(DEFAULT_ROLES.length);
    expect((await db.selectFrom('stores').select('id').execute()).length).toBe(1);
    const admin = await db.selectFrom('users').selectAll().where('name', '=', 'admin').executeTakeFirstOrThrow();
    expect(await verifyPassword(admin.password_hash, 'another-password')).toBe(false);
  });

  it('grants a permission new to the database to the default roles that hold it, without undoing a customization', async () => {
    const { db } = database;
    // An older installation: it lacks orders.cancel, and its administrator took products.list away from cashiers.
    await db.deleteFrom('permissions').where('name', '=', 'orders.cancel').execute();
    const cashier = await db.selectFrom('roles').select('id').where('name', '=', 'cashier').executeTakeFirstOrThrow();
    const productsList = await db
      .selectFrom('permissions')
      .select('id')
      .where('name', '=', 'products.list')
      .executeTakeFirstOrThrow();
    await db
      .deleteFrom('role_permissions')
      .where('role_id', '=', cashier.id)
      .where('permission_id', '=', productsList.id)
      .execute();

    await seed(db);
    const cashierNow = await rolePermissions('cashier');
    expect(cashierNow).toContain('orders.cancel');
    expect(cashierNow).not.toContain('products.list');
    expect(await rolePermissions('administrator')).toEqual([...PERMISSIONS].sort());
    expect(await rolePermissions('stock_keeper')).not.toContain('orders.cancel');
  });
});

describe('upgrading a database from before stores were covered per user', () => {
  it('gives each user their home store to cover, and the new permissions to the roles that hold them by default', async () => {
    const target = await emptyDatabase();
    const database = createDatabase(target.url);
    try {
      const { db } = database;
      await migrateTo(db, '0009_orders');
      const at = now();
      const store = await db
        .insertInto('stores')
        .values({ name: 'Old store', code: 'OLD', status: 'active', created_at: at, updated_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      const user = await db
        .insertInto('users')
        .values({
          name: 'old-cashier',
          password_hash: 'x',
          status: 'active',
          store_id: store.id,
          created_at: at,
          updated_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await migrateToLatest(db);
      expect(await db.selectFrom('user_stores').selectAll().execute()).toEqual([
        { user_id: user.id, store_id: store.id },
      ]);

      // an installation seeded before the three permissions existed
      await seed(db);
      await db
        .deleteFrom('permissions')
        .where('name', 'in', ['all_stores.view', 'costs.view', 'prices.update'])
        .execute();
      await seed(db);
      const held = async (role: string) =>
        (
          await db
            .selectFrom('role_permissions')
            .innerJoin('roles', 'roles.id', 'role_permissions.role_id')
            .innerJoin('permissions', 'permissions.id', 'role_permissions.permission_id')
            .select('permissions.name')
            .where('roles.name', '=', role)
            .where('permissions.name', 'in', ['all_stores.view', 'costs.view', 'prices.update'])
            .execute()
        )
          .map((r) => r.name)
          .sort();
      expect(await held('administrator')).toEqual(['all_stores.view', 'costs.view', 'prices.update']);
      expect(await held('manager')).toEqual(['costs.view', 'prices.update']);
      expect(await held('stock_keeper')).toEqual(['costs.view']);
      expect(await held('cashier')).toEqual([]);
    } finally {
      await database.close();
      await target.drop();
    }
  });
});

describe('first start without DEPOT_ADMIN_PASSWORD', () => {
  it('generates a readable password, returns it once, and it signs in', async () => {
    const fresh = await freshDatabase();
    try {
      await fresh.db.deleteFrom('users').execute();
      const result = await seed(fresh.db);
      expect(result.createdAdmin).toBe(true);
      expect(result.generatedAdminPassword).toMatch(/^[a-zA-Z2-9]{16}$/);
      const admin = await fresh.db.selectFrom('users').selectAll().executeTakeFirstOrThrow();
      expect(await verifyPassword(admin.password_hash, result.generatedAdminPassword as string)).toBe(true);
      expect((await seed(fresh.db)).generatedAdminPassword).toBeUndefined();
    } finally {
      await fresh.close();
    }
  });
});

describe('migrations that land out of order', () => {
  it('a database that ran later numbers takes an earlier one when it arrives', async () => {
    const target = await emptyDatabase();
    const database = createDatabase(target.url);
    try {
      const { db } = database;
      // as the first-wave release with notifications and printing left a database
      const released = MIGRATION_NAMES.filter(
        (name) => name <= '0010_trust' || name === '0014_notifications' || name === '0016_payments_printing',
      );
      await migrateOnly(db, released);
      const added = await migrateToLatest(db);
      expect(added).toEqual(MIGRATION_NAMES.filter((name) => !released.includes(name)));
      expect(added).toContain('0012_reports');
    } finally {
      await database.close();
    }
  });
});
