import { resourceKey } from '../../kit/queries.ts';

/** Whose account: a customer's or a supplier's. */
export type Party = 'customers' | 'suppliers';

export function accountKey(party: Party, id: number) {
  return resourceKey(party, id, 'credit');
}
