/**
 * A generated catalogue, written straight into the database (bench/catalogue.ts and
 * bench/till-coldstart.ts): `count` products in batches of 1,000, Khmer and English names (a twelfth
 * of them noodles, every seventh Khmer name with a subscript ដ), SKU-000000…, EAN-13 barcodes
 * 885…, then the search index built here rather than in the server's start-up (its 60 s limit).
 */
import { gtinCheckDigit } from '@depot/contracts';
import { sql } from 'kysely';
import { createDatabase } from '../apps/server/src/db/database.ts';
import { migrateToLatest } from '../apps/server/src/db/migrate.ts';
import { seed } from '../apps/server/src/db/seed.ts';
import { ensureSearchIndexes, type Searchable } from '../apps/server/src/kit/search.ts';

/** The products resource's searchable columns (products.resources.ts; importing it here would bring the routes' types). */
export const productsSearchable: Searchable = {
  table: 'products',
  searchable: ['products.name_en', 'products.name_kh', 'products.sku', 'products.barcode'],
  sortKey: 'products.name_en',
};

export const khmerWords = ['ទឹក', 'ស្រាបៀរ', 'អង្ករ', 'ប្រេង', 'ស្ករ', 'អំបិល', 'មី', 'ត្រី', 'សាប៊ូ', 'កាហ្វេ', 'តែ', 'ទឹកដោះគោ'];
export const englishWords = [
  'Water',
  'Beer',
  'Rice',
  'Oil',
  'Sugar',
  'Salt',
  'Noodles',
  'Fish',
  'Soap',
  'Coffee',
  'Tea',
  'Milk',
];

/** The i-th generated product's barcode. */
export function barcodeOf(i: number): string {
  const body = `885${String(i).padStart(9, '0')}`;
  return `${body}${gtinCheckDigit(body)}`;
}

/**
 * Migrates, seeds (the administrator with `password`) and fills the database. `stamp`: each
 * product's created/updated time (default: one time for all).
 */
export async function fillCatalogue(
  databaseUrl: string,
  count: number,
  password: string,
  stamp?: (i: number) => string,
): Promise<void> {
  const { db, close } = createDatabase(databaseUrl);
  await migrateToLatest(db);
  await seed(db, { adminPassword: password });
  const at = new Date().toISOString();
  const category = await db
    .insertInto('categories')
    .values({ name_en: 'General', name_kh: 'ទូទៅ', status: 'active', created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  const unit = await db
    .insertInto('units')
    .values({
      name_en: 'Piece',
      name_kh: 'ដុំ',
      short_name: 'pcs',
      factor: 1,
      status: 'active',
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const batch = 1000;
  for (let start = 0; start < count; start += batch) {
    const rows = [];
    for (let i = start; i < Math.min(count, start + batch); i++) {
      const w = i % englishWords.length;
      const when = stamp ? stamp(i) : at;
      rows.push({
        name_en: `${englishWords[w]} ${i}`,
        // every seventh Khmer name ends in a subscript ដ (្ដ), as typed in most fonts' keyboards
        name_kh: `${khmerWords[w]} ${i}${i % 7 === 0 ? ' ក្ដាម' : ''}`,
        sku: `SKU-${String(i).padStart(6, '0')}`,
        barcode: barcodeOf(i),
        category_id: category.id,
        unit_id: unit.id,
        price_usd_cents: 100 + (i % 5000),
        cost_usd_cents: 50,
        taxable: 1,
        reorder_level: 10,
        status: 'active' as const,
        created_at: when,
        updated_at: when,
      });
    }
    await db.insertInto('products').values(rows).execute();
  }
  await ensureSearchIndexes(db, [productsSearchable]);
  // statistics, as autovacuum would gather them on a live database (a fresh table has none)
  await sql`analyze`.execute(db);
  await close();
}

/** A kept database filled earlier: migrated, and its search index rebuilt (the rules may have changed since). */
export async function refreshCatalogue(databaseUrl: string): Promise<void> {
  const { db, close } = createDatabase(databaseUrl);
  await migrateToLatest(db);
  await ensureSearchIndexes(db, [productsSearchable]);
  await close();
}
