import type { Db } from '../../db/database.ts';
import { customerQueries } from './customer.queries.ts';
import { dashboardQueries } from './dashboard.queries.ts';
import { financialQueries } from './financial.queries.ts';
import { inventoryQueries } from './inventory.queries.ts';
import { reportQuery } from './reports.query.ts';
import { salesQueries } from './sales.queries.ts';

export type { Filter, Range } from './reports.query.ts';

/**
 * The reports' queries, one file per report (sales, financial, inventory, customer, dashboard),
 * each written once over the one query builder (reports.query.ts), which reads the daily rollups
 * or the documents.
 */
export function reportsRepository(db: Db) {
  const rq = reportQuery(db);
  return {
    ...salesQueries(db, rq),
    ...financialQueries(db, rq),
    ...inventoryQueries(db, rq),
    ...customerQueries(db, rq),
    ...dashboardQueries(db),

    async storeName(id: number) {
      return (await db.selectFrom('stores').select('name').where('id', '=', id).executeTakeFirst())?.name ?? null;
    },

    async categoryNames() {
      const rows = await db.selectFrom('categories').select(['id', 'name_en', 'name_kh']).execute();
      return new Map(rows.map((r) => [r.id, r]));
    },

    async storeNames() {
      const rows = await db.selectFrom('stores').select(['id', 'name']).execute();
      return new Map(rows.map((r) => [r.id, r.name]));
    },
  };
}

export type ReportsRepository = ReturnType<typeof reportsRepository>;
