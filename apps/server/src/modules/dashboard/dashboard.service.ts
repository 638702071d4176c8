import type { Dashboard } from '@depot/contracts';
import { type AuthContext, can } from '../../access/access.ts';
import type { Db } from '../../db/database.ts';
import { now } from '../../db/database.ts';
import { dashboardRepository } from './dashboard.repository.ts';

export function dashboardService(db: Db) {
  const repo = dashboardRepository(db);
  return {
    async summary(ctx: AuthContext): Promise<Dashboard> {
      const me = ctx.profile;
      return {
        user: { id: me.id, name: me.name, full_name: me.full_name },
        store: me.store,
        roles: me.role_details,
        permission_count: me.permissions.length,
        counts: await repo.counts(ctx),
        recent_sign_ins: can(ctx, 'users.list') ? await repo.recentSignIns(8) : null,
        server_time: now(),
      };
    },
  };
}

export type DashboardService = ReturnType<typeof dashboardService>;
