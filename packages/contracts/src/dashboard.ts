import { z } from 'zod';
import { roleSummary, storeSummary } from './auth.ts';

/** GET /api/dashboard: what the signed-in user sees first. Every figure is read from the database. */
export const dashboardResponse = z.object({
  data: z.object({
    user: z.object({ id: z.number().int(), name: z.string(), full_name: z.string().nullable() }),
    store: storeSummary.nullable(),
    roles: z.array(roleSummary),
    permission_count: z.number().int(),
    counts: z.object({
      users: z.number().int(),
      active_users: z.number().int(),
      roles: z.number().int(),
      stores: z.number().int(),
      permissions: z.number().int(),
    }),
    /** Present only for users who may list users. */
    recent_sign_ins: z
      .array(z.object({ user_name: z.string(), signed_in_at: z.string(), ip: z.string().nullable() }))
      .nullable(),
    server_time: z.string(),
  }),
});
export type Dashboard = z.infer<typeof dashboardResponse>['data'];
