import { dashboardResponse } from '@depot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../../access/access.ts';
import type { DashboardService } from './dashboard.service.ts';

export const dashboardRoutes: FastifyPluginAsyncZod<{ dashboard: DashboardService }> = async (app, { dashboard }) => {
  app.get(
    '/api/dashboard',
    {
      config: { access: 'dashboards.view' },
      schema: {
        tags: ['dashboard'],
        summary: 'Who is signed in, their store and roles, and record counts',
        response: { 200: dashboardResponse },
      },
    },
    async (request) => ({ data: await dashboard.summary(authOf(request)) }),
  );
};
