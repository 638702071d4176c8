import { AppError } from '../http/errors.ts';
import { type Actor, covers } from './policy.ts';

/**
 * Stores: every user sees the list (a transfer's destination is picked from it; names and
 * addresses are no secret), but changing, deleting or restoring a store is for those who cover it.
 */
export const storePolicy = {
  authorize(actor: Actor, _action: 'update' | 'delete' | 'restore', row: Record<string, unknown>): void {
    if (!covers(actor, row.id as number)) throw new AppError(403, 'policy.store');
  },
};
