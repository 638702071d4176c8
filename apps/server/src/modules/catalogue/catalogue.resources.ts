import {
  brand,
  brandInput,
  category,
  categoryInput,
  type MessageKey,
  subCategory,
  subCategoryInput,
  unit,
  unitInput,
} from '@depot/contracts';
import { sql } from 'kysely';
import { z } from 'zod';
import { countLive, findLive, type ResourceDefinition } from '../../kit/resource.ts';
import { productsUsing } from '../products/products.resources.ts';

const status = { column: 'status', schema: z.enum(['active', 'inactive']) };
const timestamps = ['created_at', 'updated_at', 'deleted_at'] as const;

export const brands: ResourceDefinition<'brands', typeof brandInput, typeof brand> = {
  table: 'brands',
  path: '/api/brands',
  resource: 'brands',
  entity: 'entity.brand',
  input: brandInput,
  output: brand,
  query: (db) =>
    db
      .selectFrom('brands')
      .select([
        'brands.id',
        'brands.name',
        'brands.description',
        'brands.status',
        ...timestamps.map((c) => `brands.${c}` as const),
      ]),
  searchable: ['brands.name'],
  sortable: {
    name: 'brands.name',
    status: 'brands.status',
    created_at: 'brands.created_at',
    updated_at: 'brands.updated_at',
  },
  defaultSort: 'name',
  filters: { status: { ...status, column: 'brands.status' } },
  unique: ['name'],
  dependents: async (db, id) => [await productsUsing(db, 'brand_id', id)],
};

export const categories: ResourceDefinition<'categories', typeof categoryInput, typeof category> = {
  table: 'categories',
  path: '/api/categories',
  resource: 'categories',
  entity: 'entity.category',
  input: categoryInput,
  output: category,
  query: (db) =>
    db
      .selectFrom('categories')
      .select((e) => [
        'categories.id',
        'categories.name_en',
        'categories.name_kh',
        'categories.description',
        'categories.status',
        ...timestamps.map((c) => `categories.${c}` as const),
        sql<number>`(${e
          .selectFrom('sub_categories')
          .select(sql`count(*)`.as('n'))
          .whereRef('sub_categories.category_id', '=', 'categories.id')
          .where('sub_categories.deleted_at', 'is', null)})`.as('sub_categories_count'),
      ]),
  searchable: ['categories.name_en', 'categories.name_kh'],
  sortable: {
    name_en: 'categories.name_en',
    name_kh: 'categories.name_kh',
    status: 'categories.status',
    created_at: 'categories.created_at',
  },
  defaultSort: 'name_en',
  filters: { status: { ...status, column: 'categories.status' } },
  unique: ['name_en', 'name_kh'],
  dependents: async (db, id) => [
    { entity: 'entity.sub_categories', count: await countLive(db, 'sub_categories', 'category_id', id) },
    await productsUsing(db, 'category_id', id),
    { entity: 'entity.discounts', count: await countLive(db, 'discounts', 'category_id', id) },
  ],
};

export const subCategories: ResourceDefinition<'sub_categories', typeof subCategoryInput, typeof subCategory> = {
  table: 'sub_categories',
  path: '/api/sub-categories',
  resource: 'sub_categories',
  entity: 'entity.sub_category',
  input: subCategoryInput,
  output: subCategory,
  query: (db) =>
    db
      .selectFrom('sub_categories')
      .innerJoin('categories', 'categories.id', 'sub_categories.category_id')
      .select([
        'sub_categories.id',
        'sub_categories.category_id',
        'categories.name_en as category_name_en',
        'categories.name_kh as category_name_kh',
        'sub_categories.name_en',
        'sub_categories.name_kh',
        'sub_categories.status',
        ...timestamps.map((c) => `sub_categories.${c}` as const),
      ]),
  searchable: ['sub_categories.name_en', 'sub_categories.name_kh'],
  sortable: {
    name_en: 'sub_categories.name_en',
    name_kh: 'sub_categories.name_kh',
    category: 'categories.name_en',
    status: 'sub_categories.status',
    created_at: 'sub_categories.created_at',
  },
  defaultSort: 'name_en',
  filters: {
    status: { ...status, column: 'sub_categories.status' },
    category_id: { column: 'sub_categories.category_id', schema: z.coerce.number().int().min(1) },
  },
  unique: ['name_en', 'name_kh'],
  check: async (db, input) =>
    (await findLive(db, 'categories', input.category_id)) ? null : { category_id: 'validation.exists' },
  dependents: async (db, id) => [await productsUsing(db, 'sub_category_id', id)],
};

export const units: ResourceDefinition<'units', typeof unitInput, typeof unit> = {
  table: 'units',
  path: '/api/units',
  resource: 'units',
  entity: 'entity.unit',
  input: unitInput,
  output: unit,
  query: (db) =>
    db
      .selectFrom('units')
      .leftJoin('units as base', 'base.id', 'units.base_unit_id')
      .select([
        'units.id',
        'units.name_en',
        'units.name_kh',
        'units.short_name',
        'units.base_unit_id',
        'base.name_en as base_unit_name_en',
        'base.name_kh as base_unit_name_kh',
        'units.factor',
        'units.decimals',
        'units.status',
        ...timestamps.map((c) => `units.${c}` as const),
      ]),
  searchable: ['units.name_en', 'units.name_kh', 'units.short_name'],
  sortable: {
    name_en: 'units.name_en',
    name_kh: 'units.name_kh',
    factor: 'units.factor',
    status: 'units.status',
    created_at: 'units.created_at',
  },
  defaultSort: 'name_en',
  filters: {
    status: { ...status, column: 'units.status' },
    base_unit_id: { column: 'units.base_unit_id', schema: z.coerce.number().int().min(1) },
    /** Units that can carry others (pickers for a unit's base and a product's unit). */
    is_base: { schema: z.enum(['true']), apply: (query) => query.where(sql.ref('units.base_unit_id'), 'is', null) },
  },
  unique: ['name_en', 'name_kh'],
  /**
   * One level of conversion: the base must be a live base unit, and a base in use stays a base.
   * A unit's decimals say how its products' kept quantities read (1250 is 1.250 kg): they stay
   * while a product is counted in it.
   */
  check: async (db, input, id): Promise<Record<string, MessageKey> | null> => {
    if (id !== null) {
      const before = await findLive(db, 'units', id);
      if (before && Number(before.decimals) !== input.decimals && (await countLive(db, 'products', 'unit_id', id)) > 0)
        return { decimals: 'validation.unit_decimals_used' };
    }
    if (input.base_unit_id === null) return null;
    if (input.base_unit_id === id) return { base_unit_id: 'validation.base_unit' };
    const base = await findLive(db, 'units', input.base_unit_id);
    if (!base) return { base_unit_id: 'validation.exists' };
    if (base.base_unit_id !== null) return { base_unit_id: 'validation.base_unit' };
    if (id !== null && (await countLive(db, 'units', 'base_unit_id', id)) > 0) {
      return { base_unit_id: 'validation.base_unit' };
    }
    return null;
  },
  dependents: async (db, id) => [
    { entity: 'entity.units', count: await countLive(db, 'units', 'base_unit_id', id) },
    await productsUsing(db, 'unit_id', id),
  ],
};
