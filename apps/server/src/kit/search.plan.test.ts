import { gtinCheckDigit, listQuery } from '@depot/contracts';
import type SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.ts';
import { products } from '../modules/products/products.resources.ts';
import { freshDatabase, TEST_DB } from '../test/harness.ts';
import { LISTING_ADMIN, recordStatements, seedPlanCatalogue } from '../test/planCatalogue.ts';
import { resourceService } from './resource.ts';
import { ensureSearchIndexes } from './search.ts';

/**
 * A common word's first page is walked in the index kept in the list's order (migration 0028),
 * never read whole and sorted: SQLite's planner, with the statistics of a few thousand products
 * and a limit it was not told ("limit ?"), read every term of the word and sorted them (1.3 s for
 * "មី" at 1,000,000 products). The plan is SQLite's own question (PostgreSQL plans each run with
 * its values), so this is asked of SQLite.
 */
const COUNT = 6000;
const english = ['Water', 'Beer', 'Rice', 'Oil', 'Sugar', 'Salt', 'Noodles', 'Fish', 'Soap', 'Coffee', 'Tea', 'Milk'];
const khmer = ['ទឹក', 'ស្រាបៀរ', 'អង្ករ', 'ប្រេង', 'ស្ករ', 'អំបិល', 'មី', 'ត្រី', 'សាប៊ូ', 'កាហ្វេ', 'តែ', 'ទឹកដោះគោ'];
let database: Database;
/** Every statement the database ran, with its values. */
const ran: { text: string; values: unknown[] }[] = [];

describe.skipIf(TEST_DB !== 'sqlite')('the walk of a common word, at a few thousand products', () => {
  beforeAll(async () => {
    database = await freshDatabase();
    await seedPlanCatalogue(
      database,
      COUNT,
      (i) => ({
        name_en: `${english[i % 12]} ${i}`,
        name_kh: `${khmer[i % 12]} ${i}${i % 7 === 0 ? ' ក្ដាម' : ''}`,
        sku: `SKU-${String(i).padStart(6, '0')}`,
        barcode: `885${String(i).padStart(9, '0')}${gtinCheckDigit(`885${String(i).padStart(9, '0')}`)}`,
      }),
      async () => {
        await database.db.deleteFrom('search_indexes').where('resource', '=', 'products').execute();
        await ensureSearchIndexes(database.db, [products]);
      },
    );
    // every statement prepared from now on is kept with the values it runs with
    recordStatements(database, ran);
  });

  afterAll(async () => {
    await database?.close();
  });

  it.each(['Noodles', 'មី'])(
    'finds the first page of "%s" in name order from the ordered index, unsorted',
    async (word) => {
      const service = resourceService(database.db, products);
      ran.length = 0;
      const answer = await service.list(LISTING_ADMIN, listQuery.parse({ search: word }), {});
      const names = answer.rows.map((row) => row.name_en);
      // a twelfth of the products: more than the walk counts, in the list's order
      expect(answer).toMatchObject({ total: 200, lowerBound: true });
      expect(names).toHaveLength(20);
      expect(names).toEqual(names.toSorted());
      expect(names.every((name) => name.startsWith('Noodles '))).toBe(true);

      const walk = ran.find((statement) => statement.text.includes('distinct s0.record_id'));
      expect(walk).toBeDefined();
      const sqlite = database.sqlite as SQLite.Database;
      const plan = (
        sqlite.prepare(`explain query plan ${walk?.text}`).all(...(walk?.values ?? [])) as { detail: string }[]
      ).map((step) => step.detail);
      expect(plan.join('\n')).toContain('search_terms_ordered');
      expect(plan.join('\n')).not.toContain('TEMP B-TREE FOR ORDER BY');
    },
  );
});
