import {
  DISCOUNT_SCOPES,
  DISCOUNT_TYPES,
  type Discount,
  discount,
  discountInput,
  type MessageKey,
  RECORD_STATUSES,
  todayInCambodia,
} from '@depot/contracts';
import { type Expression, type SqlBool, sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { findLive, type ResourceDefinition } from '../../kit/resource.ts';

const id = z.coerce.number().int().min(1);

/** Active, and `day` within its dates (both ends included; an open end is no limit). */
function activeOn(day: string): Expression<SqlBool> {
  return sql<SqlBool>`discounts.status = 'active'
    and (discounts.starts_on is null or discounts.starts_on <= ${day})
    and (discounts.ends_on is null or discounts.ends_on >= ${day})`;
}

function discountRows(db: Db) {
  return db
    .selectFrom('discounts')
    .leftJoin('products', 'products.id', 'discounts.product_id')
    .leftJoin('categories', 'categories.id', 'discounts.category_id')
    .select([
      'discounts.id',
      'discounts.name',
      'discounts.type',
      'discounts.amount',
      'discounts.scope',
      'discounts.product_id',
      'products.name_en as product_name_en',
      'products.name_kh as product_name_kh',
      'discounts.category_id',
      'categories.name_en as category_name_en',
      'categories.name_kh as category_name_kh',
      'discounts.starts_on',
      'discounts.ends_on',
      'discounts.status',
      'discounts.created_at',
      'discounts.updated_at',
      'discounts.deleted_at',
    ]);
}

/**
 * Discounts, a plain resource of the kit. A discount names the product or category its scope needs
 * (a live one); the other is not stored. `filter[active_on]=YYYY-MM-DD` lists what can be used that
 * day (the till asks for today's).
 */
export const discounts: ResourceDefinition<'discounts', typeof discountInput, typeof discount> = {
  table: 'discounts',
  path: '/api/discounts',
  resource: 'discounts',
  entity: 'entity.discount',
  input: discountInput,
  output: discount,
  query: discountRows,
  /** The till's local catalogue: discounts changed since a cursor. */
  changes: true,
  searchable: ['discounts.name'],
  sortable: {
    name: 'discounts.name',
    type: 'discounts.type',
    amount: 'discounts.amount',
    scope: 'discounts.scope',
    starts_on: 'discounts.starts_on',
    ends_on: 'discounts.ends_on',
    status: 'discounts.status',
    created_at: 'discounts.created_at',
  },
  defaultSort: 'name',
  filters: {
    status: { column: 'discounts.status', schema: z.enum(RECORD_STATUSES) },
    scope: { column: 'discounts.scope', schema: z.enum(DISCOUNT_SCOPES) },
    type: { column: 'discounts.type', schema: z.enum(DISCOUNT_TYPES) },
    product_id: { column: 'discounts.product_id', schema: id },
    category_id: { column: 'discounts.category_id', schema: id },
    active_on: { schema: z.iso.date(), apply: (query, value) => query.where(activeOn(value as string)) },
  },
  toRow: (input) => ({
    ...input,
    product_id: input.scope === 'product' ? input.product_id : null,
    category_id: input.scope === 'category' ? input.category_id : null,
  }),
  check: async (db, input) => {
    const problems: Record<string, MessageKey> = {};
    if (input.scope === 'product' && input.product_id !== null && !(await findLive(db, 'products', input.product_id)))
      problems.product_id = 'validation.exists';
    if (
      input.scope === 'category' &&
      input.category_id !== null &&
      !(await findLive(db, 'categories', input.category_id))
    )
      problems.category_id = 'validation.exists';
    return Object.keys(problems).length ? problems : null;
  },
};

/**
 * The discounts that can be used on `today` (YYYY-MM-DD, the depot's day): live, active and within
 * their dates, by name. Which of them applies to a line or to the order is `discountApplies`
 * (contracts): the orders module checks what a till sends with both.
 */
export async function discountsFor(db: Db, today: string = todayInCambodia()): Promise<Discount[]> {
  return discountRows(db)
    .where('discounts.deleted_at', 'is', null)
    .where(activeOn(today))
    .orderBy('discounts.name')
    .orderBy('discounts.id')
    .execute();
}
