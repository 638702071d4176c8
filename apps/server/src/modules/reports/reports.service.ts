import type { ReportQuery } from '@depot/contracts';
import type { Db } from '../../db/database.ts';
import type { Actor } from '../../policies/policy.ts';
import { customerReport } from './customer.report.ts';
import { dashboard } from './dashboard.report.ts';
import { financialReport } from './financial.report.ts';
import { inventoryReport } from './inventory.report.ts';
import { reportContext } from './reports.frame.ts';
import { salesReport } from './sales.report.ts';

/**
 * The reports and the dashboards, one file per report (`<name>.report.ts`), each put together from
 * its queries (`<name>.queries.ts`) over the common frame (reports.frame.ts) into the one shape every
 * report has (contracts' `Report`). What a user without `costs.view` may not see (cost of goods,
 * profit, margin, stock values, purchases) is never computed into their answer.
 */
export function reportsService(db: Db) {
  const c = reportContext(db);
  return {
    sales: (actor: Actor, q: ReportQuery) => salesReport(c, actor, q),
    financial: (actor: Actor, q: ReportQuery) => financialReport(c, actor, q),
    inventory: (actor: Actor, q: ReportQuery) => inventoryReport(c, actor, q),
    customer: (actor: Actor, q: ReportQuery) => customerReport(c, actor, q),
    dashboard: (actor: Actor) => dashboard(c, actor),
    storeName: (id: number) => c.repo.storeName(id),
  };
}

export type ReportsService = ReturnType<typeof reportsService>;
