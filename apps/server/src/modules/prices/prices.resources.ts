import {
  customerGroup,
  customerGroupInput,
  type MessageKey,
  PRICE_SCOPES,
  priceList,
  priceListInput,
  RECORD_STATUSES,
} from '@depot/contracts';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { countLive, findLive, type ResourceDefinition } from '../../kit/resource.ts';
import { priceListPolicy } from '../../policies/prices.ts';
import { factorFor } from '../stock/stock.repository.ts';

const id = z.coerce.number().int().min(1);

/** Customer groups: retail, wholesale, a named chain… each with its own price list. */
export const customerGroups: ResourceDefinition<'customer_groups', typeof customerGroupInput, typeof customerGroup> = {
  table: 'customer_groups',
  path: '/api/customer-groups',
  resource: 'customer_groups',
  entity: 'entity.customer_group',
  input: customerGroupInput,
  output: customerGroup,
  query: (db) =>
    db
      .selectFrom('customer_groups')
      .select([
        'customer_groups.id',
        'customer_groups.name_en',
        'customer_groups.name_kh',
        'customer_groups.status',
        sql<number>`(select count(*) from customers c where c.customer_group_id = customer_groups.id and c.deleted_at is null)`.as(
          'customers_count',
        ),
        sql<number>`(select count(*) from price_lists p where p.customer_group_id = customer_groups.id and p.deleted_at is null)`.as(
          'prices_count',
        ),
        'customer_groups.created_at',
        'customer_groups.updated_at',
        'customer_groups.deleted_at',
      ]),
  searchable: ['customer_groups.name_en', 'customer_groups.name_kh'],
  sortable: {
    name_en: 'customer_groups.name_en',
    name_kh: 'customer_groups.name_kh',
    status: 'customer_groups.status',
    created_at: 'customer_groups.created_at',
  },
  defaultSort: 'name_en',
  filters: { status: { column: 'customer_groups.status', schema: z.enum(RECORD_STATUSES) } },
  unique: ['name_en', 'name_kh'],
  dependents: async (db, groupId) => [
    { entity: 'entity.customers', count: await countLive(db, 'customers', 'customer_group_id', groupId) },
    { entity: 'entity.price_lists', count: await countLive(db, 'price_lists', 'customer_group_id', groupId) },
  ],
};

export function priceListRows(db: Db) {
  return db
    .selectFrom('price_lists')
    .leftJoin('customer_groups', 'customer_groups.id', 'price_lists.customer_group_id')
    .leftJoin('products', 'products.id', 'price_lists.product_id')
    .leftJoin('units', 'units.id', 'price_lists.unit_id')
    .leftJoin('categories', 'categories.id', 'price_lists.category_id')
    .select([
      'price_lists.id',
      'price_lists.customer_group_id',
      'customer_groups.name_en as group_name_en',
      'customer_groups.name_kh as group_name_kh',
      'price_lists.scope',
      'price_lists.product_id',
      'products.name_en as product_name_en',
      'products.name_kh as product_name_kh',
      'products.sku as sku',
      'price_lists.unit_id',
      'units.name_en as unit_name_en',
      'units.name_kh as unit_name_kh',
      'price_lists.category_id',
      'categories.name_en as category_name_en',
      'categories.name_kh as category_name_kh',
      'price_lists.min_quantity',
      'price_lists.price_cents',
      'price_lists.price_khr',
      'price_lists.off_bp',
      'price_lists.status',
      'price_lists.created_at',
      'price_lists.updated_at',
      'price_lists.deleted_at',
    ]);
}

type Input = z.output<typeof priceListInput>;

/**
 * The database's rules of a price-list row, for one row (create, update) or a whole spreadsheet
 * (the import): the group, product, unit and category live; the unit the product's own or one made
 * of it; the base list's row of the product's own unit at quantity 1 is the product's price (refused
 * here: it is changed on the product); one live row per list, product, unit or category and threshold.
 */
export async function priceListProblems(
  db: Db,
  items: readonly { input: Partial<Input>; id: number | null }[],
): Promise<Record<string, MessageKey>[]> {
  const ids = (pick: (i: Partial<Input>) => number | null | undefined) => [
    0,
    ...new Set(items.flatMap(({ input }) => (pick(input) ? [pick(input) as number] : []))),
  ];
  const groups = new Set(
    (
      await db
        .selectFrom('customer_groups')
        .select('id')
        .where(
          'id',
          'in',
          ids((i) => i.customer_group_id),
        )
        .where('deleted_at', 'is', null)
        .execute()
    ).map((r) => r.id),
  );
  const products = new Map(
    (
      await db
        .selectFrom('products')
        .select(['id', 'unit_id'])
        .where(
          'id',
          'in',
          ids((i) => i.product_id),
        )
        .where('deleted_at', 'is', null)
        .execute()
    ).map((r) => [r.id, r]),
  );
  const units = new Map(
    (
      await db
        .selectFrom('units')
        .select(['id', 'base_unit_id', 'factor'])
        .where(
          'id',
          'in',
          ids((i) => i.unit_id),
        )
        .where('deleted_at', 'is', null)
        .execute()
    ).map((r) => [r.id, r]),
  );
  const categories = new Set(
    (
      await db
        .selectFrom('categories')
        .select('id')
        .where(
          'id',
          'in',
          ids((i) => i.category_id),
        )
        .where('deleted_at', 'is', null)
        .execute()
    ).map((r) => r.id),
  );
  const existing = await db
    .selectFrom('price_lists')
    .select(['id', 'customer_group_id', 'scope', 'product_id', 'unit_id', 'category_id', 'min_quantity'])
    .where('deleted_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb(
          'product_id',
          'in',
          ids((i) => (i.scope === 'product' ? i.product_id : null)),
        ),
        eb(
          'category_id',
          'in',
          ids((i) => (i.scope === 'category' ? i.category_id : null)),
        ),
      ]),
    )
    .execute();
  const keyOf = (r: Partial<Input>) =>
    r.scope === 'product'
      ? `${r.customer_group_id ?? 0}|p|${r.product_id}|${r.unit_id}|${r.min_quantity}`
      : `${r.customer_group_id ?? 0}|c|${r.category_id}|${r.min_quantity}`;
  const taken = new Map(
    existing.map((r) => [
      keyOf({ ...r, customer_group_id: r.customer_group_id, min_quantity: Number(r.min_quantity) } as Partial<Input>),
      r.id,
    ]),
  );
  const seen = new Map<string, number>();
  return items.map(({ input, id: self }, index) => {
    const problems: Record<string, MessageKey> = {};
    if (input.customer_group_id && !groups.has(input.customer_group_id))
      problems.customer_group_id = 'validation.exists';
    if (input.scope === 'product') {
      const product = input.product_id ? products.get(input.product_id) : undefined;
      if (input.product_id && !product) problems.product_id = 'validation.exists';
      const unit = input.unit_id ? units.get(input.unit_id) : undefined;
      if (input.unit_id && !unit) problems.unit_id = 'validation.exists';
      if (product && unit && factorFor(product.unit_id, unit) === null) problems.unit_id = 'stock.unit_of_product';
      if (product && unit && !input.customer_group_id && unit.id === product.unit_id && input.min_quantity === 1)
        problems.unit_id = 'price.own_unit_base';
    } else if (input.scope === 'category' && input.category_id && !categories.has(input.category_id)) {
      problems.category_id = 'validation.exists';
    }
    if (input.scope && input.min_quantity) {
      const key = keyOf(input);
      const other = taken.get(key);
      if ((other !== undefined && other !== self) || seen.has(key)) problems.min_quantity = 'price.duplicate';
      seen.set(key, index);
    }
    return problems;
  });
}

/**
 * Price lists' rows, a plain resource of the kit; `filter[customer_group_id]` (`base` for the base
 * list), `filter[product_id]`, `filter[category_id]`, `filter[scope]`. Writes need prices.update
 * (policies/prices.ts).
 */
export const priceLists: ResourceDefinition<'price_lists', typeof priceListInput, typeof priceList> = {
  table: 'price_lists',
  path: '/api/price-lists',
  resource: 'price_lists',
  entity: 'entity.price_list',
  input: priceListInput,
  output: priceList,
  query: priceListRows,
  searchable: [],
  sortable: {
    min_quantity: 'price_lists.min_quantity',
    price_cents: 'price_lists.price_cents',
    scope: 'price_lists.scope',
    status: 'price_lists.status',
    created_at: 'price_lists.created_at',
  },
  defaultSort: 'created_at',
  filters: {
    status: { column: 'price_lists.status', schema: z.enum(RECORD_STATUSES) },
    scope: { column: 'price_lists.scope', schema: z.enum(PRICE_SCOPES) },
    product_id: { column: 'price_lists.product_id', schema: id },
    category_id: { column: 'price_lists.category_id', schema: id },
    customer_group_id: {
      schema: z.union([z.literal('base'), id]),
      apply: (query, value) =>
        value === 'base'
          ? query.where('price_lists.customer_group_id', 'is', null)
          : query.where('price_lists.customer_group_id', '=', value as number),
    },
  },
  toRow: (input) => ({
    ...input,
    product_id: input.scope === 'product' ? input.product_id : null,
    unit_id: input.scope === 'product' ? input.unit_id : null,
    price_cents: input.scope === 'product' ? input.price_cents : null,
    price_khr: input.scope === 'product' ? input.price_khr : null,
    category_id: input.scope === 'category' ? input.category_id : null,
    off_bp: input.scope === 'category' ? input.off_bp : null,
  }),
  policy: priceListPolicy,
  checkMany: (db, items) => priceListProblems(db, items),
};

export const priceResources = [customerGroups, priceLists];

/** A live group, for a customer's price list. */
export async function liveGroup(db: Db, groupId: number | null) {
  if (groupId === null) return null;
  const group = await findLive(db, 'customer_groups', groupId);
  return group && group.status === 'active' ? group : null;
}
