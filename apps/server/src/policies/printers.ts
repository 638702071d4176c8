import type { Printer, printerInput } from '@depot/contracts';
import type { z } from 'zod';
import { notFound } from '../http/errors.ts';
import type { ResourcePolicy } from '../kit/resource.ts';
import { type Actor, assertStoreInput, covers, storeScoped } from './policy.ts';

type Input = z.output<typeof printerInput>;

/**
 * A store's receipt printers are that store's: listed, shown, written and printed on only by those
 * who cover the store (a cashier of one store neither sees nor uses another's printers). Writes need
 * `stores.update` besides (the route's permission); a printer moved to a store is a store the actor
 * covers (422 on `store_id`).
 */
export const printerPolicy: ResourcePolicy<Printer, Input> = {
  scope: storeScoped('printers.store_id'),
  write(actor: Actor, input: Input): Input {
    assertStoreInput(actor, 'store_id', input.store_id);
    return input;
  },
};

/** A printer the actor may print on or open the drawer of: one of a store they cover, else 404. */
export function assertPrinterCovered(actor: Actor, printer: { store_id: number }): void {
  if (!covers(actor, printer.store_id)) throw notFound();
}
