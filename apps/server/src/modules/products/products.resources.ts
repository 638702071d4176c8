import { type MessageKey, type Product, product, productInput, rielOf, todayInCambodia } from '@depot/contracts';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { FieldError } from '../../http/errors.ts';
import {
  type CheckItem,
  countLive,
  findLive,
  inBatches,
  type Problems,
  type ResourceDefinition,
  type ResourceTable,
} from '../../kit/resource.ts';
import { type Actor, assertStoreInput } from '../../policies/policy.ts';
import { productPolicy } from '../../policies/products.ts';
import { auditWho, changes, recordAudit } from '../audit/audit.ts';
import { combosUsing } from '../combos/combos.usage.ts';
import { saleRates } from '../rates/rates.service.ts';
import { quantitiesIn } from '../stock/ledger.ts';
import { receiveOpeningStock } from '../stock/stock.service.ts';
import { productSearch } from './products.search.ts';

const upload = (column: 'image_path' | 'thumbnail_path') =>
  sql<string | null>`case when ${sql.ref(`products.${column}`)} is null then null else '/uploads/' || ${sql.ref(
    `products.${column}`,
  )} end`;

/** A product as its query reads it: what `complete` computes comes after. */
export type ProductRow = Omit<Product, 'price_khr_effective' | 'stock'>;

export const products: ResourceDefinition<'products', typeof productInput, typeof product, ProductRow> = {
  ...productSearch,
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
        'units.decimals as unit_decimals',
        'products.price_usd_cents',
        'products.price_khr',
        'products.cost_usd_cents',
        sql<boolean>`products.taxable = 1`.as('taxable'),
        upload('image_path').as('image_url'),
        upload('thumbnail_path').as('thumbnail_url'),
        'products.expiry_date',
        'products.reorder_level',
        'products.status',
        sql<boolean>`products.serial_tracked = 1`.as('serial_tracked'),
        'products.warranty_months',
        'products.created_at',
        'products.updated_at',
        'products.deleted_at',
      ]),
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
  /** The till keeps the catalogue on the device: `GET /api/products/changes`. */
  changes: true,
  policy: productPolicy,
  // a selling price changed: a line of the audit trail with the old and new prices
  audit: async (trx, actor, before, input) => {
    const fields = ['price_usd_cents', 'price_khr'] as const;
    const diff = changes(before, Object.fromEntries(fields.map((f) => [f, input[f]])));
    if (diff.changed) {
      await recordAudit(trx, auditWho(actor), {
        action: 'product.price',
        subject: { type: 'product', id: before.id as number },
        before: diff.before,
        after: diff.after,
      });
    }
  },
  // opening stock is not a column: `created` writes it, through the ledger
  toRow: ({ opening_stock: _opening, ...input }) => ({
    ...input,
    taxable: input.taxable ? 1 : 0,
    ...(input.serial_tracked === undefined ? {} : { serial_tracked: input.serial_tracked ? 1 : 0 }),
  }),
  /** A new product's opening stock, per store, in the product's transaction (stock.service.ts). */
  created: (trx, actor, id, input) => receiveOpeningStock(trx, actor, id, input.opening_stock, input.cost_usd_cents),
  checkMany: productProblems,
  /** `stock_store=<id>`: each product's stock in that store (the till's tiles). */
  extras: { stock_store: z.coerce.number().int().min(1).optional() },
  /**
   * The riel price by money.ts's one function, at the rates a sale is priced with now; with
   * `stock_store`, the units of each product the store holds, read for the whole page at once.
   */
  complete: async (db, rows, { stock_store: storeId }, actor) => {
    const rates = await saleRates(db);
    const stock = await storeStock(db, rows, storeId, actor);
    return rows.map((row) => ({
      ...row,
      price_khr_effective: rielOf(row.price_usd_cents, rates),
      ...(stock && { stock: stock.get(row.id) ?? 0 }),
    }));
  },
  /** A product in a live combo, or named by a live discount, stays until they no longer hold it. */
  dependents: async (db, id) => [
    await combosUsing(db, id),
    { entity: 'entity.discounts', count: await countLive(db, 'discounts', 'product_id', id) },
  ],
};

/**
 * `stock_store=<id>`: the units of each product the store holds, read for the whole page at once,
 * told only to those who work in the store (an unknown store: 422 on the field); null without it.
 */
export async function storeStock(
  db: Db,
  rows: readonly { id: number }[],
  storeId: unknown,
  actor: Actor | null,
): Promise<Map<number, number> | null> {
  if (typeof storeId !== 'number') return null;
  if (actor) assertStoreInput(actor, 'stock_store', storeId);
  if (!(await findLive(db, 'stores', storeId))) throw new FieldError({ stock_store: [{ key: 'validation.exists' }] });
  return rows.length
    ? quantitiesIn(
        db,
        storeId,
        rows.map((row) => row.id),
      )
    : new Map();
}

/** How many live products use a brand, category, sub-category or unit (deletion is refused while any do). */
export async function productsUsing(
  db: Db,
  column: 'brand_id' | 'category_id' | 'sub_category_id' | 'unit_id',
  id: number,
): Promise<{ entity: MessageKey; count: number }> {
  return { entity: 'entity.products', count: await countLive(db, 'products', column, id) };
}

type Input = z.output<typeof productInput>;

/** The live rows of a table among some ids, by id: one query per batch of ids. */
async function liveByIds<T extends ResourceTable, C extends string>(
  db: Db,
  table: T,
  ids: Iterable<number | null | undefined>,
  columns: readonly C[],
): Promise<Map<number, Record<C | 'id', number | null>>> {
  const wanted = [...new Set([...ids].filter((id): id is number => typeof id === 'number'))];
  const found = new Map<number, Record<C | 'id', number | null>>();
  for (const batch of inBatches(wanted)) {
    const rows = await db
      .selectFrom(table as ResourceTable)
      .select(['id', ...columns].map((c) => sql.ref(c).as(c)))
      .where(sql.ref('id'), 'in', batch)
      .where(sql.ref('deleted_at'), 'is', null)
      .execute();
    for (const row of rows as Record<C | 'id', number | null>[]) found.set(Number(row.id), row);
  }
  return found;
}

/** The lower-case codes among `codes` that a live combo has as its SKU or barcode. */
async function comboCodes(db: Db, field: 'sku' | 'barcode', codes: Iterable<string>): Promise<Set<string>> {
  const taken = new Set<string>();
  for (const batch of inBatches([...new Set(codes)])) {
    const rows = await db
      .selectFrom('combos')
      .select(sql<string>`lower(${sql.ref(field)})`.as('code'))
      .where(sql<string>`lower(${sql.ref(field)})`, 'in', batch)
      .where('deleted_at', 'is', null)
      .execute();
    for (const row of rows) taken.add(row.code);
  }
  return taken;
}

/**
 * A product's rules that need the database, for one input (the form, the API) or thousands (the
 * import), with the same queries: brand, category, sub-category and unit live; the sub-category
 * of the category; a base unit; SKU and barcode no live combo's (a scanner reads a combo's code as
 * surely as a product's: one code, one thing on the till). Uniqueness among products is the kit's
 * (`unique`). A field an input lacks is not checked.
 */
export async function productProblems(db: Db, items: readonly CheckItem<Partial<Input>>[]): Promise<Problems[]> {
  const inputs = items.map((item) => item.input);
  const of = (field: 'brand_id' | 'category_id' | 'sub_category_id' | 'unit_id') => inputs.map((i) => i[field]);
  const [brands, categories, subCategories, units] = await Promise.all([
    liveByIds(db, 'brands', of('brand_id'), []),
    liveByIds(db, 'categories', of('category_id'), []),
    liveByIds(db, 'sub_categories', of('sub_category_id'), ['category_id']),
    liveByIds(db, 'units', of('unit_id'), ['base_unit_id']),
  ]);
  const codes = (field: 'sku' | 'barcode') =>
    comboCodes(
      db,
      field,
      inputs.flatMap((i) => (typeof i[field] === 'string' && i[field] ? [i[field].toLowerCase()] : [])),
    );
  const combos = { sku: await codes('sku'), barcode: await codes('barcode') };

  return inputs.map((input) => {
    const problems: Record<string, MessageKey> = {};
    if (typeof input.brand_id === 'number' && !brands.has(input.brand_id)) problems.brand_id = 'validation.exists';
    if (typeof input.category_id === 'number' && !categories.has(input.category_id)) {
      problems.category_id = 'validation.exists';
    }
    if (typeof input.sub_category_id === 'number') {
      const sub = subCategories.get(input.sub_category_id);
      if (!sub) problems.sub_category_id = 'validation.exists';
      else if (typeof input.category_id === 'number' && sub.category_id !== input.category_id) {
        problems.sub_category_id = 'validation.sub_category';
      }
    }
    if (typeof input.unit_id === 'number') {
      const unit = units.get(input.unit_id);
      if (!unit) problems.unit_id = 'validation.exists';
      else if (unit.base_unit_id !== null) problems.unit_id = 'validation.base_unit';
    }
    for (const field of ['sku', 'barcode'] as const) {
      const code = input[field];
      if (typeof code === 'string' && combos[field].has(code.toLowerCase())) problems[field] = 'validation.unique';
    }
    return Object.keys(problems).length ? problems : null;
  });
}
