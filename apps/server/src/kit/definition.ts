import type { MessageKey, Permission, Resource } from '@depot/contracts';
import { type Expression, type Selectable, type SelectQueryBuilder, sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../db/database.ts';
import type { DB } from '../db/schema.ts';
import type { Actor, Scope } from '../policies/policy.ts';

/** Tables the kit can serve: an integer id, timestamps and soft delete. */
export type ResourceTable = {
  [K in keyof DB]: DB[K] extends { deleted_at: string | null; created_at: string; updated_at: string } ? K : never;
}[keyof DB];

export type Row = { id: number };
export type KitRoute = 'list' | 'show' | 'create' | 'update' | 'delete' | 'restore';
// The kit composes queries whose tables it only knows by name; definitions keep their own types.
// biome-ignore lint/suspicious/noExplicitAny: a definition's query may join any tables
export type AnySelect<O> = SelectQueryBuilder<DB, any, O>;

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
  /**
   * Refuses a write of an existing record (by throwing): a store the actor does not cover, a user
   * stronger than them. `trx` is the write's transaction, for a rule that reads the database.
   */
  authorize?: (
    actor: Actor,
    action: 'update' | 'delete' | 'restore',
    row: Record<string, unknown>,
    trx: Db,
  ) => void | Promise<void>;
  /**
   * The input as the actor may write it (a field they may not see keeps its stored value), or a
   * refusal (a field they may not change). `existing` is the stored row, null on create. Before
   * the database's rules (`check`).
   */
  write?: (actor: Actor, input: In, existing: Record<string, unknown> | null, trx: Db) => In | Promise<In>;
  /**
   * Refuses (by throwing) an input the database's rules accept but the actor may not write: roles
   * or permissions beyond their own, a store they do not cover. After `check`, before `prepare`.
   */
  admit?: (actor: Actor, input: In, existing: Record<string, unknown> | null, trx: Db) => Promise<void>;
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
  /**
   * The stored values of a write when making them takes work, in place of `toRow`: a password
   * checked and hashed. After the checks and the policy, in the write's transaction; `existing`
   * is the stored row, null on create.
   */
  prepare?: (trx: Db, input: z.output<I>, existing: Record<string, unknown> | null) => Promise<Record<string, unknown>>;
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
  /** The API description's summary of some routes, where the generated one says too little. */
  summaries?: Partial<Record<KitRoute, string>>;
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
   * What every write of a record does besides its row, in its transaction, once the row is written:
   * the audit trail's lines (a printer, a store's payee account), rows of other tables (a user's
   * stores and roles), sessions ended, events emitted. A refusal here undoes the write.
   */
  written?: (trx: Db, actor: Actor, change: WriteChange<z.output<I>>) => Promise<void>;
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

/** A write of a record (ResourceDefinition.written): the stored row before (null on create) and after. */
export interface WriteChange<In> {
  action: 'create' | 'update' | 'delete' | 'restore';
  id: number;
  before: Record<string, unknown> | null;
  after: Record<string, unknown>;
  /** What was written: the input as the policy allowed it; null on delete and restore. */
  input: In | null;
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
