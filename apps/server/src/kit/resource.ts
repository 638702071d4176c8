import {
  type ChangesQuery,
  changesCursor,
  changesPage,
  changesQuery,
  idParams,
  type ListQuery,
  listQuery,
  type MessageKey,
  type Permission,
  paginated,
  type Resource,
  single,
  translate,
  written,
} from '@depot/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Expression, type Selectable, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import { z } from 'zod';
import { authOf } from '../access/access.ts';
import type { Db } from '../db/database.ts';
import { now } from '../db/database.ts';
import type { DB } from '../db/schema.ts';
import { transaction } from '../db/transaction.ts';
import { AppError, FieldError, notFound } from '../http/errors.ts';
import { say } from '../http/locale.ts';
import { own } from '../http/own.ts';
import type { Actor, Scope } from '../policies/policy.ts';
import {
  indexRecords,
  LEAD,
  leadOf,
  matchingIds,
  searchCondition,
  searchPlan,
  searchWords,
  TOP,
  TOTAL_CAP,
  walkBound,
  wordsCondition,
} from './search.ts';
import { countOf, tableChanged } from './totals.ts';

/** Tables the kit can serve: an integer id, timestamps and soft delete. */
export type ResourceTable = {
  [K in keyof DB]: DB[K] extends { deleted_at: string | null; created_at: string; updated_at: string } ? K : never;
}[keyof DB];

type Row = { id: number };
export type KitRoute = 'list' | 'show' | 'create' | 'update' | 'delete' | 'restore';
// The kit composes queries whose tables it only knows by name; definitions keep their own types.
// biome-ignore lint/suspicious/noExplicitAny: a definition's query may join any tables
type AnySelect<O> = SelectQueryBuilder<DB, any, O>;

export type Filter =
  | { column: string; schema: z.ZodType }
  | { schema: z.ZodType; apply: (query: AnySelect<object>, value: unknown) => AnySelect<object> };

/** A record as the resource's query reads it: without the abilities its policy adds. */
export type Read<O> = Omit<O, 'abilities'>;

/**
 * What a resource's policy (policies/*.ts) tells the kit: every list, count, export, show and
 * write of the resource goes through it.
 */
export interface ResourcePolicy<O, In> {
  /** Refuses the whole resource to an actor (by throwing), before any list or record. */
  require?: (actor: Actor) => void;
  /** Narrows the list, its count and exports to what the actor may see (the table's own columns). */
  scope?: Scope;
  /** A record as the actor may see it: fields they may not see dropped, abilities added. */
  present?: (actor: Actor, record: Read<O>) => O;
  /** Sort names the actor may not use: those of fields hidden from them. */
  hiddenSorts?: (actor: Actor) => readonly string[];
  /** Refuses a write of an existing record (by throwing): a store the actor does not cover. */
  authorize?: (actor: Actor, action: 'update' | 'delete' | 'restore', row: Record<string, unknown>) => void;
  /**
   * The input as the actor may write it (a field they may not see keeps its stored value), or a
   * refusal (a field they may not change). `existing` is the stored row, null on create.
   */
  write?: (actor: Actor, input: In, existing: Record<string, unknown> | null) => In;
}

/**
 * A resource: `O` is the record as the API shows it, `Q` a row of its query (the record without the
 * abilities its policy adds, unless `complete` adds more to the rows).
 */
export interface ResourceDefinition<
  T extends ResourceTable,
  I extends z.ZodType,
  O extends z.ZodType<Row>,
  Q extends Row = Read<z.infer<O>>,
> {
  table: T;
  /** API path, kebab-case plural: `/api/sub-categories`. */
  path: string;
  /** Permission resource: the routes need `<resource>.list`, `.view`, `.create`, `.update`, `.delete`, `.restore`. */
  resource: Resource;
  /** Catalogue key of the entity's name, for success messages ("Brand created."). */
  entity: MessageKey;
  /** The body of create and update (PUT replaces the record's writable fields). */
  input: I;
  /** The record as the API shows it. */
  output: O;
  /**
   * One row per record, the table under its own name, with whatever joins and counts the output has.
   * Built once per service and added to by each list: nothing in it may change between requests
   * (today's date goes in a filter's `apply`, which runs per request).
   */
  query: (db: Db) => AnySelect<Q>;
  /** Columns the `search` parameter looks in: each word typed begins a word of them (kit/search.ts). */
  searchable: string[];
  /** The default sort's column, kept in the search index: a common word's first page is a range scan. */
  sortKey?: string;
  /** API sort names and the columns they sort by; `sort=-name` sorts descending. */
  sortable: Record<string, string>;
  defaultSort: string;
  /**
   * `filter[<name>]=value` parameters: compared with a column, or applied by a function when the
   * rule is more than equality (expired products).
   */
  filters?: Record<string, Filter>;
  /** Input fields unique among live records, compared without case. */
  unique?: string[];
  /** The stored values of an input where they differ (a boolean is stored as 0/1 on both databases). */
  toRow?: (input: z.output<I>) => Record<string, unknown>;
  /** Rules that need the database (a referenced record must exist and be live, …). */
  check?: (db: Db, input: z.output<I>, id: number | null) => Promise<Record<string, MessageKey> | null>;
  /**
   * The same rules for many inputs at once, in place of `check`, for a definition whose records
   * also arrive by the thousand (a product import): one query per rule, not per record. A field
   * an input lacks is not checked, so a row whose schema failed elsewhere still hears every mistake.
   */
  checkMany?: (db: Db, items: readonly CheckItem<Partial<z.output<I>>>[]) => Promise<Problems[]>;
  /** A reason this record may never be deleted (the walk-in customer), or null. */
  guardDelete?: (db: Db, id: number) => Promise<MessageKey | null>;
  /**
   * The routes the kit registers, all six by default. A document with rules of its own (a purchase)
   * takes the list and show from the kit and writes through its own service.
   */
  routes?: readonly KitRoute[];
  /**
   * A permission other than `<resource>.<action>` for some routes: a store's printers are listed
   * with `printers.list` but written by whoever may update stores.
   */
  access?: Partial<Record<KitRoute, Permission>>;
  /** What still uses a record; deleting it is refused while any count is above zero. */
  dependents?: (db: Db, id: number) => Promise<{ entity: MessageKey; count: number }[]>;
  /** Who sees which records and fields, and who may write them (the resource's policy). */
  policy?: ResourcePolicy<z.infer<O>, z.output<I>>;
  /**
   * Writes the audit trail's line of an update (modules/audit), in its transaction: `before` is the
   * stored row, `input` what was written (a product's price change).
   */
  audit?: (trx: Db, actor: Actor, before: Record<string, unknown>, input: z.output<I>) => Promise<void>;
  /**
   * Writes the audit trail's lines of every write of a record (a printer, a store's payee account),
   * in its transaction: the stored row before (null on create) and after.
   */
  trail?: (trx: Db, actor: Actor, change: TrailChange) => Promise<void>;
  /**
   * What a create writes besides the record, in its transaction, once the record is in (a new
   * product's opening stock): a refusal here undoes the record too.
   */
  created?: (trx: Db, actor: Actor, id: number, input: z.output<I>) => Promise<void>;
  /**
   * Query parameters of the list and of a record that add to each record rather than narrow the
   * list (the till's `stock_store`: each product's stock in a store), given to `complete`.
   */
  extras?: z.ZodRawShape;
  /**
   * Completes the records the query read, a page (or one record) at a time: a figure computed in
   * TypeScript by the one function that computes it (a product's riel price, money.ts), or read for
   * the whole page in one query (its stock in a store). Writes answer with it too, without extras.
   * Then the policy's `present` drops what the actor may not see and adds their abilities.
   */
  complete?: (db: Db, rows: Q[], extras: Record<string, unknown>, actor: Actor | null) => Promise<Read<z.infer<O>>[]>;
  /**
   * `GET <path>/changes`: the records changed since a cursor, deleted and inactive ones included
   * (contracts `changesQuery`), with the list's permission and scope: the till's local catalogue.
   */
  changes?: boolean;
}

/** A write of a record as the audit trail sees it (ResourceDefinition.trail). */
export interface TrailChange {
  action: 'create' | 'update' | 'delete' | 'restore';
  id: number;
  before: Record<string, unknown> | null;
  after: Record<string, unknown>;
}

/** An input to check against the database's rules, with the id of the record it would update. */
export interface CheckItem<I> {
  input: I;
  id: number | null;
}

/** What is wrong with one input, field by field (null: nothing). */
export type Problems = Record<string, MessageKey> | null;

/** Values per `in (…)` list: well under both databases' limits on parameters. */
export const IN_BATCH = 1000;

export function inBatches<T>(items: readonly T[], size = IN_BATCH): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The live (not deleted) record of a table, or undefined: for rules about referenced records. */
export async function findLive<T extends ResourceTable>(
  db: Db,
  table: T,
  id: number,
): Promise<Selectable<DB[T]> | undefined> {
  return (await db
    .selectFrom(table as ResourceTable)
    .selectAll()
    .where(sql.ref('id') as Expression<number>, '=', id)
    .where(sql.ref('deleted_at') as Expression<string | null>, 'is', null)
    .executeTakeFirst()) as Selectable<DB[T]> | undefined;
}

/** How many live records of a table point at `id` through `column`: for refusing a deletion. */
export async function countLive(db: Db, table: ResourceTable, column: string, id: number): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select(sql<number>`count(*)`.as('n'))
    .where(sql.ref(column) as Expression<number>, '=', id)
    .where(sql.ref('deleted_at') as Expression<string | null>, 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The service behind a resource's routes. Tests and other modules may call it directly. */
export function resourceService<
  T extends ResourceTable,
  I extends z.ZodType,
  O extends z.ZodType<Row>,
  Q extends Row = Read<z.infer<O>>,
>(db: Db, def: ResourceDefinition<T, I, O, Q>) {
  // Counting runs on the table alone, so what it searches and filters must be the table's own.
  const foreign = [
    ...def.searchable,
    ...Object.values(def.filters ?? {}).flatMap((f) => ('column' in f ? [f.column] : [])),
  ].filter((col) => !col.startsWith(`${def.table}.`));
  if (foreign.length) throw new Error(`${def.path}: search and filters must use ${def.table} columns: ${foreign}`);

  type Output = z.infer<O>;
  const column = (name: string) => sql.ref(`${def.table}.${name}`);
  const stored = (input: z.output<I>) => def.toRow?.(input) ?? (input as Record<string, unknown>);

  // Kysely's builders are immutable: the definition's query is built once, each list adds to it
  const base = def.query(db);
  const rowsOf = (trx: Db) => (trx === db ? base : def.query(trx));

  const policy = def.policy ?? {};
  const scoped = <S extends AnySelect<unknown>>(query: S, actor: Actor): S =>
    policy.scope ? policy.scope(query, actor) : query;
  const present = (actor: Actor, record: Read<Output>): Output =>
    policy.present ? policy.present(actor, record) : (record as Output);

  const complete = async (
    trx: Db,
    rows: Q[],
    extras: Record<string, unknown> = {},
    actor: Actor | null = null,
  ): Promise<Read<Output>[]> =>
    // an empty page is completed too when extras were asked for: their checks hold whatever the data
    def.complete && (rows.length || Object.values(extras).some((v) => v !== undefined))
      ? def.complete(trx, rows, extras, actor)
      : (rows as unknown as Read<Output>[]);

  async function find(
    trx: Db,
    id: number,
    actor?: Actor,
    extras?: Record<string, unknown>,
  ): Promise<Read<Output> | undefined> {
    const query = rowsOf(trx).where(column('id') as Expression<number>, '=', id);
    const row = (await (actor ? scoped(query, actor) : query).executeTakeFirst()) as Q | undefined;
    return row && (await complete(trx, [row], extras, actor ?? null))[0];
  }

  /** The `unique` fields each input shares with another live record: one query per field and batch. */
  async function uniqueProblems(trx: Db, items: readonly CheckItem<Record<string, unknown>>[]) {
    const problems: Record<string, MessageKey>[] = items.map(() => ({}));
    for (const field of def.unique ?? []) {
      const wanted = new Map<string, number[]>(); // lower-case value → the items holding it
      items.forEach(({ input }, index) => {
        const value = input[field];
        if (typeof value === 'string')
          wanted.set(value.toLowerCase(), [...(wanted.get(value.toLowerCase()) ?? []), index]);
      });
      for (const batch of inBatches([...wanted.keys()])) {
        const rows = await trx
          .selectFrom(def.table as ResourceTable)
          .select([sql<number>`id`.as('id'), sql<string>`lower(${sql.ref(field)})`.as('value')])
          .where(sql<string>`lower(${sql.ref(field)})`, 'in', batch)
          .where(sql.ref('deleted_at') as Expression<string | null>, 'is', null)
          .execute();
        for (const row of rows as { id: number; value: string }[]) {
          for (const index of wanted.get(row.value) ?? []) {
            if (Number(row.id) !== items[index].id) problems[index][field] = 'validation.unique';
          }
        }
      }
    }
    return problems;
  }

  /**
   * Every rule of the database for each input: unique among live records, then the definition's
   * own (`checkMany`, else `check` one by one). The first problem of a field is the one told.
   */
  async function problemsOf(
    trx: Db,
    items: readonly CheckItem<Partial<z.output<I>>>[],
  ): Promise<Record<string, MessageKey>[]> {
    const unique = await uniqueProblems(trx, items as readonly CheckItem<Record<string, unknown>>[]);
    const own: Problems[] = def.checkMany
      ? await def.checkMany(trx, items)
      : def.check
        ? await Promise.all(items.map(({ input, id }) => def.check?.(trx, input as z.output<I>, id) ?? null))
        : [];
    return unique.map((found, i) => ({ ...own[i], ...found }));
  }

  function refuse(problems: Record<string, MessageKey>) {
    if (Object.keys(problems).length) {
      throw new FieldError(Object.fromEntries(Object.entries(problems).map(([f, key]) => [f, [{ key }]])));
    }
  }

  async function check(trx: Db, input: z.output<I>, id: number | null) {
    refuse((await problemsOf(trx, [{ input, id }]))[0]);
  }

  async function liveRow(trx: Db, id: number) {
    return trx
      .selectFrom(def.table as ResourceTable)
      .selectAll()
      .where(sql.ref('id') as Expression<number>, '=', id)
      .executeTakeFirst() as Promise<(Record<string, unknown> & { deleted_at: string | null }) | undefined>;
  }

  /** A write in a transaction; once it is over, the table's remembered totals are stale. */
  function write<T>(actor: Actor, work: (trx: Db) => Promise<T>): Promise<T> {
    return transaction(db, work, actor).finally(() => tableChanged(db, def.table));
  }

  /** A record the actor may write: live (or deleted, to restore), in their scope, allowed by the policy. */
  async function writable(trx: Db, actor: Actor, id: number, action: 'update' | 'delete' | 'restore') {
    const row = await liveRow(trx, id);
    if (!row || (action !== 'restore' && row.deleted_at !== null)) throw notFound();
    if (policy.scope && !(await find(trx, id, actor))) throw notFound();
    policy.authorize?.(actor, action, row);
    return row;
  }

  /** What narrows a list: everything but the page. */
  type Selection = Pick<ListQuery, 'search' | 'sort' | 'trashed'>;

  // The same conditions narrow the count (on the table alone: joins only add columns) and the rows.
  /** The search's condition, read once for both the count and the page. */
  const matching = (query: Selection) => (query.search ? searchCondition(db, def, query.search) : null);

  function narrow<S extends AnySelect<unknown>>(
    base: S,
    query: Selection,
    filters: Record<string, unknown>,
    matches: Expression<SqlBool> | null,
  ): S {
    let q = base as AnySelect<unknown>;
    if (query.trashed === 'only') q = q.where(column('deleted_at') as Expression<string | null>, 'is not', null);
    else if (query.trashed !== 'with') q = q.where(column('deleted_at') as Expression<string | null>, 'is', null);
    if (matches) q = q.where(matches);
    for (const [name, filter] of Object.entries(def.filters ?? {})) {
      const value = filters[name];
      if (value === undefined) continue;
      q =
        'apply' in filter
          ? (filter.apply(q as AnySelect<object>, value) as AnySelect<unknown>)
          : q.where(sql.ref(filter.column) as Expression<unknown>, '=', value);
    }
    return q as S;
  }

  /**
   * The records a list shows, narrowed to the actor's scope and in its order (id breaks ties, so
   * pages never overlap), without a page: the list takes one page of it, an export reads it all.
   */
  function ordered(
    actor: Actor,
    query: Selection,
    filters: Record<string, unknown>,
    matches: Expression<SqlBool> | null,
  ) {
    const { sortColumn, direction } = sortOf(actor, query);
    return scoped(narrow(base, query, filters, matches), actor)
      .orderBy(sql.ref(sortColumn), direction)
      .orderBy(column('id'), direction);
  }

  /** The list's sort column and direction, refused (422) when unknown or hidden from the actor. */
  function sortOf(actor: Actor, query: Selection) {
    const sort = query.sort ?? def.defaultSort;
    const desc = sort.startsWith('-');
    const name = desc ? sort.slice(1) : sort;
    policy.require?.(actor);
    const sortColumn = own(def.sortable, name);
    if (!sortColumn || policy.hiddenSorts?.(actor).includes(name)) {
      throw new FieldError({ sort: [{ key: 'validation.sort' }] });
    }
    return { sortColumn, direction: desc ? ('desc' as const) : ('asc' as const) };
  }

  /**
   * One page of `ordered`. Past the first page, in an order by the table's own column, the page's
   * ids are found first on the table alone (narrowed as its count is), and only those records are
   * read with their joins: page 50 read 1,000 products joined to their brand, category, … for 20.
   */
  function pageOf(
    actor: Actor,
    query: Selection,
    filters: Record<string, unknown>,
    matches: Expression<SqlBool> | null,
    offset: number,
    size: number,
  ) {
    const rows = ordered(actor, query, filters, matches);
    const { sortColumn, direction } = sortOf(actor, query);
    if (offset === 0 || !sortColumn.startsWith(`${def.table}.`)) return rows.limit(size).offset(offset);
    const ids = scoped(
      narrow(
        db.selectFrom(def.table as ResourceTable).select(column('id').as('id')) as AnySelect<unknown>,
        query,
        filters,
        matches,
      ),
      actor,
    )
      .orderBy(sql.ref(sortColumn), direction)
      .orderBy(column('id'), direction)
      .limit(size)
      .offset(offset);
    return rows.where(column('id') as Expression<number>, 'in', ids as never);
  }

  /**
   * The records of the search's rarest word that the list shows (scope, filters, deleted, the
   * other words checked per candidate), from the terms' index: `s0` is the driving word's term.
   */
  function driven(actor: Actor, query: Selection, filters: Record<string, unknown>, words: string[]) {
    const [, ...rest] = words;
    // biome-ignore lint/suspicious/noExplicitAny: the kit names its tables at run time
    const base = (db as any)
      .selectFrom(def.table)
      .innerJoin('search_terms as s0', (join: { onRef: (a: string, op: string, b: unknown) => unknown }) =>
        join.onRef('s0.record_id', '=', column('id')),
      )
      .where('s0.resource', '=', def.table) as AnySelect<unknown>;
    return scoped(narrow(base, query, filters, rest.length ? wordsCondition(db, def.table, rest) : null), actor);
  }

  /**
   * A searched list. A common word (`searchPlan`) in the default order (`sortKey`) is walked in the
   * index kept in that order: the terms with the word's leading characters (`lead`), with scope,
   * filters and the other words, up to `walkBound` past the page's end: fewer, they are all the
   * matches (the total is exact); more, the total is that bound, a lower bound ("more than 200").
   * Otherwise the matches are read up to TOTAL_CAP + 1 from the rarest word's terms: up to the cap
   * they are all known (their ids narrow the page, the total is exact); beyond, the total is the
   * cap, a lower bound, and another order of a common word sorts all its matches (correct, slow at a
   * million), as does a word of one character.
   */
  async function searchedList(
    actor: Actor,
    query: ListQuery,
    filters: Record<string, unknown>,
    extras: Record<string, unknown>,
    words: string[],
    common: boolean,
  ) {
    const [first] = words;
    const inRange = (q: AnySelect<unknown>) =>
      (q as AnySelect<{ id: number }>)
        .where(sql.ref('s0.term'), '>=', first)
        .where(sql.ref('s0.term'), '<', first + TOP);
    const offset = (query.page - 1) * query.per_page;
    const idsIn = (ids: number[]) =>
      ids.length ? sql<SqlBool>`${column('id')} in (${sql.join(ids)})` : sql<SqlBool>`1 = 0`;
    const listed = async (matches: Expression<SqlBool>, pageOffset: number, total: number, lowerBound: boolean) => {
      const page = (await pageOf(actor, query, filters, matches, pageOffset, query.per_page).execute()) as Q[];
      const rows = await complete(db, page, extras, actor);
      return { rows: rows.map((row) => present(actor, row)), total, lowerBound };
    };

    const sort = query.sort ?? def.defaultSort;
    const desc = sort.startsWith('-');
    const inOrder =
      def.sortKey && own(def.sortable, desc ? sort.slice(1) : sort) === def.sortKey && [...first].length >= LEAD;
    if (common && inOrder) {
      // the first matches walked are the page (a record whose several terms the word begins is
      // taken once); counted on past it to know whether there are more
      const bound = walkBound(offset + query.per_page);
      const direction = desc ? 'desc' : 'asc';
      const walked = (await inRange(driven(actor, query, filters, words))
        .where(sql.ref('s0.lead'), '=', leadOf(first))
        .select([sql<number>`s0.record_id`.as('record_id'), sql<string>`s0.sort_key`.as('sort_key')])
        .distinct()
        .orderBy(sql.ref('s0.sort_key'), direction)
        .orderBy(sql.ref('s0.record_id'), direction)
        // written into the text, not bound: told only "limit ?", SQLite (stat4) read a Khmer word's
        // whole range and sorted it (1.3 s for "មី" at 1,000,000 products); its values are few
        .limit(sql.lit(bound + 1))
        .execute()) as { record_id: number }[];
      const ids = walked.slice(offset, offset + query.per_page).map((r) => Number(r.record_id));
      const more = walked.length > bound;
      return listed(idsIn(ids), 0, more ? bound : walked.length, more);
    }

    const candidates = async (distinct: boolean) => {
      let q = inRange(driven(actor, query, filters, words)).select(sql<number>`s0.record_id`.as('record_id'));
      if (distinct) q = q.distinct();
      // twice the cap: a name's words come again in its spaceless term ("noodles 12" → "noodles12")
      const rows = (await q.limit(2 * (TOTAL_CAP + 1)).execute()) as { record_id: number }[];
      return { full: rows.length > 2 * TOTAL_CAP, ids: [...new Set(rows.map((r) => Number(r.record_id)))] };
    };
    let found = await candidates(false);
    // records with many terms the word begins came many times: counted again, each once
    if (found.full && found.ids.length <= TOTAL_CAP) found = await candidates(true);
    if (found.ids.length <= TOTAL_CAP) return listed(idsIn(found.ids), offset, found.ids.length, false);
    return listed(sql<SqlBool>`${column('id')} in (${matchingIds(db, def.table, words)})`, offset, TOTAL_CAP, true);
  }

  async function checkWrite(trx: Db, actor: Actor, input: z.output<I>, existing: Record<string, unknown> | null) {
    const allowed = policy.write ? policy.write(actor, input, existing) : input;
    await check(trx, allowed, existing ? (existing.id as number) : null);
    return allowed;
  }

  return {
    /**
     * What is wrong with each of many inputs by the database's rules, the ones create and update
     * apply (a bulk writer, the product import, checks its rows with it): field → message key.
     */
    problems: problemsOf,

    /**
     * The records a list shows to the actor, narrowed and in its order, without a page: an export
     * reads it in chunks. Each chunk goes through `complete`, then each record through `present`.
     */
    async select(actor: Actor, query: Selection, filters: Record<string, unknown>): Promise<AnySelect<Q>> {
      return ordered(actor, query, filters, await matching(query));
    },

    /** Rows as the definition completes them (see ResourceDefinition.complete). */
    complete,

    /** A record as the actor may see it (see ResourcePolicy.present). */
    present,

    async list(actor: Actor, query: ListQuery, filters: Record<string, unknown>, extras: Record<string, unknown> = {}) {
      if (query.search) {
        const { words, common } = await searchPlan(db, def.table, searchWords(query.search));
        if (words.length) return searchedList(actor, query, filters, extras, words, common);
      }
      const matches = await matching(query);
      const page = (await pageOf(
        actor,
        query,
        filters,
        matches,
        (query.page - 1) * query.per_page,
        query.per_page,
      ).execute()) as Q[];
      const rows = await complete(db, page, extras, actor);
      const total = await countOf(
        db,
        def.table,
        scoped(
          narrow(
            db.selectFrom(def.table as ResourceTable).select(sql<number>`count(*)`.as('n')) as AnySelect<{ n: number }>,
            query,
            filters,
            matches,
          ),
          actor,
        ),
      );
      return { rows: rows.map((row) => present(actor, row)), total, lowerBound: false };
    },

    /**
     * The records changed after a cursor (`<updated_at>~<id>`), in (updated_at, id) order, deleted
     * ones too: the list's scope and presentation, a page of them and the cursor of the last.
     */
    async changes(actor: Actor, query: ChangesQuery) {
      policy.require?.(actor);
      let q = scoped(base, actor) as AnySelect<unknown>;
      if (query.after) {
        const cut = query.after.lastIndexOf('~');
        const at = query.after.slice(0, cut);
        const id = Number(query.after.slice(cut + 1));
        const updated = column('updated_at') as Expression<string>;
        q = q.where((eb) => eb.or([eb(updated, '>', at), eb.and([eb(updated, '=', at), eb(column('id'), '>', id)])]));
      }
      const page = (await q
        .orderBy(column('updated_at'), 'asc')
        .orderBy(column('id'), 'asc')
        .limit(query.per_page + 1)
        .execute()) as (Q & { updated_at: string; id: number })[];
      const more = page.length > query.per_page;
      if (more) page.pop();
      const rows = await complete(db, page, {}, actor);
      const last = page.at(-1);
      return {
        data: rows.map((row) => present(actor, row)),
        next: last ? changesCursor(last) : (query.after ?? null),
        more,
      };
    },

    async show(actor: Actor, id: number, extras: Record<string, unknown> = {}): Promise<Output> {
      policy.require?.(actor);
      const record = await find(db, id, actor, extras);
      if (!record) throw notFound();
      return present(actor, record);
    },

    create(actor: Actor, input: z.output<I>): Promise<Output> {
      return write(actor, async (trx) => {
        const allowed = await checkWrite(trx, actor, input, null);
        const at = now();
        const inserted = await trx
          .insertInto(def.table as ResourceTable)
          .values({ ...stored(allowed), created_at: at, updated_at: at } as never)
          .returning(sql<number>`id`.as('id'))
          .executeTakeFirstOrThrow();
        await def.created?.(trx, actor, (inserted as Row).id, allowed);
        if (def.trail) {
          const id = (inserted as Row).id;
          await def.trail(trx, actor, { action: 'create', id, before: null, after: (await liveRow(trx, id))! });
        }
        await indexRecords(trx, def, [(inserted as Row).id]);
        return present(actor, (await find(trx, (inserted as Row).id)) as Read<Output>);
      });
    },

    update(actor: Actor, id: number, input: z.output<I>): Promise<Output> {
      return write(actor, async (trx) => {
        const row = await writable(trx, actor, id, 'update');
        const allowed = await checkWrite(trx, actor, input, row);
        await trx
          .updateTable(def.table as ResourceTable)
          .set({ ...stored(allowed), updated_at: now() } as never)
          .where(sql.ref('id') as Expression<number>, '=', id)
          .execute();
        await def.audit?.(trx, actor, row, allowed);
        if (def.trail)
          await def.trail(trx, actor, { action: 'update', id, before: row, after: (await liveRow(trx, id))! });
        await indexRecords(trx, def, [id]);
        return present(actor, (await find(trx, id)) as Read<Output>);
      });
    },

    remove(actor: Actor, id: number): Promise<Output> {
      return write(actor, async (trx) => {
        const before = await writable(trx, actor, id, 'delete');
        const refusal = await def.guardDelete?.(trx, id);
        if (refusal) throw new AppError(409, refusal);
        for (const dependent of (await def.dependents?.(trx, id)) ?? []) {
          if (dependent.count > 0) {
            throw new AppError(409, 'resource.in_use', {
              entity: { key: def.entity },
              count: dependent.count,
              dependents: { key: dependent.entity },
            });
          }
        }
        const at = now();
        await trx
          .updateTable(def.table as ResourceTable)
          .set({ deleted_at: at, updated_at: at } as never)
          .where(sql.ref('id') as Expression<number>, '=', id)
          .execute();
        if (def.trail) await def.trail(trx, actor, { action: 'delete', id, before, after: (await liveRow(trx, id))! });
        return present(actor, (await find(trx, id)) as Read<Output>);
      });
    },

    /** Brings a deleted record back, unless a live record has taken one of its unique values. */
    restore(actor: Actor, id: number): Promise<Output> {
      return write(actor, async (trx) => {
        const row = await writable(trx, actor, id, 'restore');
        if (row.deleted_at !== null) {
          refuse((await uniqueProblems(trx, [{ input: row, id }]))[0]);
          await trx
            .updateTable(def.table as ResourceTable)
            .set({ deleted_at: null, updated_at: now() } as never)
            .where(sql.ref('id') as Expression<number>, '=', id)
            .execute();
          if (def.trail)
            await def.trail(trx, actor, { action: 'restore', id, before: row, after: (await liveRow(trx, id))! });
        }
        return present(actor, (await find(trx, id)) as Read<Output>);
      });
    },
  };
}

/**
 * A definition's `filter[<name>]` query parameters (zod shape) and how to read their values back
 * from a parsed query: the list and anything else narrowed like it (an export) take the same ones.
 */
export function listFilters(def: { filters?: Record<string, Filter> }) {
  const names = Object.keys(def.filters ?? {});
  return {
    shape: Object.fromEntries(
      Object.entries(def.filters ?? {}).map(([name, f]) => [`filter[${name}]`, f.schema.optional()]),
    ) as Record<string, z.ZodOptional<z.ZodType>>,
    read: (query: Record<string, unknown>) => Object.fromEntries(names.map((name) => [name, query[`filter[${name}]`]])),
  };
}

function pageLink(request: FastifyRequest, page: number): string {
  const [pathname, search = ''] = request.url.split('?');
  const params = new URLSearchParams(search);
  params.set('page', String(page));
  return `${pathname}?${params.toString()}`;
}

/** One page in Laravel's paginator shape (`data`, `meta`, `links`): the kit's lists and any other. */
export function pageAnswer<T>(
  request: FastifyRequest,
  query: { page: number; per_page: number },
  rows: T[],
  total: number,
  /** `total` is a lower bound (a search counted up to TOTAL_CAP): more pages may follow the last. */
  lowerBound = false,
) {
  const lastPage = Math.max(1, Math.ceil(total / query.per_page));
  const from = rows.length ? (query.page - 1) * query.per_page + 1 : null;
  return {
    data: rows,
    meta: {
      current_page: query.page,
      per_page: query.per_page,
      total,
      ...(lowerBound && { total_is_lower_bound: true }),
      last_page: lastPage,
      from,
      to: from === null ? null : from + rows.length - 1,
    },
    links: {
      first: pageLink(request, 1),
      last: pageLink(request, lastPage),
      prev: query.page > 1 ? pageLink(request, query.page - 1) : null,
      next:
        query.page < lastPage || (lowerBound && rows.length === query.per_page)
          ? pageLink(request, query.page + 1)
          : null,
    },
  };
}

/**
 * Registers the six routes of a resource, each declaring its permission. The schemas are zod, so
 * the same compilers validate and serialize them as every other route; the handlers are typed by
 * the definition rather than by the type provider, which cannot follow generic schemas.
 */
export function registerResource<
  T extends ResourceTable,
  I extends z.ZodType,
  O extends z.ZodType<Row>,
  Q extends Row = Read<z.infer<O>>,
>(app: FastifyInstance, db: Db, def: ResourceDefinition<T, I, O, Q>) {
  const service = resourceService(db, def);
  const filters = listFilters(def);
  const query = listQuery.extend(filters.shape).extend(def.extras ?? {});
  const extrasOf = (request: FastifyRequest) => {
    const q = (request.query ?? {}) as Record<string, unknown>;
    return Object.fromEntries(Object.keys(def.extras ?? {}).map((name) => [name, q[name]]));
  };
  const tags = [def.resource];
  const message = (request: FastifyRequest, key: MessageKey) =>
    say(request, key, { entity: translate(def.entity, request.locale) });
  const permission: Record<KitRoute, string> = {
    list: 'list',
    show: 'view',
    create: 'create',
    update: 'update',
    delete: 'delete',
    restore: 'restore',
  };
  const access = (route: KitRoute) => ({
    access: def.access?.[route] ?? (`${def.resource}.${permission[route]}` as Permission),
  });
  const idOf = (request: FastifyRequest) => (request.params as { id: number }).id;
  const body = (request: FastifyRequest) => request.body as z.output<I>;
  const has = (route: KitRoute) => !def.routes || def.routes.includes(route);

  if (has('list'))
    app.get(
      def.path,
      { config: access('list'), schema: { tags, querystring: query, response: { 200: paginated(def.output) } } },
      async (request) => {
        const q = request.query as ListQuery & Record<string, unknown>;
        const { rows, total, lowerBound } = await service.list(authOf(request), q, filters.read(q), extrasOf(request));
        return pageAnswer(request, q, rows, total, lowerBound);
      },
    );

  if (def.changes)
    app.get(
      `${def.path}/changes`,
      {
        config: access('list'),
        schema: { tags, querystring: changesQuery, response: { 200: changesPage(def.output) } },
      },
      async (request) => service.changes(authOf(request), request.query as ChangesQuery),
    );

  if (has('show'))
    app.get(
      `${def.path}/:id`,
      {
        config: access('show'),
        schema: {
          tags,
          params: idParams,
          ...(def.extras && { querystring: z.object(def.extras) }),
          response: { 200: single(def.output) },
        },
      },
      async (request) => ({ data: await service.show(authOf(request), idOf(request), extrasOf(request)) }),
    );

  if (has('create'))
    app.post(
      def.path,
      { config: access('create'), schema: { tags, body: def.input, response: { 201: written(def.output) } } },
      async (request, reply) => {
        const data = await service.create(authOf(request), body(request));
        return reply.code(201).send({ message: await message(request, 'resource.created'), data });
      },
    );

  if (has('update'))
    app.put(
      `${def.path}/:id`,
      {
        config: access('update'),
        schema: { tags, params: idParams, body: def.input, response: { 200: written(def.output) } },
      },
      async (request) => ({
        message: await message(request, 'resource.updated'),
        data: await service.update(authOf(request), idOf(request), body(request)),
      }),
    );

  if (has('delete'))
    app.delete(
      `${def.path}/:id`,
      { config: access('delete'), schema: { tags, params: idParams, response: { 200: written(def.output) } } },
      async (request) => ({
        message: await message(request, 'resource.deleted'),
        data: await service.remove(authOf(request), idOf(request)),
      }),
    );

  if (has('restore'))
    app.post(
      `${def.path}/:id/restore`,
      { config: access('restore'), schema: { tags, params: idParams, response: { 200: written(def.output) } } },
      async (request) => ({
        message: await message(request, 'resource.restored'),
        data: await service.restore(authOf(request), idOf(request)),
      }),
    );

  return service;
}
