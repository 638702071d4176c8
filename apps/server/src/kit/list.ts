import type { ListQuery } from '@depot/contracts';
import { type Expression, type SqlBool, sql } from 'kysely';
import type { z } from 'zod';
import { FieldError, notFound } from '../http/errors.ts';
import { own } from '../http/own.ts';
import type { Actor } from '../policies/policy.ts';
import type { Kit } from './context.ts';
import type { AnySelect, ResourceTable, Row } from './definition.ts';
import {
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
import { countOf } from './totals.ts';

/** What narrows a list: everything but the page. */
export type Selection = Pick<ListQuery, 'search' | 'sort' | 'trashed'>;

/** A resource's reads: its list (searched or not), the same records for an export, and one record. */
export function listing<T extends ResourceTable, I extends z.ZodType, O extends z.ZodType<Row>, Q extends Row>(
  kit: Kit<T, I, O, Q>,
) {
  const { db, def, column, base, policy, scoped, present, complete, find } = kit;
  type Output = z.infer<O>;

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
        // written into the text, not bound: told only "limit ?", SQLite (stat4) read a common Khmer word's
        // whole range and sorted it before taking a page; its values are few
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

  return {
    /**
     * The records a list shows to the actor, narrowed and in its order, without a page: an export
     * reads it in chunks. Each chunk goes through `complete`, then each record through `present`.
     */
    async select(actor: Actor, query: Selection, filters: Record<string, unknown>): Promise<AnySelect<Q>> {
      return ordered(actor, query, filters, await matching(query));
    },

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

    async show(actor: Actor, id: number, extras: Record<string, unknown> = {}): Promise<Output> {
      policy.require?.(actor);
      const record = await find(db, id, actor, extras);
      if (!record) throw notFound();
      return present(actor, record);
    },
  };
}
