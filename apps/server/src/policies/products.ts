import { PRODUCT_SHEET_COLUMNS, type Product, type ProductSheetColumn, type productInput } from '@depot/contracts';
import type { z } from 'zod';
import { AppError } from '../http/errors.ts';
import type { Read } from '../kit/resource.ts';
import { type Actor, can, hideCosts } from './policy.ts';

type Input = z.output<typeof productInput>;

/**
 * Products: the catalogue is every store's, so not scoped by coverage. Its cost price is
 * `costs.view`'s: left out of answers and exports without it, and a write by someone who cannot see
 * it keeps the stored cost (a new product's is 0). Selling prices are `prices.update`'s: changing
 * them needs it besides products.update (a stock keeper edits a product, not what it sells for). A
 * new product is given its first price by whoever may create products: nothing on sale changes.
 * Deleting a product's picture is products.delete's (the route declares it). Opening stock on
 * create is `stocks.create`'s (a stock adjustment), at the product's cost for whoever cannot see costs.
 */
export const productPolicy = {
  present: (actor: Actor, product: Read<Product>): Product => hideCosts(actor, product as Product, ['cost_usd_cents']),

  write(actor: Actor, input: Input, existing: Record<string, unknown> | null): Input {
    let allowed = input;
    // opening stock is a stock adjustment's: refused before anything is written
    if (!existing && input.opening_stock.length > 0 && !can(actor, 'stocks.create')) {
      throw new AppError(403, 'policy.opening_stock');
    }
    if (!can(actor, 'costs.view')) {
      allowed = {
        ...allowed,
        cost_usd_cents: Number(existing?.cost_usd_cents ?? 0),
        opening_stock: allowed.opening_stock.map((line) => ({ ...line, unit_cost_cents: null })),
      };
    }
    if (existing && !can(actor, 'prices.update')) {
      const storedKhr = existing.price_khr === null ? null : Number(existing.price_khr);
      if (input.price_usd_cents !== Number(existing.price_usd_cents) || input.price_khr !== storedKhr) {
        throw new AppError(403, 'policy.prices');
      }
    }
    return allowed;
  },
};

/** The columns of a products spreadsheet the actor may see: no cost without costs.view. */
export function productSheetColumns(actor: Actor): readonly ProductSheetColumn[] {
  return can(actor, 'costs.view') ? PRODUCT_SHEET_COLUMNS : PRODUCT_SHEET_COLUMNS.filter((c) => c !== 'cost_usd');
}
