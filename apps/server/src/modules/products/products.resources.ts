import { type MessageKey, product, productInput, todayInCambodia } from '@depot/contracts';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { countLive, findLive, type ResourceDefinition } from '../../kit/resource.ts';
import { productPolicy } from '../../policies/products.ts';
import { combosUsing } from '../combos/combos.usage.ts';

const setting = (key: string) => sql<number>`(select cast(value as integer) from settings where key = ${key})`;

/**
 * The riel price: the override, else the dollar price at the stored rate rounded half up to the
 * riel step, in integer arithmetic (the same rule as usdCentsToKhr in contracts/money.ts).
 */
const effectiveKhr = sql<number>`coalesce(products.price_khr, ((cast(products.price_usd_cents as bigint) * ${setting(
  'exchange_rate_khr',
)} + ${setting('khr_rounding_step')} * 50) / (${setting('khr_rounding_step')} * 100)) * ${setting('khr_rounding_step')})`;

const upload = (column: 'image_path' | 'thumbnail_path') =>
  sql<string | null>`case when ${sql.ref(`products.${column}`)} is null then null else '/uploads/' || ${sql.ref(
    `products.${column}`,
  )} end`;

export const products: ResourceDefinition<'products', typeof productInput, typeof product> = {
  table: 'products',
  path: '/api/products',
  resource: 'products',
  entity: 'entity.product',
  input: productInput,
  output: product,
  query: (db) =>
    db
      .selectFrom('products')
      .leftJoin('brands', 'brands.id', 'products.brand_id')
      .innerJoin('categories', 'categories.id', 'products.category_id')
      .leftJoin('sub_categories', 'sub_categories.id', 'products.sub_category_id')
      .innerJoin('units', 'units.id', 'products.unit_id')
      .select([
        'products.id',
        'products.name_en',
        'products.name_kh',
        'products.short_name',
        'products.sku',
        'products.barcode',
        'products.brand_id',
        'brands.name as brand_name',
        'products.category_id',
        'categories.name_en as category_name_en',
        'categories.name_kh as category_name_kh',
        'products.sub_category_id',
        'sub_categories.name_en as sub_category_name_en',
        'sub_categories.name_kh as sub_category_name_kh',
        'products.unit_id',
        'units.name_en as unit_name_en',
        'units.name_kh as unit_name_kh',
        'products.price_usd_cents',
        'products.price_khr',
        effectiveKhr.as('price_khr_effective'),
        'products.cost_usd_cents',
        sql<boolean>`products.taxable = 1`.as('taxable'),
        upload('image_path').as('image_url'),
        upload('thumbnail_path').as('thumbnail_url'),
        'products.expiry_date',
        'products.reorder_level',
        'products.status',
        'products.created_at',
        'products.updated_at',
        'products.deleted_at',
      ]),
  searchable: ['products.name_en', 'products.name_kh', 'products.sku', 'products.barcode'],
  sortable: {
    name_en: 'products.name_en',
    name_kh: 'products.name_kh',
    sku: 'products.sku',
    price: 'products.price_usd_cents',
    expiry_date: 'products.expiry_date',
    status: 'products.status',
    created_at: 'products.created_at',
  },
  defaultSort: 'name_en',
  filters: {
    status: { column: 'products.status', schema: z.enum(['active', 'inactive']) },
    brand_id: { column: 'products.brand_id', schema: z.coerce.number().int().min(1) },
    category_id: { column: 'products.category_id', schema: z.coerce.number().int().min(1) },
    sub_category_id: { column: 'products.sub_category_id', schema: z.coerce.number().int().min(1) },
    /** `/products/expired`: an expiry date before today in Cambodia. */
    expired: {
      schema: z.enum(['true']),
      apply: (query) =>
        query
          .where(sql.ref('products.expiry_date'), 'is not', null)
          .where(sql.ref('products.expiry_date'), '<', todayInCambodia()),
    },
  },
  unique: ['sku', 'barcode'],
  policy: productPolicy,
  toRow: (input) => ({ ...input, taxable: input.taxable ? 1 : 0 }),
  check: async (db, input) => {
    const problems: Record<string, MessageKey> = {};
    if (input.brand_id !== null && !(await findLive(db, 'brands', input.brand_id)))
      problems.brand_id = 'validation.exists';
    if (!(await findLive(db, 'categories', input.category_id))) problems.category_id = 'validation.exists';
    if (input.sub_category_id !== null) {
      const sub = await findLive(db, 'sub_categories', input.sub_category_id);
      if (!sub) problems.sub_category_id = 'validation.exists';
      else if (sub.category_id !== input.category_id) problems.sub_category_id = 'validation.sub_category';
    }
    const unit = await findLive(db, 'units', input.unit_id);
    if (!unit) problems.unit_id = 'validation.exists';
    else if (unit.base_unit_id !== null) problems.unit_id = 'validation.base_unit';
    // a scanner reads a combo's code as surely as a product's: one code, one thing on the till
    for (const field of ['sku', 'barcode'] as const) {
      const code = input[field];
      if (!code) continue;
      const combo = await db
        .selectFrom('combos')
        .select('id')
        .where(sql<string>`lower(${sql.ref(field)})`, '=', code.toLowerCase())
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (combo) problems[field] = 'validation.unique';
    }
    return Object.keys(problems).length ? problems : null;
  },
  /** A product in a live combo, or named by a live discount, stays until they no longer hold it. */
  dependents: async (db, id) => [
    await combosUsing(db, id),
    { entity: 'entity.discounts', count: await countLive(db, 'discounts', 'product_id', id) },
  ],
};

/** How many live products use a brand, category, sub-category or unit (deletion is refused while any do). */
export async function productsUsing(
  db: Db,
  column: 'brand_id' | 'category_id' | 'sub_category_id' | 'unit_id',
  id: number,
): Promise<{ entity: MessageKey; count: number }> {
  return { entity: 'entity.products', count: await countLive(db, 'products', column, id) };
}
