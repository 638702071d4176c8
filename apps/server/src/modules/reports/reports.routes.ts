import {
  type AdminDashboard,
  dashboardResponse,
  numeralsFor,
  REPORTS,
  type ReportName,
  reportExportQuery,
  reportQuery,
  reportResponse,
  shiftDifferenceRow,
  shiftReportQuery,
  single,
  todayInCambodia,
} from '@depot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '../../access/access.ts';
import type { Db } from '../../db/database.ts';
import { rememberedWhileUnchanged } from '../../db/dataVersion.ts';
import { seesAdminDashboard } from '../../policies/reports.ts';
import { settingsService } from '../settings/settings.service.ts';
import { adminDashboard, withConnections } from './admin.dashboard.ts';
import { reportPdf, reportWorkbook, XLSX_TYPE } from './reports.export.ts';
import { reportsService } from './reports.service.ts';
import { shiftDifferences } from './shifts.report.ts';

/**
 * GET /api/reports/{sales,inventory,financial,customer} (reports.view) and their
 * /export?format=xlsx|pdf (reports.view: the same figures as a file); GET /api/dashboard
 * (dashboards.view: a manager's, or a cashier's own sales of today).
 */
export const reportRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const reports = reportsService(db);
  const unchanged = rememberedWhileUnchanged<{
    report: Awaited<ReturnType<typeof reports.dashboard>>;
    admin: AdminDashboard | null;
  }>(db);

  app.get(
    '/api/dashboard',
    {
      config: { access: 'dashboards.view' },
      schema: {
        tags: ['reports'],
        summary:
          "A manager's day and week against the periods before, by hour, payments, cash per currency, top products, what is waiting; a cashier's own sales of today",
        response: { 200: dashboardResponse },
      },
    },
    async (request) => {
      const ctx = authOf(request);
      const me = ctx.profile;
      // the same answer while nothing in the database changed, for the same user with the same
      // permissions and coverage on the same day (everyone opens it after signing in)
      const { report, admin } = await unchanged(
        `${todayInCambodia()}:${ctx.userId}`,
        [ctx.permissions, ctx.coverage],
        async () => ({
          report: await reports.dashboard(ctx),
          admin: seesAdminDashboard(ctx) ? await adminDashboard(db) : null,
        }),
      );
      return {
        data: {
          user: { id: me.id, name: me.name, full_name: me.full_name },
          store: me.store,
          roles: me.role_details,
          ...report,
          admin: admin ? withConnections(admin, app.realtime.connections) : null,
        },
      };
    },
  );

  app.get(
    '/api/reports/shifts',
    {
      config: { access: 'reports.view' },
      schema: {
        tags: ['reports'],
        summary: 'The differences of closed shifts per cashier and day, in dollars and riel',
        querystring: shiftReportQuery,
        response: { 200: single(z.array(shiftDifferenceRow)) },
      },
    },
    async (request) => ({ data: await shiftDifferences(db, authOf(request), request.query) }),
  );

  for (const name of REPORTS) {
    app.get(
      `/api/reports/${name}`,
      {
        config: { access: 'reports.view' },
        schema: {
          tags: ['reports'],
          summary: `The ${name} report: figures with the previous period's, a series by day/week/month, tables`,
          querystring: reportQuery,
          response: { 200: reportResponse },
        },
      },
      async (request) => ({ data: await reports[name as ReportName](authOf(request), request.query) }),
    );

    app.get(
      `/api/reports/${name}/export`,
      {
        config: { access: 'reports.view' },
        schema: {
          tags: ['reports'],
          summary: `The ${name} report as an Excel workbook or a PDF (Khmer shaped, printed by Chromium)`,
          querystring: reportExportQuery,
        },
      },
      async (request, reply) => {
        const query = request.query as z.output<typeof reportExportQuery>;
        const report = await reports[name as ReportName](authOf(request), query);
        const store = query.store_id ? await reports.storeName(query.store_id) : null;
        const file = `${name}-${query.from}-${query.to}.${query.format}`;
        const body =
          query.format === 'pdf'
            ? await reportPdf(
                report,
                request.locale,
                store,
                numeralsFor((await settingsService(db).publicSettings()).khmer_numerals, request.locale),
              )
            : await reportWorkbook(report, request.locale, store);
        return reply
          .header('content-type', query.format === 'pdf' ? 'application/pdf' : XLSX_TYPE)
          .header('content-disposition', `attachment; filename="${file}"`)
          .header('cache-control', 'no-store')
          .send(body);
      },
    );
  }
};
