import type { MessageKey } from '@depot/contracts';
import { factorFor } from '../stock/stock.repository.ts';

/** What an item check needs of a product and of a unit (the live rows, by id). */
type ItemProduct = { unit_id: number; status: string };
type ItemUnit = { id: number; base_unit_id: number | null; factor: number };

/**
 * One rule for the items of a document that names products in units (a purchase's lines, a combo's
 * items): the product exists and is active, and the unit (the product's own when none is named) is
 * the product's or one made of it. Each problem goes to `add` under `items.<index>.product_id` or
 * `.unit_id`; answers the product, unit and factor, or null when the item cannot be priced.
 */
export function checkItem<P extends ItemProduct, U extends ItemUnit>(
  item: { product_id: number; unit_id?: number | null },
  field: string,
  found: { products: Map<number, P>; units: Map<number, U> },
  add: (field: string, key: MessageKey) => void,
): { product: P; unit: U; factor: number } | null {
  const product = found.products.get(item.product_id);
  if (!product) {
    add(`${field}.product_id`, 'validation.exists');
    return null;
  }
  if (product.status !== 'active') add(`${field}.product_id`, 'validation.product_inactive');
  const unit = found.units.get(item.unit_id ?? product.unit_id);
  const factor = unit ? factorFor(product.unit_id, unit) : null;
  if (!unit || factor === null) {
    add(`${field}.unit_id`, 'stock.unit_of_product');
    return null;
  }
  return { product, unit, factor };
}
