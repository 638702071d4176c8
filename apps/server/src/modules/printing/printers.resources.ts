import { type MessageKey, printer, printerInput } from '@depot/contracts';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { FieldError } from '../../http/errors.ts';
import {
  type NetworkGuard,
  NetworkRefused,
  networkGuard,
  PRINTER_PORTS,
  parsePorts,
} from '../../http/network-guard.ts';
import { findLive, type ResourceDefinition } from '../../kit/resource.ts';
import { printerPolicy } from '../../policies/printers.ts';
import { auditWho, changes, recordAudit } from '../audit/audit.ts';
import { printerRefusal } from './printing.service.ts';

/** A printer's fields the audit trail keeps. */
const PRINTER_AUDITED = ['store_id', 'name', 'host', 'port', 'paper', 'drawer_kick', 'drawer_pin', 'status'] as const;

/** The guard of the default configuration (printer ports, no loopback): what a server without options uses. */
export const defaultPrinterGuard = networkGuard({ ports: parsePorts(PRINTER_PORTS) });

/**
 * A store's network receipt printers. Listed with `printers.list` (the till picks one of its
 * store's); written by whoever may update stores, since a printer is part of a store's set-up.
 * Scoped by the policy module's coverage (policies/printers.ts): another store's printers do not
 * exist for a user.
 */
export const printers = printersResource(defaultPrinterGuard);

/**
 * The printers' definition with the network guard the server connects through
 * (http/network-guard.ts): an address or a port it would refuse is refused when the printer is
 * saved, on its field (422), as well as when it is used.
 */
export function printersResource(
  guard: NetworkGuard,
): ResourceDefinition<'printers', typeof printerInput, typeof printer> {
  return {
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
      try {
        await guard.check(input.host, input.port);
      } catch (error) {
        if (!(error instanceof NetworkRefused)) throw error;
        const refusal = printerRefusal(error, guard);
        throw new FieldError({
          ...Object.fromEntries(Object.entries(problems).map(([field, key]) => [field, [{ key }]])),
          [error.reason === 'port' ? 'port' : 'host']: [{ key: refusal.key, params: refusal.params }],
        });
      }
      return problems;
    },
    policy: printerPolicy,
    // every write of a printer is audited: where the server connects, and who aimed it there
    written: async (trx, actor, { action, id, before, after }) => {
      const fields = (row: Record<string, unknown> | null) =>
        row && Object.fromEntries(PRINTER_AUDITED.map((f) => [f, row[f]]));
      const diff = action === 'update' ? changes(fields(before)!, fields(after)!) : null;
      if (diff && !diff.changed) return;
      const done = ({ create: 'created', update: 'updated', delete: 'deleted', restore: 'restored' } as const)[action];
      await recordAudit(trx, auditWho(actor), {
        action: `printer.${done}`,
        subject: { type: 'printer', id },
        before: diff ? diff.before : fields(before),
        after: diff ? diff.after : fields(after),
      });
    },
    access: { create: 'stores.update', update: 'stores.update', delete: 'stores.update', restore: 'stores.update' },
  };
}
