import { AppError } from '../http/errors.ts';
import { type Actor, can } from './policy.ts';

/**
 * Wholesale prices: the price lists and the customer groups are every store's (not scoped by
 * coverage). Writing a price-list row changes what goods sell for, so it needs `prices.update`
 * besides `price_lists.<action>`; putting a customer into another group changes what they pay, so
 * it needs `prices.update` besides `customers.update` (a new customer may be given a group by
 * whoever may create customers only when they may change prices too).
 */
export const priceListPolicy = {
  write<In>(actor: Actor, input: In): In {
    if (!can(actor, 'prices.update')) throw new AppError(403, 'policy.prices');
    return input;
  },
  authorize(actor: Actor): void {
    if (!can(actor, 'prices.update')) throw new AppError(403, 'policy.prices');
  },
};

/** A customer's group changes only with prices.update; anything else about them is customers.update's. */
export function customerGroupWrite<In extends { customer_group_id: number | null }>(
  actor: Actor,
  input: In,
  existing: Record<string, unknown> | null,
): In {
  const stored = existing?.customer_group_id == null ? null : Number(existing.customer_group_id);
  if (input.customer_group_id !== stored && !can(actor, 'prices.update')) throw new AppError(403, 'policy.prices');
  return input;
}
