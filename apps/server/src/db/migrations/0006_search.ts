import type { Kysely } from 'kysely';
import { columnTypes } from './helpers.ts';

/**
 * The search index of the resource kit: every word of a record's searchable columns (and the
 * syllable-led endings of Khmer words) as a term, so a search is a range scan of an index rather
 * than a scan of the table. Terms compare byte by byte on both databases ("C" collation on
 * PostgreSQL, SQLite's BINARY), which makes `term >= 'abc' and term < 'abc\u{10FFFF}'` a prefix match.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { bytewiseText, timestamp } = columnTypes(db);
  await db.schema
    .createTable('search_terms')
    .addColumn('resource', 'varchar(40)', (c) => c.notNull())
    .addColumn('term', 'varchar(64)', (c) => bytewiseText(c.notNull()))
    .addColumn('record_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('search_terms_pk', ['resource', 'term', 'record_id'])
    .execute();
  await db.schema
    .createIndex('search_terms_record')
    .on('search_terms')
    .columns(['resource', 'record_id', 'term'])
    .execute();
  // Which resources are indexed, by which version of the rules: a new version rebuilds at start-up.
  await db.schema
    .createTable('search_indexes')
    .addColumn('resource', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('built_at', timestamp, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('search_indexes').execute();
  await db.schema.dropTable('search_terms').execute();
}
