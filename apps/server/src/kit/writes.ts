import type { MessageKey } from '@depot/contracts';
import { type Expression, sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../db/database.ts';
import { now } from '../db/database.ts';
import { transaction } from '../db/transaction.ts';
import { AppError, FieldError, notFound } from '../http/errors.ts';
import type { Actor } from '../policies/policy.ts';
import type { Kit } from './context.ts';
import {
  type CheckItem,
  inBatches,
  type Problems,
  type Read,
  type ResourceTable,
  type Row,
  type WriteChange,
} from './definition.ts';
import { indexRecords } from './search.ts';
import { tableChanged } from './totals.ts';

/**
 * A resource's writes: create, update, delete and restore, each in a transaction, checked against
 * the database's rules and the policy, with the definition's hooks (prepare, created, audit, written).
 */
export function writing<T extends ResourceTable, I extends z.ZodType, O extends z.ZodType<Row>, Q extends Row>(
  kit: Kit<T, I, O, Q>,
) {
  const { db, def, policy, present, find, inScope } = kit;
  type Output = z.infer<O>;
  const stored = (input: z.output<I>) => def.toRow?.(input) ?? (input as Record<string, unknown>);

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
    if (policy.scope && !(await inScope(trx, id, actor))) throw notFound();
    await policy.authorize?.(actor, action, row, trx);
    return row;
  }

  /**
   * The input as it is stored: shaped by the policy, checked against the database's rules, admitted
   * by the policy, then prepared (`prepare`, else `toRow`).
   */
  async function checkWrite(trx: Db, actor: Actor, input: z.output<I>, existing: Record<string, unknown> | null) {
    const allowed = policy.write ? await policy.write(actor, input, existing, trx) : input;
    await check(trx, allowed, existing ? (existing.id as number) : null);
    await policy.admit?.(actor, allowed, existing, trx);
    const values = def.prepare ? await def.prepare(trx, allowed, existing) : stored(allowed);
    return { allowed, values };
  }

  /** The record as the writer sees it, with what they may now do to it. */
  async function answer(trx: Db, actor: Actor, id: number): Promise<Output> {
    return present(actor, (await find(trx, id, actor, {}, false)) as Read<Output>);
  }

  async function written(trx: Db, actor: Actor, change: Omit<WriteChange<z.output<I>>, 'after'>) {
    if (def.written) await def.written(trx, actor, { ...change, after: (await liveRow(trx, change.id))! });
  }

  return {
    /**
     * What is wrong with each of many inputs by the database's rules, the ones create and update
     * apply (a bulk writer, the product import, checks its rows with it): field → message key.
     */
    problems: problemsOf,

    create(actor: Actor, input: z.output<I>): Promise<Output> {
      return write(actor, async (trx) => {
        const { allowed, values } = await checkWrite(trx, actor, input, null);
        const at = now();
        const { id } = (await trx
          .insertInto(def.table as ResourceTable)
          .values({ ...values, created_at: at, updated_at: at } as never)
          .returning(sql<number>`id`.as('id'))
          .executeTakeFirstOrThrow()) as Row;
        await def.created?.(trx, actor, id, allowed);
        await written(trx, actor, { action: 'create', id, before: null, input: allowed });
        await indexRecords(trx, def, [id]);
        return answer(trx, actor, id);
      });
    },

    update(actor: Actor, id: number, input: z.output<I>): Promise<Output> {
      return write(actor, async (trx) => {
        const row = await writable(trx, actor, id, 'update');
        const { allowed, values } = await checkWrite(trx, actor, input, row);
        await trx
          .updateTable(def.table as ResourceTable)
          .set({ ...values, updated_at: now() } as never)
          .where(sql.ref('id') as Expression<number>, '=', id)
          .execute();
        await def.audit?.(trx, actor, row, allowed);
        await written(trx, actor, { action: 'update', id, before: row, input: allowed });
        await indexRecords(trx, def, [id]);
        return answer(trx, actor, id);
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
        await written(trx, actor, { action: 'delete', id, before, input: null });
        return answer(trx, actor, id);
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
          await written(trx, actor, { action: 'restore', id, before: row, input: null });
        }
        return answer(trx, actor, id);
      });
    },
  };
}
