import type { z } from 'zod';
import type { Db } from '../db/database.ts';
import { changesOf } from './changes.ts';
import { kitOf } from './context.ts';
import type { Read, ResourceDefinition, ResourceTable, Row } from './definition.ts';
import { listing } from './list.ts';
import { writing } from './writes.ts';

/** The service behind a resource's routes. Tests and other modules may call it directly. */
export function resourceService<
  T extends ResourceTable,
  I extends z.ZodType,
  O extends z.ZodType<Row>,
  Q extends Row = Read<z.infer<O>>,
>(db: Db, def: ResourceDefinition<T, I, O, Q>) {
  const kit = kitOf(db, def);
  const { select, list, show } = listing(kit);
  const { problems, create, update, remove, restore } = writing(kit);
  return {
    problems,
    select,
    /** Rows as the definition completes them (see ResourceDefinition.complete). */
    complete: kit.complete,
    /** A record as the actor may see it (see ResourcePolicy.present). */
    present: kit.present,
    list,
    changes: changesOf(kit),
    show,
    create,
    update,
    remove,
    restore,
  };
}
