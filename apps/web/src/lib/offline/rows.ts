import type { ComboDetail, Customer } from '@depot/contracts';

/** The rows the till keeps of its catalogue (localCatalogue.ts, localLists.ts), as its database (outbox.ts) holds them. */

/** A combo as the till sells it: its items (the detail's), no cost. */
export type LocalCombo = Omit<ComboDetail, 'total_cost_cents' | 'profit_cents' | 'margin_bp' | 'items'> & {
  items: Omit<ComboDetail['items'][number], 'cost_cents'>[];
};
/** What the till's customer picker needs of a customer, and its addresses (a delivery offline; absent if kept before). */
export type LocalCustomer = Pick<
  Customer,
  'id' | 'name' | 'phone' | 'status' | 'is_walk_in' | 'customer_group_id' | 'updated_at' | 'deleted_at' | 'created_at'
> &
  Partial<Pick<Customer, 'address' | 'shipping_address'>>;
