import { listQuery } from '@depot/contracts';
import type SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.ts';
import { products } from '../modules/products/products.resources.ts';
import { freshDatabase, TEST_DB } from '../test/harness.ts';
import { LISTING_ADMIN, recordStatements, seedPlanCatalogue } from '../test/planCatalogue.ts';
import { resourceService } from './resource.ts';

/**
 * A products page past the first, in a name order, finds its ids in the index of live products
 * (migration 0029) alone: with the plain name index, each entry skipped was a read of its row to
 * check `deleted_at`, so a far page read every row before it). The
 * plan is SQLite's question (as search.plan.test.ts); both databases check the pages themselves.
 */
const COUNT = 3000;
let database: Database;
const ran: { text: string; values: unknown[] }[] = [];
const name = (i: number) => `Product ${String(i).padStart(5, '0')}`;

describe('a products page in name order', () => {
  beforeAll(async () => {
    database = await freshDatabase();
    await seedPlanCatalogue(database, COUNT, (i, at) => ({
      name_en: name(i),
      name_kh: `ផលិតផល ${String(i).padStart(5, '0')}`,
      sku: `SKU-${String(i).padStart(6, '0')}`,
      // every third product deleted: the page skips them
      deleted_at: i % 3 === 0 ? at : null,
    }));
    if (TEST_DB === 'sqlite') recordStatements(database, ran);
  });

  afterAll(async () => {
    await database?.close();
  });

  it.each(['name_en', '-name_en', 'name_kh'])('page 30 sorted by %s: live products only, in order', async (sort) => {
    const service = resourceService(database.db, products);
    const answer = await service.list(LISTING_ADMIN, listQuery.parse({ page: 30, per_page: 20, sort }), {});
    // the live ones (not a multiple of 3), in order, the 581st to the 600th
    const live = Array.from({ length: COUNT }, (_, i) => i).filter((i) => i % 3 !== 0);
    if (sort.startsWith('-')) live.reverse();
    expect(answer.rows.map((row) => row.name_en)).toEqual(live.slice(580, 600).map(name));
    expect(answer.total).toBe(2000);
  });

  it.skipIf(TEST_DB !== 'sqlite')('finds the page ids in the index of live products, reading no row', async () => {
    const service = resourceService(database.db, products);
    for (const sort of ['name_en', 'name_kh']) {
      ran.length = 0;
      await service.list(LISTING_ADMIN, listQuery.parse({ page: 30, per_page: 20, sort }), {});
      const page = ran.find((statement) => /limit \? offset \?\)/.test(statement.text));
      expect(page).toBeDefined();
      const plan = (
        (database.sqlite as SQLite.Database)
          .prepare(`explain query plan ${page?.text}`)
          .all(...(page?.values ?? [])) as { detail: string }[]
      ).map((step) => step.detail);
      // the ids' subquery scans the live index: `deleted_at is null` is the index's own condition,
      // so no row is read for an entry skipped (the plain index read each one to check it)
      expect(plan.join('\n')).toContain(`SCAN products USING INDEX products_live_${sort}`);
    }
  });
});
