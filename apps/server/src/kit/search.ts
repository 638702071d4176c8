import { normal, searchWords, termsOf } from '@depot/contracts';
import { type Expression, type SqlBool, sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { now } from '../db/database.ts';
import { transaction } from '../db/transaction.ts';

/**
 * Search by index, on both databases. A record's searchable columns become terms: each word
 * (lower-case, NFC), the parts of a word after a dash, dot or slash ("coca-cola" → "cola", a SKU's
 * number), a value without its spaces (a phone typed without them), and, since Khmer is written
 * without spaces between words, the ending of a Khmer word from each of its consonants
 * ("ស្រាបៀរអង្គរ" → "អង្គរ"); the look-alike subscripts ្ដ and ្ត are one letter, since people type
 * both for the same word (`oneSubscript`, the glossary in contracts glossary.ts). A search matches the records where every word typed begins one of
 * their terms: a range scan of the terms' index per word, never a scan of the table.
 *
 * The rules are versioned: a change of SEARCH_VERSION rebuilds every index at the next start.
 */
export const SEARCH_VERSION = 2;
/** Above every character: `term < word + TOP` keeps exactly the terms that begin with `word`. */
export const TOP = '\u{10FFFF}';
const INSERT_BATCH = 500;

/** What the kit needs of a resource to index it: its table and the columns searched. */
export interface Searchable {
  table: string;
  searchable: string[];
  /**
   * The column of the list's default order, copied into each term as its sort key (migration
   * 0028): a common word's first page in that order is then a range scan of the terms' index.
   */
  sortKey?: string;
}

// normal, termsOf and searchWords are contracts searchText.ts: the till searches its local catalogue with them.
export { normal, searchWords, termsOf };

/**
 * The ids of a resource's records matching every word: the first word's range drives, the others
 * are checked per candidate through the (resource, record_id, term) index.
 */
export function matchingIds(db: Db, resource: string, words: string[]) {
  const [first, ...rest] = words;
  let query = db
    .selectFrom('search_terms as s0')
    .select('s0.record_id')
    .where('s0.resource', '=', resource)
    .where('s0.term', '>=', first)
    .where('s0.term', '<', first + TOP);
  rest.forEach((word, i) => {
    const alias = `s${i + 1}` as 's0';
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom(`search_terms as ${alias}`)
          .select(sql`1`.as('one'))
          .whereRef(`${alias}.record_id`, '=', 's0.record_id')
          .where(`${alias}.resource`, '=', resource)
          .where(`${alias}.term`, '>=', word)
          .where(`${alias}.term`, '<', word + TOP),
      ),
    );
  });
  return query;
}

/** How far a word's range is counted to know which word narrows most. */
const PROBE = 200;

/** How many terms of a word's range, counted up to PROBE: a short range scan of the index. */
async function rangeSize(db: Db, resource: string, word: string): Promise<number> {
  const range = db
    .selectFrom('search_terms')
    .select('record_id')
    .where('resource', '=', resource)
    .where('term', '>=', word)
    .where('term', '<', word + TOP)
    .limit(PROBE)
    .as('r');
  const row = await db.selectFrom(range).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The words of a search, the one with the fewest terms first, and whether that word is common (it
 * begins PROBE terms or more): the rarest word drives, the common ones are checked per candidate.
 * Without it "noodles 50010" walked every noodle (a twelfth of the catalogue) to find eleven.
 */
export async function searchPlan(
  db: Db,
  resource: string,
  words: string[],
): Promise<{ words: string[]; common: boolean }> {
  if (!words.length) return { words, common: false };
  const sizes = await Promise.all(words.map((word) => rangeSize(db, resource, word)));
  // a stable sort: equally rare words keep searchWords' order
  const sorted = words.map((word, i) => ({ word, size: sizes[i] })).sort((a, b) => a.size - b.size);
  return { words: sorted.map((w) => w.word), common: sorted[0].size >= PROBE };
}

/** The words of a search, the rarest first (`searchPlan`). */
export async function rarestFirst(db: Db, resource: string, words: string[]): Promise<string[]> {
  if (words.length < 2) return words;
  return (await searchPlan(db, resource, words)).words;
}

/**
 * A list's total of a search is counted up to this many matches; beyond, the list says "more
 * than 1,000" (`meta.total_is_lower_bound`): counting every match of a common word at each
 * keystroke cost more than the page.
 */
export const TOTAL_CAP = 1000;

/**
 * A common word's matches walked in the list's order are counted this far past the page's end,
 * rounded up to a multiple of it: page 1 of 20 reads up to 201 and says "more than 200".
 */
export const WALK_MORE = 100;

/** The lower bound a walk in the list's order counts up to, for a page ending at `pageEnd`. */
export function walkBound(pageEnd: number): number {
  return Math.ceil((pageEnd + WALK_MORE) / WALK_MORE) * WALK_MORE;
}

/** How many leading characters of a term its `lead` keeps (migration 0028). */
export const LEAD = 2;

/**
 * A term's leading characters, counted by code point as SQL's substr counts them: the terms a
 * word of at least LEAD characters begins all share its lead, kept in the list's order.
 */
export function leadOf(term: string): string {
  return [...term].slice(0, LEAD).join('');
}

/**
 * A condition per word: the record (`<table>.id`) has a term the word begins. For the words
 * checked per candidate once another word drives.
 */
export function wordsCondition(db: Db, resource: string, words: string[]): Expression<SqlBool> {
  return sql<SqlBool>`${sql.join(
    words.map(
      (word) =>
        sql`exists ${db
          .selectFrom('search_terms as w')
          .select(sql`1`.as('one'))
          .where('w.resource', '=', resource)
          .where('w.term', '>=', word)
          .where('w.term', '<', word + TOP)
          .whereRef('w.record_id', '=', `${resource}.id` as never)}`,
    ),
    sql` and `,
  )}`;
}

/** Up to this many matches, a search hands the list their ids; beyond, the matching subquery. */
const ID_LIST_MAX = 16_384;

/**
 * A condition for a list query: the record's id is among those matching the search. The matches
 * are read first: a short list of ids keeps both databases' planners from walking the whole table
 * in the list's order in the hope of meeting matches early (PostgreSQL did, at 100,000 products).
 * The list is padded to a power of two, so its statement texts stay few (and prepared).
 */
export async function searchCondition(db: Db, def: Searchable, search: string): Promise<Expression<SqlBool> | null> {
  const words = await rarestFirst(db, def.table, searchWords(search));
  if (!words.length) return null;
  const id = sql.ref(`${def.table}.id`);
  // no `distinct`: it made PostgreSQL's generic plan walk the record-ordered index end to end
  const found = await matchingIds(db, def.table, words)
    .limit(ID_LIST_MAX + 1)
    .execute();
  if (found.length === 0) return sql<SqlBool>`1 = 0`;
  if (found.length > ID_LIST_MAX) return sql<SqlBool>`${id} in (${matchingIds(db, def.table, words)})`;
  const ids = [...new Set(found.map((row) => row.record_id))];
  const size = 2 ** Math.ceil(Math.log2(ids.length));
  while (ids.length < size) ids.push(ids[0]);
  return sql<SqlBool>`${id} in (${sql.join(ids)})`;
}

/**
 * Writes the terms of some records (or, with null, of every record) of a resource, replacing what
 * was there. Call it in the transaction that wrote the records.
 */
export async function indexRecords(trx: Db, def: Searchable, ids: readonly number[] | null): Promise<number> {
  let written = 0;
  const resource = def.table;
  // nothing to index for a resource searched by nothing (roles): a write costs no statement here
  if (!def.searchable.length && ids !== null) return 0;
  const chunks =
    ids === null
      ? [null]
      : Array.from({ length: Math.ceil(ids.length / 1000) }, (_, i) => ids.slice(i * 1000, i * 1000 + 1000));
  for (const chunk of chunks) {
    if (chunk?.length === 0) continue;
    let remove = trx.deleteFrom('search_terms').where('resource', '=', resource);
    if (chunk) remove = remove.where('record_id', 'in', chunk);
    await remove.execute();

    // biome-ignore lint/suspicious/noExplicitAny: the kit names its tables and columns at run time
    let select = (trx as any)
      .selectFrom(resource)
      .select([
        sql.ref(`${resource}.id`).as('id'),
        (def.sortKey ? sql.ref(def.sortKey) : sql<null>`null`).as('sort_key'),
        ...def.searchable.map((c, i) => sql.ref(c).as(`c${i}`)),
      ]);
    if (chunk) select = select.where(sql.ref(`${resource}.id`), 'in', chunk);
    const rows = (await select.execute()) as Record<string, string | number | null>[];
    const values = termRows(
      resource,
      rows.map((row) => ({
        id: Number(row.id),
        sortKey: row.sort_key === null ? null : String(row.sort_key),
        texts: def.searchable.map((_, i) => (row[`c${i}`] === null ? null : String(row[`c${i}`]))),
      })),
    );
    for (let i = 0; i < values.length; i += INSERT_BATCH) {
      await trx
        .insertInto('search_terms')
        .values(values.slice(i, i + INSERT_BATCH))
        .execute();
    }
    written += values.length;
  }
  return written;
}

/**
 * The search_terms rows of some records of a resource, from their searchable texts (in the order of
 * the definition's `searchable`): what `indexRecords` writes, for a writer that knows the texts
 * (a sale numbering its order and invoice, orders.sale.ts `numberSale`).
 */
export function termRows(
  resource: string,
  records: { id: number; sortKey: string | null; texts: (string | null)[] }[],
) {
  const values: { resource: string; term: string; lead: string; record_id: number; sort_key: string | null }[] = [];
  for (const record of records) {
    for (const term of termsOf(record.texts))
      values.push({ resource, term, lead: leadOf(term), record_id: record.id, sort_key: record.sortKey });
  }
  return values;
}

/** At start-up: builds the index of every resource never indexed, or indexed by older rules. */
export async function ensureSearchIndexes(db: Db, defs: readonly Searchable[]): Promise<string[]> {
  const built = new Map(
    (await db.selectFrom('search_indexes').select(['resource', 'version']).execute()).map((r) => [
      r.resource,
      r.version,
    ]),
  );
  const rebuilt: string[] = [];
  let terms = 0;
  for (const def of defs) {
    if (built.get(def.table) === SEARCH_VERSION) continue;
    await transaction(db, async (trx) => {
      terms += await indexRecords(trx, def, null);
      await trx.deleteFrom('search_indexes').where('resource', '=', def.table).execute();
      await trx
        .insertInto('search_indexes')
        .values({ resource: def.table, version: SEARCH_VERSION, built_at: now() })
        .execute();
    });
    rebuilt.push(def.table);
  }
  // a bulk load: the planners need the table's statistics now, not when autovacuum comes by (a few
  // terms are left to the defaults: statistics of a nearly empty table mislead more than none)
  if (terms >= 10_000) await sql`analyze search_terms`.execute(db);
  return rebuilt;
}
