import { type ChosenPrice, choosePrice, type PriceQuote, type PriceRule, type priceQuoteInput } from '@depot/contracts';
import type { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { FieldError } from '../../http/errors.ts';
import { findLive } from '../../kit/resource.ts';
import { factorFor } from '../stock/stock.repository.ts';

/** The price list a customer buys at: their group when it is live and active, else none (the base list). */
export async function customerPriceGroup(
  db: Db,
  customerId: number,
  /** The customer's live row, when the caller has read it (a sale's saleStore). */
  found?: { customer_group_id: number | null } | null,
) {
  const customer = found !== undefined ? found : await findLive(db, 'customers', customerId);
  if (!customer) return undefined;
  if (customer.customer_group_id === null) return null;
  const group = await findLive(db, 'customer_groups', Number(customer.customer_group_id));
  return group && group.status === 'active' ? group : null;
}

export type PriceGroup = NonNullable<Awaited<ReturnType<typeof customerPriceGroup>>>;

/**
 * The live, active price-list rows that can price these products for this group: the group's and
 * the base list's, of the products and of their categories. One query.
 */
export async function priceRulesFor(
  db: Db,
  groupId: number | null,
  products: readonly { id: number; category_id: number }[],
): Promise<PriceRule[]> {
  if (!products.length) return [];
  const rows = await db
    .selectFrom('price_lists')
    .select([
      'customer_group_id',
      'scope',
      'product_id',
      'unit_id',
      'category_id',
      'min_quantity',
      'price_cents',
      'price_khr',
      'off_bp',
    ])
    .where('deleted_at', 'is', null)
    .where('status', '=', 'active')
    .where((eb) =>
      groupId === null
        ? eb('customer_group_id', 'is', null)
        : eb.or([eb('customer_group_id', 'is', null), eb('customer_group_id', '=', groupId)]),
    )
    .where((eb) =>
      eb.or([
        eb(
          'product_id',
          'in',
          products.map((p) => p.id),
        ),
        eb('category_id', 'in', [...new Set(products.map((p) => p.category_id))]),
      ]),
    )
    .execute();
  const n = (v: unknown) => (v === null ? null : Number(v));
  return rows.map((r) => ({
    customer_group_id: n(r.customer_group_id),
    scope: r.scope,
    product_id: n(r.product_id),
    unit_id: n(r.unit_id),
    category_id: n(r.category_id),
    min_quantity: Number(r.min_quantity),
    price_cents: n(r.price_cents),
    price_khr: n(r.price_khr),
    off_bp: n(r.off_bp),
  }));
}

/** The names of the list a chosen price came from (the group's, or none for the base list and the product). */
export function listNames(chosen: ChosenPrice, group: PriceGroup | null) {
  return chosen.group_id !== null && group && chosen.group_id === group.id
    ? { price_list_en: group.name_en, price_list_kh: group.name_kh }
    : { price_list_en: null, price_list_kh: null };
}

/**
 * What the server would charge for product lines sold to a customer: the till's preview, priced
 * by the one rule (`choosePrice`) with the rows the checkout will read.
 */
export async function quotePrices(db: Db, input: z.output<typeof priceQuoteInput>): Promise<PriceQuote> {
  const group = await customerPriceGroup(db, input.customer_id);
  if (group === undefined) throw new FieldError({ customer_id: [{ key: 'validation.exists' }] });
  const productIds = [0, ...new Set(input.items.map((i) => i.product_id))];
  const products = new Map(
    (
      await db
        .selectFrom('products')
        .select(['id', 'category_id', 'price_usd_cents', 'unit_id'])
        .where('id', 'in', productIds)
        .where('deleted_at', 'is', null)
        .execute()
    ).map((p) => [p.id, { ...p, price_usd_cents: Number(p.price_usd_cents) }]),
  );
  const units = new Map(
    (
      await db
        .selectFrom('units')
        .select(['id', 'base_unit_id', 'factor'])
        .where('id', 'in', [0, ...input.items.flatMap((i) => (i.unit_id ? [i.unit_id] : []))])
        .where('deleted_at', 'is', null)
        .execute()
    ).map((u) => [u.id, u]),
  );
  const rules = await priceRulesFor(db, group?.id ?? null, [...products.values()]);
  const problems: Record<string, { key: 'validation.exists' | 'stock.unit_of_product' }[]> = {};
  const lines = input.items.flatMap((item, index) => {
    const product = products.get(item.product_id);
    if (!product) {
      problems[`items.${index}.product_id`] = [{ key: 'validation.exists' }];
      return [];
    }
    const unitId = item.unit_id ?? product.unit_id;
    const unit = units.get(unitId);
    const factor = item.unit_id === null ? 1 : unit ? factorFor(product.unit_id, unit) : null;
    if (factor === null) {
      problems[`items.${index}.unit_id`] = [{ key: 'stock.unit_of_product' }];
      return [];
    }
    const chosen = choosePrice(
      { product, unit_id: unitId, factor, quantity: item.quantity, group_id: group?.id ?? null },
      rules,
    );
    return [
      {
        product_id: product.id,
        unit_id: unitId,
        quantity: item.quantity,
        unit_price_cents: chosen.unit_price_cents,
        list_price_cents: chosen.list_price_cents,
        source: chosen.source,
        ...listNames(chosen, group),
        min_quantity: chosen.min_quantity,
      },
    ];
  });
  if (Object.keys(problems).length) throw new FieldError(problems);
  return {
    customer_group_id: group?.id ?? null,
    group_name_en: group?.name_en ?? null,
    group_name_kh: group?.name_kh ?? null,
    lines,
  };
}
