import { type Expression, sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../db/database.ts';
import type { Actor } from '../policies/policy.ts';
import type { AnySelect, Read, ResourceDefinition, ResourceTable, Row } from './definition.ts';

/**
 * What every part of a resource's service shares (list.ts, writes.ts, changes.ts): the definition,
 * its query built once, the policy's scope and presentation, and reading one record.
 */
export function kitOf<
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

  /**
   * One record, completed for the actor; within their scope unless `inScope` is false (a write's
   * answer: the record the writer was allowed to write).
   */
  async function find(
    trx: Db,
    id: number,
    actor?: Actor,
    extras?: Record<string, unknown>,
    inScope = true,
  ): Promise<Read<Output> | undefined> {
    const query = rowsOf(trx).where(column('id') as Expression<number>, '=', id);
    const row = (await (actor && inScope ? scoped(query, actor) : query).executeTakeFirst()) as Q | undefined;
    return row && (await complete(trx, [row], extras, actor ?? null))[0];
  }

  /** Whether the record is within the actor's scope (read, not completed: a write's first check). */
  async function inScope(trx: Db, id: number, actor: Actor): Promise<boolean> {
    const query = rowsOf(trx).where(column('id') as Expression<number>, '=', id);
    return (await scoped(query, actor).executeTakeFirst()) !== undefined;
  }

  return { db, def, column, base, rowsOf, policy, scoped, present, complete, find, inScope };
}

/** The shared parts of one resource's service (see kitOf). */
export type Kit<T extends ResourceTable, I extends z.ZodType, O extends z.ZodType<Row>, Q extends Row> = ReturnType<
  typeof kitOf<T, I, O, Q>
>;
