import { type MessageKey, printer, printerInput } from '@depot/contracts';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { findLive, type ResourceDefinition } from '../../kit/resource.ts';
import { printerPolicy } from '../../policies/printers.ts';

/**
 * A store's network receipt printers. Listed with `printers.list` (the till picks one of its
 * store's); written by whoever may update stores, since a printer is part of a store's set-up.
 * Scoped by the policy module's coverage (policies/printers.ts): another store's printers do not
 * exist for a user.
 */
export const printers: ResourceDefinition<'printers', typeof printerInput, typeof printer> = {
  table: 'printers',
  path: '/api/printers',
  resource: 'printers',
  entity: 'entity.printer',
  input: printerInput,
  output: printer,
  query: (db: Db) =>
    db
      .selectFrom('printers')
      .innerJoin('stores', 'stores.id', 'printers.store_id')
      .select([
        'printers.id',
        'printers.store_id',
        'stores.name as store_name',
        'printers.name',
        'printers.host',
        'printers.port',
        'printers.paper',
        sql<boolean>`printers.drawer_kick = 1`.as('drawer_kick'),
        'printers.drawer_pin',
        'printers.status',
        'printers.created_at',
        'printers.updated_at',
        'printers.deleted_at',
      ]),
  searchable: ['printers.name', 'printers.host'],
  sortable: { name: 'printers.name', created_at: 'printers.created_at' },
  defaultSort: 'name',
  filters: {
    store_id: { column: 'printers.store_id', schema: z.coerce.number().int().min(1) },
    status: { column: 'printers.status', schema: z.enum(['active', 'inactive']) },
  },
  toRow: (input) => ({ ...input, drawer_kick: input.drawer_kick ? 1 : 0 }),
  check: async (db, input) => {
    const problems: Record<string, MessageKey> = {};
    if (!(await findLive(db, 'stores', input.store_id))) problems.store_id = 'validation.exists';
    return problems;
  },
  policy: printerPolicy,
  access: { create: 'stores.update', update: 'stores.update', delete: 'stores.update', restore: 'stores.update' },
};
