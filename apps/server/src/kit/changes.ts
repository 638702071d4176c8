import { type ChangesQuery, changesCursor } from '@depot/contracts';
import type { Expression } from 'kysely';
import type { z } from 'zod';
import type { Actor } from '../policies/policy.ts';
import type { Kit } from './context.ts';
import type { AnySelect, ResourceTable, Row } from './definition.ts';

/**
 * The records changed after a cursor (`<updated_at>~<id>`), in (updated_at, id) order, deleted
 * ones too: the list's scope and presentation, a page of them and the cursor of the last.
 */
export function changesOf<T extends ResourceTable, I extends z.ZodType, O extends z.ZodType<Row>, Q extends Row>(
  kit: Kit<T, I, O, Q>,
) {
  const { db, column, base, policy, scoped, present, complete } = kit;
  return async function changes(actor: Actor, query: ChangesQuery) {
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
  };
}
