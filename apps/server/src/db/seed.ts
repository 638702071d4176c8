import {
  DEFAULT_BUSINESS_SETTINGS,
  DEFAULT_ROLES,
  DEFAULT_SALE_SETTINGS,
  DEFAULT_SETTINGS,
  PERMISSIONS,
  WALK_IN_CUSTOMER,
} from '@depot/contracts';
import { generatePassword, hashPassword } from '../modules/auth/passwords.ts';
import { type Db, now } from './database.ts';
import { transaction } from './transaction.ts';

export interface SeedResult {
  /** Set when the first administrator was created with a generated password: print it once. */
  generatedAdminPassword?: string;
  createdAdmin: boolean;
}

/**
 * Idempotent: runs at every start. Adds permissions the code defines and the database lacks,
 * grants each new permission to the default roles that hold it by default (so an upgrade reaches
 * existing installations without undoing an administrator's own changes to a role), keeps the
 * administrator role complete, fills in missing settings, keeps a walk-in customer, and creates
 * the first store and the first administrator when there is no user at all.
 *
 * It never takes a permission away from a role, default or not, even where the defaults changed:
 * an administrator may have granted it on purpose, and a seed cannot tell a deliberate grant from
 * an old default. The least-privilege limits therefore live in the policies, not in
 * the roles: a cashier keeps `orders.cancel`, and policies/orders.ts lets it void only held or
 * unpaid sales; a stock keeper keeps `products.update`, and policies/products.ts refuses a change of
 * selling prices without `prices.update`. Those hold on an upgraded database the moment it starts.
 * The new permissions (`all_stores.view`, `costs.view`, `prices.update`) reach the default roles
 * that hold them by default, like any permission new to the database.
 */
export async function seed(db: Db, options: { adminPassword?: string } = {}): Promise<SeedResult> {
  return transaction(db, async (trx) => {
    const stamp = now();
    const existing = new Set((await trx.selectFrom('permissions').select('name').execute()).map((p) => p.name));
    const added = PERMISSIONS.filter((p) => !existing.has(p));
    if (added.length) {
      await trx
        .insertInto('permissions')
        .values(
          added.map((name) => {
            const [resource, action] = name.split('.');
            return { name, resource, action, created_at: stamp };
          }),
        )
        .execute();
    }
    const permissionIds = new Map(
      (await trx.selectFrom('permissions').select(['id', 'name']).execute()).map((p) => [p.name, p.id]),
    );

    for (const def of DEFAULT_ROLES) {
      let role = await trx.selectFrom('roles').select(['id']).where('name', '=', def.name).executeTakeFirst();
      let grant: readonly string[];
      if (!role) {
        role = await trx
          .insertInto('roles')
          .values({
            name: def.name,
            group_name: def.group,
            label_en: def.label_en,
            label_kh: def.label_kh,
            is_system: def.name === 'administrator' ? 1 : 0,
            created_at: stamp,
            updated_at: stamp,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        grant = def.permissions;
      } else if (def.name === 'administrator') {
        const held = await trx
          .selectFrom('role_permissions')
          .innerJoin('permissions', 'permissions.id', 'role_permissions.permission_id')
          .select('permissions.name')
          .where('role_id', '=', role.id)
          .execute();
        const heldNames = new Set(held.map((h) => h.name));
        grant = def.permissions.filter((p) => !heldNames.has(p));
      } else {
        grant = def.permissions.filter((p) => added.includes(p));
      }
      const roleId = role.id;
      const rows = [...new Set(grant)].map((p) => ({ role_id: roleId, permission_id: permissionIds.get(p) as number }));
      if (rows.length) {
        await trx.insertInto('role_permissions').values(rows).execute();
        // a role's updated_at versions its permission set (cached by the auth service)
        await trx.updateTable('roles').set({ updated_at: stamp }).where('id', '=', roleId).execute();
      }
    }

    const settingKeys = new Set((await trx.selectFrom('settings').select('key').execute()).map((s) => s.key));
    const missingSettings = Object.entries({
      ...DEFAULT_SETTINGS,
      ...DEFAULT_BUSINESS_SETTINGS,
      ...DEFAULT_SALE_SETTINGS,
    }).filter(([key]) => !settingKeys.has(key));
    if (missingSettings.length) {
      await trx
        .insertInto('settings')
        .values(missingSettings.map(([key, value]) => ({ key, value: JSON.stringify(value), updated_at: stamp })))
        .execute();
    }

    let store = await trx.selectFrom('stores').select('id').orderBy('id').executeTakeFirst();
    if (!store) {
      store = await trx
        .insertInto('stores')
        .values({ name: 'Main store', code: 'MAIN', status: 'active', created_at: stamp, updated_at: stamp })
        .returning('id')
        .executeTakeFirstOrThrow();
    }

    const walkIn = await trx.selectFrom('customers').select('id').where('is_walk_in', '=', 1).executeTakeFirst();
    if (!walkIn) {
      await trx
        .insertInto('customers')
        .values({
          name: WALK_IN_CUSTOMER.name_kh,
          status: 'active',
          is_walk_in: 1,
          created_at: stamp,
          updated_at: stamp,
        })
        .execute();
    }

    const anyUser = await trx.selectFrom('users').select('id').executeTakeFirst();
    if (anyUser) return { createdAdmin: false };

    const password = options.adminPassword ?? generatePassword();
    const admin = await trx
      .insertInto('users')
      .values({
        name: 'admin',
        full_name: 'Administrator',
        password_hash: await hashPassword(password),
        status: 'active',
        store_id: store.id,
        created_at: stamp,
        updated_at: stamp,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const adminRole = await trx
      .selectFrom('roles')
      .select('id')
      .where('name', '=', 'administrator')
      .executeTakeFirstOrThrow();
    await trx.insertInto('user_roles').values({ user_id: admin.id, role_id: adminRole.id }).execute();
    await trx.insertInto('user_stores').values({ user_id: admin.id, store_id: store.id }).execute();
    return {
      createdAdmin: true,
      generatedAdminPassword: options.adminPassword ? undefined : password,
    };
  });
}
