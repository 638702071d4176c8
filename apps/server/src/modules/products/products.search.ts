import type { Searchable } from '../../kit/search.ts';

/**
 * What the search index knows of products: the product list and the stock lists search with it.
 * It stands apart from the definition so the stock module can search products without importing
 * the definition, which writes opening stock through the stock module.
 */
export const productSearch = {
  table: 'products' as const,
  searchable: ['products.name_en', 'products.name_kh', 'products.sku', 'products.barcode'],
  // the default order, kept in the search index: a common word's first page is a range scan
  sortKey: 'products.name_en',
} satisfies Searchable;
