import { productInput, scaleCodeCandidates, TILL_ORDER, tillProduct } from '@depot/contracts';
import { sql } from 'kysely';
import { z } from 'zod';
import type { ResourceDefinition } from '../../kit/resource.ts';
import { storeStock } from './products.resources.ts';
import { productSearch } from './products.search.ts';

type TillRow = Omit<z.infer<typeof tillProduct>, 'stock'>;

/**
 * `GET /api/products/till`: the till's search on a device that has not synced its catalogue yet
 * (issue 34). The products list's search, permission (`products.list`) and index, but only what a
 * tile and a cart line need (one join, no riel price: the till computes it from its rates), in the
 * order the device's own index ranks (contracts `TILL_ORDER`), and `filter[code]`: the product
 * whose barcode or SKU is the code (a scan), from their unique indexes in one round trip. With
 * `stock_store`, the store's stock, under the same rule as the list's (`storeStock`). Read only.
 */
export const tillProducts: ResourceDefinition<'products', typeof productInput, typeof tillProduct, TillRow> = {
  ...productSearch,
  path: '/api/products/till',
  resource: 'products',
  entity: 'entity.product',
  routes: ['list'],
  summaries: { list: "The till's product search before its catalogue is on the device" },
  input: productInput,
  output: tillProduct,
  query: (db) =>
    db
      .selectFrom('products')
      .innerJoin('units', 'units.id', 'products.unit_id')
      .select([
        'products.id',
        'products.name_en',
        'products.name_kh',
        'products.sku',
        'products.barcode',
        'products.category_id',
        'products.unit_id',
        'units.name_en as unit_name_en',
        'units.name_kh as unit_name_kh',
        'units.decimals as unit_decimals',
        'products.price_usd_cents',
        sql<boolean>`products.taxable = 1`.as('taxable'),
        sql<boolean>`products.serial_tracked = 1`.as('serial_tracked'),
        sql<
          string | null
        >`case when products.thumbnail_path is null then null else '/uploads/' || products.thumbnail_path end`.as(
          'thumbnail_url',
        ),
      ]),
  sortable: { [TILL_ORDER]: `products.${TILL_ORDER}` },
  defaultSort: TILL_ORDER,
  filters: {
    status: { column: 'products.status', schema: z.enum(['active', 'inactive']) },
    category_id: { column: 'products.category_id', schema: z.coerce.number().int().min(1) },
    /**
     * A scanned or typed code: the barcode or the SKU, without case (the live products' unique
     * indexes); for a scale barcode (contracts `scaleCodeCandidates`) also the products whose
     * barcode is its product code, in any layout: the till picks with the store's layouts.
     */
    code: {
      schema: z.string().trim().min(1).max(100),
      // each half as the live products' partial unique indexes are written, so each is one index
      // lookup (an `or` of the two was a scan of the table on SQLite: 1.8 s at 100,000 products)
      apply: (query, code) => {
        const lower = String(code).toLowerCase();
        const live = (column: 'barcode' | 'sku', values: string[]) =>
          sql`select id from products where lower(${sql.ref(column)}) in (${sql.join(values)}) and deleted_at is null`;
        const scale = scaleCodeCandidates(lower);
        const scaled = scale.length ? sql` union all ${live('barcode', scale)}` : sql``;
        return query.where(
          sql<boolean>`products.id in (${live('barcode', [lower])} union all ${live('sku', [lower])}${scaled})`,
        );
      },
    },
  },
  extras: { stock_store: z.coerce.number().int().min(1).optional() },
  complete: async (db, rows, { stock_store: storeId }, actor) => {
    const stock = await storeStock(db, rows, storeId, actor);
    return stock ? rows.map((row) => ({ ...row, stock: stock.get(row.id) ?? 0 })) : rows;
  },
};
