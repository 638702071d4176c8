import {
  type Combo,
  combo,
  comboDetail,
  type OrderDetail,
  paginated,
  parseScaleBarcode,
  product,
  type ScaleCode,
  single,
  tillProduct,
} from '@depot/contracts';
import { useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { lineKey } from '../../components/lines.tsx';
import { listKey, recordKey } from '../../kit/queries.ts';
import { api, NetworkError } from '../../lib/http.ts';
import { type LocalProduct, storedProduct, useLocalCatalogue } from '../../lib/offline/localCatalogue.ts';
import { useLocalLists } from '../../lib/offline/localLists.ts';
import type { LocalCombo } from '../../lib/offline/rows.ts';
import { type Cart, cartOfOrder, productLine, type SoldProduct, type TillLine } from './cart.ts';
import { scaleLine, useScaleLayouts } from './scale.ts';

/** What the till looks up while selling: products and combos by code, a combo's VAT, a held order's lines. */

/**
 * The till's search on the server, before the device has its catalogue (and, after, for the stock
 * of what is typed): only what a tile needs, ranked as the device's own index ranks.
 */
export const TILL_PRODUCTS = 'products/till';

/** The till's products: active ones, with their stock in the till's store once it is known. */
export function productQuery(
  search: string,
  categoryId?: number | null,
  perPage = 20,
  storeId: number | null = null,
): string {
  const query = new URLSearchParams({ per_page: String(perPage), 'filter[status]': 'active' });
  if (search) query.set('search', search);
  if (categoryId) query.set('filter[category_id]', String(categoryId));
  if (storeId) query.set('stock_store', String(storeId));
  return query.toString();
}

/** The active product whose barcode or SKU (in any case) is the code: a scan, in one round trip. */
export function codeQuery(code: string, storeId: number | null): string {
  const query = new URLSearchParams({ per_page: '10', 'filter[status]': 'active', 'filter[code]': code });
  if (storeId) query.set('stock_store', String(storeId));
  return query.toString();
}

export function comboQuery(search: string, perPage = 20): string {
  const query = new URLSearchParams({ per_page: String(perPage), 'filter[status]': 'active' });
  if (search) query.set('search', search);
  return query.toString();
}

/** A product's or combo's code as typed or scanned: the barcode exactly, or the SKU in any case. */
export function matchesCode(row: { sku: string; barcode: string | null }, code: string): boolean {
  return row.barcode === code || row.sku.toLowerCase() === code.toLowerCase();
}

export type Found = { line: TillLine } | { many: true } | { none: true };

/** A product of the local catalogue as the till shows it: the stock last known in this store, else none. */
export function localProduct(row: LocalProduct, storeId: number | null): SoldProduct {
  const { stock_store, stock, ...rest } = row;
  return stock !== undefined && stock_store === storeId ? { ...rest, stock } : rest;
}

/** `storeId`: the till's store, whose stock the lines carry (none while it is not known). */
export function useCatalogue(storeId: number | null = null) {
  const client = useQueryClient();
  const local = useLocalCatalogue();
  const lists = useLocalLists();
  const layouts = useScaleLayouts();

  const list = <T>(path: string, row: z.ZodType<T>, query: string) =>
    client.fetchQuery({
      queryKey: listKey(path, query),
      queryFn: ({ signal }) => api(`${path}?${query}`, { signal, schema: paginated(row) }),
      staleTime: 30_000,
    });

  const record = <T>(path: string, row: z.ZodType<T>, id: number) =>
    client.fetchQuery({
      queryKey: recordKey(path, id),
      queryFn: async ({ signal }) => (await api(`${path}/${id}`, { signal, schema: single(row) })).data,
      staleTime: 60_000,
    });

  /** A product with its stock in a store, read fresh: stock moves while the till sells. */
  const productIn = (id: number, store: number | null) =>
    client.fetchQuery({
      queryKey: [...recordKey('products', id), store],
      queryFn: async ({ signal }) =>
        (await api(`products/${id}${store ? `?stock_store=${store}` : ''}`, { signal, schema: single(product) })).data,
      staleTime: 5_000,
    });

  /** A product as read now in a store: the server's, else (no answer) the kept one with its last known stock. */
  const productNow = (id: number, store: number | null) =>
    productIn(id, store).catch((error) => {
      const known = storedProduct(id);
      if (error instanceof NetworkError && known) return localProduct(known, store);
      throw error;
    });

  /**
   * A combo as a line: its selling price, and VAT when any of its products carries VAT (the
   * server's rule), read from its products, with what each combo takes of them and their stock.
   */
  async function comboLine(row: Combo | LocalCombo, store: number | null = storeId): Promise<TillLine> {
    // a combo kept on the device carries its items; its products' stock is asked fresh, else the last known
    const detail = 'items' in row ? row : await record('combos', comboDetail, row.id);
    const products = await Promise.all(detail.items.map((item) => productNow(item.product_id, store)));
    return {
      key: lineKey(),
      kind: 'combo',
      item_id: row.id,
      name_en: row.name_en,
      name_kh: row.name_kh,
      sku: row.sku,
      category_id: null,
      thumbnail_url: null,
      base_unit_id: null,
      unit: null,
      base_price_cents: row.selling_price_cents,
      taxable: products.some((p) => p.taxable),
      quantity: 1,
      discount_id: null,
      // each product's name as read now (the server's, else the kept catalogue's, synced every
      // minute), not as the combo's items recorded it at the combo's last change on this device
      parts: detail.items.map((item, i) => ({
        product_id: item.product_id,
        name_en: products[i].name_en || item.product_name_en,
        name_kh: products[i].name_kh || item.product_name_kh,
        quantity: item.base_quantity,
        stock: products[i].stock ?? null,
      })),
    };
  }

  /**
   * The product, else the combo, whose barcode or SKU is exactly the code; else, for a label
   * scale's barcode in one of the store's layouts, the product whose barcode is its product code,
   * weighed (contracts scale.ts): on the device's catalogue first, so a label is read offline too.
   */
  async function findCode(code: string, { allowOnly = false } = {}): Promise<Found> {
    // the local catalogue's code index first: a scan needs no round trip (its stock as last known)
    const known = local?.byCode(code);
    if (known) return { line: productLine(localProduct(known, storeId)) };
    const knownCombo = lists.combos?.byCode(code);
    if (knownCombo) return { line: await comboLine(knownCombo) };
    const scan = parseScaleBarcode(code, layouts);
    const labelled = scan && local?.byCode(scan.code);
    if (scan && labelled && labelled.barcode === scan.code) return weighed(localProduct(labelled, storeId), scan);
    try {
      return await findOnServer(code, allowOnly, scan);
    } catch (error) {
      if (!(local && error instanceof NetworkError)) throw error;
      // no connection: what the local catalogue finds, its combos too
      const rows = local.search(code, 2);
      const combos = lists.combos?.search(code, 2) ?? [];
      if (allowOnly && rows.length + combos.length === 1)
        return { line: rows.length ? productLine(localProduct(rows[0], storeId)) : await comboLine(combos[0]) };
      return rows.length + combos.length === 0 ? { none: true } : { many: true };
    }
  }

  async function findOnServer(code: string, allowOnly: boolean, scan: ScaleCode | null): Promise<Found> {
    // a scan: the code's product from the server's unique indexes, else what the code finds
    const coded = await list(TILL_PRODUCTS, tillProduct, codeQuery(code, storeId));
    const exact = coded.data.find((row) => matchesCode(row, code));
    if (exact) return { line: productLine(exact) };
    // a scale label: the server answers the products its product code may name, the layout picks
    const labelled = scan && coded.data.find((row) => row.barcode === scan.code);
    if (scan && labelled) return weighed(labelled, scan);
    const products = await list(TILL_PRODUCTS, tillProduct, productQuery(code, null, 20, storeId));
    const combos = await list('combos', combo, comboQuery(code));
    const exactCombo = combos.data.find((row) => matchesCode(row, code));
    if (exactCombo) return { line: await comboLine(exactCombo) };
    // Typed in the search box, a single match is meant even without its whole code.
    const all = products.data.length + combos.data.length;
    if (allowOnly && all === 1) {
      return products.data.length === 1
        ? { line: productLine(products.data[0]) }
        : { line: await comboLine(combos.data[0]) };
    }
    return all === 0 ? { none: true } : { many: true };
  }

  /** A scale label's line, or nothing to sell when it carries no weight and no price. */
  function weighed(row: SoldProduct, scan: ScaleCode): Found {
    const line = scaleLine(row, scan);
    return line ? { line } : { none: true };
  }

  /**
   * A held order as a cart, its lines completed from today's products and combos: a combo kept on
   * the device with its items (else the server's), each product read fresh, else as kept.
   */
  async function cartOf(detail: OrderDetail): Promise<Cart> {
    const products = new Map<number, SoldProduct>();
    const combos = new Map<number, TillLine>();
    const localCombos = lists.combos;
    await Promise.all(
      detail.items.map(async (item) => {
        try {
          if (item.kind === 'product' && item.product_id) {
            products.set(item.product_id, await productNow(item.product_id, detail.store_id));
          } else if (item.combo_id) {
            const id = item.combo_id;
            const found = localCombos?.find((row) => row.id === id) ?? (await record('combos', comboDetail, id));
            combos.set(id, await comboLine(found, detail.store_id));
          }
        } catch {
          // A product gone since: the line keeps what the order says; the server judges it at checkout.
        }
      }),
    );
    return cartOfOrder(detail, (item) => {
      const found = item.product_id ? products.get(item.product_id) : undefined;
      if (found) {
        return {
          category_id: found.category_id,
          thumbnail_url: found.thumbnail_url,
          base_unit_id: found.unit_id,
          base_price_cents: found.price_usd_cents,
          taxable: found.taxable,
          stock: found.stock ?? null,
        };
      }
      const combo = item.combo_id ? combos.get(item.combo_id) : undefined;
      if (combo) return { taxable: combo.taxable, parts: combo.parts };
      return null;
    });
  }

  return { comboLine, findCode, cartOf };
}
