import { type Kysely, sql } from 'kysely';

/**
 * The search index in the list's order, for a common word's first page: each term carries its
 * leading two characters (`lead`) and its record's sort key (a product's English name, the
 * products list's default order); the index (resource, lead, sort_key, record_id, term) hands
 * every term a word begins in that order, so the page is the first matches walked, not a sort of
 * all of them. The sort key compares as the column it copies (the database's own collation).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('search_terms').addColumn('lead', 'varchar(16)').execute();
  await db.schema.alterTable('search_terms').addColumn('sort_key', 'text').execute();
  // lead as kit/search.ts leadOf: the first two characters (code points, as substr counts them);
  // the products' terms in one join, not a subquery per term: millions at a million products
  await sql`update search_terms set lead = substr(term, 1, 2), sort_key = products.name_en from products
    where products.id = search_terms.record_id and search_terms.resource = 'products'`.execute(db);
  await sql`update search_terms set lead = substr(term, 1, 2) where resource <> 'products'`.execute(db);
  await db.schema
    .createIndex('search_terms_ordered')
    .on('search_terms')
    .columns(['resource', 'lead', 'sort_key', 'record_id', 'term'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('search_terms_ordered').execute();
  await db.schema.alterTable('search_terms').dropColumn('sort_key').execute();
  await db.schema.alterTable('search_terms').dropColumn('lead').execute();
}
