import type { Store, storeInput } from '@depot/contracts';
import type { z } from 'zod';
import { AppError } from '../http/errors.ts';
import type { Read } from '../kit/resource.ts';
import { type Actor, can, covers } from './policy.ts';
import { ADMIN_PERMISSIONS } from './users.ts';

type Input = z.output<typeof storeInput>;

/** A store's KHQR payee account: where the customers' KHQR payments go. */
export const PAYEE_FIELDS = [
  'khqr_account_id',
  'khqr_merchant_name',
  'khqr_merchant_city',
  'khqr_merchant_id',
  'khqr_acquiring_bank',
] as const;

/**
 * Whether the actor may change a store's payee account: an administrator (policies/users.ts, whoever
 * holds users.update and roles.update), not merely whoever may update the store. A manager who
 * could point the account at their own would take every KHQR payment of the store.
 */
export function mayChangePayee(actor: Actor): boolean {
  return ADMIN_PERMISSIONS.every((permission) => can(actor, permission));
}

/** The payee fields of an input or a stored row, each null when empty. */
export function payeeOf(values: Record<string, unknown> | null): Record<string, unknown> {
  return Object.fromEntries(PAYEE_FIELDS.map((field) => [field, values?.[field] ?? null]));
}

/**
 * Stores: every user sees the list (a transfer's destination is picked from it; names and
 * addresses are no secret), but changing, deleting or restoring a store is for those who cover it,
 * and changing its payee account (on create or update) for an administrator (403 otherwise, nothing
 * written). Each record says whether the reader may change the account (`abilities.payee`).
 */
export const storePolicy = {
  authorize(actor: Actor, _action: 'update' | 'delete' | 'restore', row: Record<string, unknown>): void {
    if (!covers(actor, row.id as number)) throw new AppError(403, 'policy.store');
  },
  write(actor: Actor, input: Input, existing: Record<string, unknown> | null): Input {
    const changed = JSON.stringify(payeeOf(input)) !== JSON.stringify(payeeOf(existing));
    if (changed && !mayChangePayee(actor)) throw new AppError(403, 'stores.payee_admin');
    return input;
  },
  present(actor: Actor, record: Read<Store>): Store {
    return { ...record, abilities: { payee: mayChangePayee(actor) } };
  },
};
