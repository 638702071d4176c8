import { type Locale, type PriceQuote, type PriceSource, priceQuote, single } from '@depot/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useMemo } from 'react';
import { localName } from '../../kit/resource.ts';
import { useCan } from '../../lib/access.tsx';
import { api } from '../../lib/http.ts';
import type { Cart } from './cart.ts';

/**
 * The customer's prices at the till. The server is the authority: it prices the order
 * with `choosePrice` at checkout, and answers `POST /api/prices/quote` with the same rule and rows,
 * so the cart shows what will be charged: the group's price of the unit, a quantity break, or
 * factor × the product's price. A line whose quote is for another quantity or unit shows the base
 * price until the new quote arrives.
 */
export function useQuotedCart(cart: Cart): { cart: Cart; quote: PriceQuote | null } {
  const can = useCan('orders.create');
  const items = cart.lines
    .filter((l) => l.kind === 'product')
    .map((l) => ({ product_id: l.item_id, unit_id: l.unit?.id ?? null, quantity: l.quantity }));
  const body = { customer_id: cart.customer_id, items };
  const query = useQuery({
    queryKey: ['price-quote', JSON.stringify(body)],
    queryFn: async ({ signal }) =>
      (await api('prices/quote', { method: 'POST', body, signal, schema: single(priceQuote) })).data,
    enabled: can && cart.customer_id !== null && items.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 15_000,
    retry: false,
  });
  const data = query.data ?? null;
  const fresh = data && cart.customer_id !== null ? data : null;
  return useMemo(() => ({ cart: fresh ? withQuote(cart, fresh) : cart, quote: fresh }), [cart, fresh]);
}

/** The cart with each product line's quoted price, where the quote is for its product, unit and quantity. */
export function withQuote(cart: Cart, quote: PriceQuote): Cart {
  return {
    ...cart,
    lines: cart.lines.map((line) => {
      if (line.kind !== 'product') return line;
      const found = quote.lines.find(
        (q) =>
          q.product_id === line.item_id &&
          q.quantity === line.quantity &&
          (line.unit === null || q.unit_id === line.unit.id),
      );
      return found ? { ...line, quote: found } : line;
    }),
  };
}

/** "Group price", "Quantity break"… */
export function sourceText(t: TFunction, source: PriceSource): string {
  return t(`prices.source.${source}`);
}

/** The price list a line's price came from, in the page's language: the group's name, or "Base prices". */
export function listText(
  t: TFunction,
  locale: Locale,
  names: { price_list_en: string | null; price_list_kh: string | null },
): string {
  return names.price_list_en || names.price_list_kh
    ? localName({ name_en: names.price_list_en, name_kh: names.price_list_kh }, locale)
    : t('prices.basePrices');
}
