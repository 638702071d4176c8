import type SQLite from 'better-sqlite3';
import { type Insertable, sql } from 'kysely';
import type { Database } from '../db/database.ts';
import type { ProductsTable } from '../db/schema.ts';
import { EVERY_STORE } from '../policies/coverage.ts';
import type { Actor } from '../policies/policy.ts';

/** Who lists the products in the plan tests: every store, costs shown. */
export const LISTING_ADMIN: Actor = {
  userId: 1,
  storeId: null,
  permissions: new Set(['products.list', 'costs.view']),
  coverage: EVERY_STORE,
};

/** What `product(i)` gives of a product: its names and codes, and whatever else it sets. */
type ProductOf = Partial<Insertable<ProductsTable>> & Pick<Insertable<ProductsTable>, 'name_en' | 'name_kh' | 'sku'>;

/**
 * A catalogue for the plan tests (kit/*.plan.test.ts): one category, one unit, and `count` active
 * products made by `product(i)`, 500 a statement, priced alike; then `analyze`, so the planner has
 * the statistics the test's plan is asked with.
 */
export async function seedPlanCatalogue(
  database: Database,
  count: number,
  product: (i: number, at: string) => ProductOf,
  beforeAnalyze?: () => Promise<void>,
): Promise<void> {
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
  for (let start = 0; start < count; start += 500) {
    const rows = Array.from({ length: Math.min(500, count - start) }, (_, k) => ({
      category_id: category.id,
      unit_id: unit.id,
      price_usd_cents: 100,
      cost_usd_cents: 50,
      taxable: 1,
      reorder_level: 0,
      ...stamps,
      ...product(start + k, at),
    }));
    await db.insertInto('products').values(rows).execute();
  }
  await beforeAnalyze?.();
  await sql`analyze`.execute(db);
}

/** From now on, every statement SQLite prepares and runs is kept in `ran`, with its values. */
export function recordStatements(database: Database, ran: { text: string; values: unknown[] }[]): void {
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
}
