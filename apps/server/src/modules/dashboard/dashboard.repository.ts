import type { Db } from '../../db/database.ts';
import { type Actor, inStores } from '../../policies/policy.ts';

export function dashboardRepository(db: Db) {
  const live = (table: 'users' | 'roles' | 'stores') =>
    db
      .selectFrom(table)
      .select((e) => e.fn.countAll<number>().as('n'))
      .where('deleted_at', 'is', null);
  const n = async (query: { executeTakeFirstOrThrow(): Promise<{ n: number }> }) =>
    Number((await query.executeTakeFirstOrThrow()).n);

  return {
    /** Stores and their staff are counted in the actor's stores (their coverage); roles and permissions are every store's. */
    async counts(actor: Actor) {
      const users = inStores(live('users'), actor, 'users.store_id');
      const [userCount, activeUsers, roles, stores, permissions] = await Promise.all([
        n(users),
        n(users.where('status', '=', 'active')),
        n(live('roles')),
        n(inStores(live('stores'), actor, 'stores.id')),
        n(db.selectFrom('permissions').select((e) => e.fn.countAll<number>().as('n'))),
      ]);
      return { users: userCount, active_users: activeUsers, roles, stores, permissions };
    },

    recentSignIns(limit: number) {
      return db
        .selectFrom('auth_sessions')
        .innerJoin('users', 'users.id', 'auth_sessions.user_id')
        .select(['users.name as user_name', 'auth_sessions.created_at as signed_in_at', 'auth_sessions.ip'])
        .orderBy('auth_sessions.id', 'desc')
        .limit(limit)
        .execute();
    },
  };
}
