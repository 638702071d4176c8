import { listQuery } from '@depot/contracts';
import type SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.ts';
import { products } from '../modules/products/products.resources.ts';
import { EVERY_STORE } from '../policies/coverage.ts';
import type { Actor } from '../policies/policy.ts';
import { freshDatabase, TEST_DB } from '../test/harness.ts';
import { resourceService } from './resource.ts';

/**
 * A products page past the first, in a name order, finds its ids in the index of live products
 * (migration 0029) alone: with the plain name index, each entry skipped was a read of its row to
 * check `deleted_at` (page 50 read 1,000 rows of a million, 0.7 ms, the bulk of the page). The
 * plan is SQLite's question (as search.plan.test.ts); both databases check the pages themselves.
 */
const COUNT = 3000;
const admin: Actor = {
  userId: 1,
  storeId: null,
  permissions: new Set(['products.list', 'costs.view']),
  coverage: EVERY_STORE,
};

let database: Database;
const ran: { text: string; values: unknown[] }[] = [];
const name = (i: number) => `Product ${String(i).padStart(5, '0')}`;

describe('a products page in name order', () => {
  beforeAll(async () => {
    database = await freshDatabase();
    const { db } = database;
    const at = new Date().toISOString();
    const stamps = { status: 'active' as const, created_at: at, updated_at: at };
    const category = await db
      .insertInto('categories')
      .values({ name_en: 'General', name_kh: 'ទូទៅ', ...stamps })
      .returning('id')
      .executeTakeFirstOrThrow();
    const unit = await db
      .insertInto('units')
      .values({ name_en: 'Piece', name_kh: 'ដុំ', short_name: 'pcs', factor: 1, ...stamps })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (let start = 0; start < COUNT; start += 500) {
      const rows = Array.from({ length: 500 }, (_, k) => ({
        name_en: name(start + k),
        name_kh: `ផលិតផល ${String(start + k).padStart(5, '0')}`,
        sku: `SKU-${String(start + k).padStart(6, '0')}`,
        category_id: category.id,
        unit_id: unit.id,
        price_usd_cents: 100,
        cost_usd_cents: 50,
        taxable: 1,
        reorder_level: 0,
        // every third product deleted: the page skips them
        ...stamps,
        deleted_at: (start + k) % 3 === 0 ? at : null,
      }));
      await db.insertInto('products').values(rows).execute();
    }
    await sql`analyze`.execute(db);
    if (TEST_DB !== 'sqlite') return;
    const sqlite = database.sqlite as SQLite.Database;
    const prepare = sqlite.prepare.bind(sqlite);
    sqlite.prepare = ((text: string) => {
      const statement = prepare(text);
      const all = statement.all.bind(statement);
      statement.all = ((...values: unknown[]) => {
        ran.push({ text, values });
        return all(...values);
      }) as typeof statement.all;
      return statement;
    }) as typeof sqlite.prepare;
  });

  afterAll(async () => {
    await database?.close();
  });

  it.each(['name_en', '-name_en', 'name_kh'])('page 30 sorted by %s: live products only, in order', async (sort) => {
    const service = resourceService(database.db, products);
    const answer = await service.list(admin, listQuery.parse({ page: 30, per_page: 20, sort }), {});
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
      await service.list(admin, listQuery.parse({ page: 30, per_page: 20, sort }), {});
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
