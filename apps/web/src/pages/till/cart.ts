import {
  type ChangeIn,
  type Discount,
  discountApplies,
  discountRule,
  type OrderDetail,
  type OrderInput,
  type PricedCart,
  type PriceQuoteLine,
  type Product,
  priceCart,
  type TenderInput,
} from '@depot/contracts';
import { z } from 'zod';
import { type LineUnit, lineKey } from '../../components/lines.tsx';
import { newIdempotencyKey } from '../../lib/http.ts';

/**
 * The till's cart: what the cashier is selling, kept in sessionStorage so a reload (or the review
 * page and back) keeps it. Money is priced with `priceCart` from the contracts, exactly as the
 * server will price the order; the server re-reads prices, so what is shown is what is charged.
 */

export interface TillLine {
  key: string;
  kind: 'product' | 'combo';
  /** The product's or the combo's id. */
  item_id: number;
  name_en: string;
  name_kh: string;
  sku: string;
  /** A product's category (its discounts by category); null for a combo. */
  category_id: number | null;
  thumbnail_url: string | null;
  /** A product's own unit; null for a combo. */
  base_unit_id: number | null;
  /** The unit sold (a carton is 24 cans); null for a combo. */
  unit: LineUnit | null;
  /** A product's price per own unit, a combo's selling price, in cents. */
  base_price_cents: number;
  taxable: boolean;
  /** Whole units, or a weighed product's smallest steps (grams of a kg: `decimals` 3). */
  quantity: number;
  /** The unit sold's decimals (a kg: 3); absent: whole units. */
  decimals?: number;
  discount_id: number | null;
  /**
   * A product's units in the till's store, in its own unit, as last read (absent: not known, and
   * the till does not judge it). The server judges again at checkout: stock moves meanwhile.
   */
  stock?: number | null;
  /** A combo's products: how many of each (own units) one combo takes, and their stock as above. */
  parts?: StockPart[] | null;
  /** The server's price of this line for the cart's customer (prices.ts `useQuotedCart`); absent: the base price. */
  quote?: PriceQuoteLine | null;
  /**
   * A serial-tracked product's serials (an IMEI each), one per unit: the line's quantity is their
   * count. Absent: the product is sold without serials.
   */
  serials?: string[];
}

export interface StockPart {
  product_id: number;
  name_en: string;
  name_kh: string;
  quantity: number;
  stock: number | null;
}

export interface CartDelivery {
  shipping_address: string;
  fee_cents?: number | string;
}

export interface Cart {
  /** A held order resumed: checking out changes it (PUT) rather than making a new one. */
  order_id: number | null;
  number: string | null;
  store_id: number | null;
  customer_id: number | null;
  discount_id: number | null;
  note: string;
  delivery: CartDelivery | null;
  lines: TillLine[];
}

export function emptyCart(customerId: number | null = null, storeId: number | null = null): Cart {
  return {
    order_id: null,
    number: null,
    store_id: storeId,
    customer_id: customerId,
    discount_id: null,
    note: '',
    delivery: null,
    lines: [],
  };
}

/**
 * One unit sold, in cents: the server's quote for the customer (their group's price list, a
 * quantity break) when it is for this quantity, else factor × the price (a carton of 24 costs 24 cans).
 */
export function unitPrice(line: TillLine): number {
  if (line.kind !== 'product') return line.base_price_cents;
  if (line.quote && line.quote.quantity === line.quantity) return line.quote.unit_price_cents;
  return line.base_price_cents * (line.unit?.factor ?? 1);
}

/**
 * What the till needs of a product to show its tile and sell it (the local catalogue keeps only
 * this). `unit_decimals` absent (a row kept before units had decimals): whole units.
 */
export type SoldProduct = Partial<Pick<Product, 'unit_decimals'>> &
  Pick<
    Product,
    | 'id'
    | 'name_en'
    | 'name_kh'
    | 'sku'
    | 'barcode'
    | 'category_id'
    | 'thumbnail_url'
    | 'unit_id'
    | 'unit_name_en'
    | 'unit_name_kh'
    | 'price_usd_cents'
    | 'taxable'
    | 'stock'
  > & { serial_tracked?: boolean };

/** A product's line: one of it, or of a weighed product one whole unit (1.000 kg) until weighed. */
export function productLine(row: SoldProduct): TillLine {
  const decimals = row.unit_decimals ?? 0;
  return {
    key: lineKey(),
    kind: 'product',
    item_id: row.id,
    name_en: row.name_en,
    name_kh: row.name_kh,
    sku: row.sku,
    category_id: row.category_id,
    thumbnail_url: row.thumbnail_url,
    base_unit_id: row.unit_id,
    unit: { id: row.unit_id, name_en: row.unit_name_en, name_kh: row.unit_name_kh, factor: 1 },
    base_price_cents: row.price_usd_cents,
    taxable: row.taxable,
    quantity: 10 ** decimals,
    ...(decimals ? { decimals } : {}),
    discount_id: null,
    stock: row.stock ?? null,
    ...(row.serial_tracked ? { serials: [] } : {}),
  };
}

/** Every product a line takes from the store: its own product, or a combo's parts. */
function stockOf(line: TillLine): StockPart[] {
  if (line.kind === 'combo') return line.parts ?? [];
  return [
    {
      product_id: line.item_id,
      name_en: line.name_en,
      name_kh: line.name_kh,
      quantity: line.unit?.factor ?? 1,
      stock: line.stock ?? null,
    },
  ];
}

/** The freshest stock figures a line brings, given to every line and part of the same products. */
function withStockOf(lines: TillLine[], line: TillLine): TillLine[] {
  const known = new Map(stockOf(line).flatMap((p) => (p.stock === null ? [] : [[p.product_id, p.stock] as const])));
  if (!known.size) return lines;
  const fresh = (productId: number, stock: number | null | undefined) => known.get(productId) ?? stock ?? null;
  return lines.map((l) =>
    l.kind === 'combo'
      ? { ...l, parts: l.parts?.map((p) => ({ ...p, stock: fresh(p.product_id, p.stock) })) }
      : { ...l, stock: fresh(l.item_id, l.stock) },
  );
}

/**
 * Adds one of a line: to the same product in the same unit (or the same combo) if there is one. A
 * weighed line stays its own (each bag weighed, each label scanned, is a line of its weight).
 */
export function addLine(cart: Cart, line: TillLine): Cart {
  const same = line.decimals
    ? -1
    : cart.lines.findIndex(
        (l) =>
          !l.decimals &&
          l.kind === line.kind &&
          l.item_id === line.item_id &&
          (l.unit?.id ?? null) === (line.unit?.id ?? null),
      );
  // a product sold by serial grows by the serials scanned into its line (withSerial), not by adding it again
  if (same !== -1 && cart.lines[same].serials) return cart;
  const lines =
    same === -1
      ? [...cart.lines, line]
      : cart.lines.map((l, i) => (i === same ? { ...l, quantity: l.quantity + line.quantity } : l));
  return { ...cart, lines: withStockOf(lines, line) };
}

/** The units of each product a cart takes from the store (a carton line takes factor × units). */
function demand(cart: Cart) {
  const wanted = new Map<number, { part: StockPart; units: number }>();
  for (const line of cart.lines) {
    for (const part of stockOf(line)) {
      const had = wanted.get(part.product_id);
      const units = (had?.units ?? 0) + part.quantity * line.quantity;
      // the figure known, from whichever line knows it
      wanted.set(part.product_id, { part: part.stock === null && had ? had.part : part, units });
    }
  }
  return wanted;
}

/**
 * The product a change of the cart would take beyond the store's stock, as the till knows it: one
 * whose units rise past its stock (adding it, raising a quantity, a bigger unit, a combo of it).
 * Lowering is always allowed, even while still short. Null when the change may go ahead.
 */
export function shortOf(before: Cart, after: Cart): StockPart | null {
  const had = demand(before);
  for (const [productId, { part, units }] of demand(after)) {
    if (part.stock === null || units <= part.stock) continue;
    if (units > (had.get(productId)?.units ?? 0)) return part;
  }
  return null;
}

/** Whether a discount may go on a line today (combos take none: the server refuses them). */
export function lineDiscountApplies(d: Discount, line: TillLine, today: string): boolean {
  if (line.kind !== 'product' || line.category_id === null) return false;
  return discountApplies(d, { product_id: line.item_id, category_id: line.category_id }, today);
}

/** Whole cents, or 0 while what is typed is not an amount yet. */
export function cents(value: number | string | null | undefined): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0;
}

/** The cart priced as the server prices it, with the discounts chosen (those still known). */
export function cartTotals(cart: Cart, discounts: readonly Discount[], vatRateBp: number): PricedCart {
  const byId = new Map(discounts.map((d) => [d.id, d]));
  const rule = (id: number | null) => {
    const found = id === null ? undefined : byId.get(id);
    return found ? discountRule(found) : null;
  };
  return priceCart({
    lines: cart.lines.map((line) => ({
      unit_price_cents: unitPrice(line),
      quantity: line.quantity,
      decimals: line.decimals,
      taxable: line.taxable,
      discount: rule(line.discount_id),
    })),
    order_discount: rule(cart.discount_id),
    vat_rate_bp: vatRateBp,
    delivery_fee_cents: cart.delivery ? cents(cart.delivery.fee_cents) : 0,
  });
}

/** What the API takes (`orderInput` checks it here and again on the server). */
export function orderBody(
  cart: Cart,
  { hold, payments = [], change_in = 'split' }: { hold: boolean; payments?: TenderInput[]; change_in?: ChangeIn },
) {
  return {
    change_in,
    store_id: cart.store_id,
    customer_id: cart.customer_id,
    items: cart.lines.map((line) =>
      line.kind === 'product'
        ? {
            product_id: line.item_id,
            unit_id: line.unit?.id ?? null,
            quantity: line.quantity,
            discount_id: line.discount_id,
            ...(line.serials ? { serials: line.serials } : {}),
          }
        : { combo_id: line.item_id, quantity: line.quantity, discount_id: null },
    ),
    discount_id: cart.discount_id,
    note: cart.note,
    delivery: cart.delivery
      ? { shipping_address: cart.delivery.shipping_address, fee_cents: cart.delivery.fee_cents ?? 0 }
      : null,
    hold,
    payments,
  } as OrderInput;
}

/** The spec's rule for the order screen: a customer and at least one product. */
export function readyToSell(cart: Cart): boolean {
  return cart.customer_id !== null && cart.lines.length > 0 && cart.lines.every(serialsComplete);
}

/** A serial-tracked line names one serial per base unit (the server checks the same, serials.ts). */
export function serialsComplete(line: TillLine): boolean {
  return !line.serials || line.serials.length === line.quantity * (line.unit?.factor ?? 1);
}

/** A line's serials with one more (scanned or typed): its quantity follows, in the product's own unit. */
export function withSerial(line: TillLine, serial: string): TillLine {
  if (!line.serials || line.serials.includes(serial)) return line;
  const serials = [...line.serials, serial];
  return { ...line, serials, quantity: serials.length };
}

/** A line's serials without one; the line waits for another while it has none. */
export function withoutSerial(line: TillLine, serial: string): TillLine {
  if (!line.serials) return line;
  const serials = line.serials.filter((s) => s !== serial);
  return { ...line, serials, quantity: Math.max(serials.length, 1) };
}

/**
 * A held order as a cart. Prices, categories and pictures come from the products' records (the
 * server prices the order again at checkout), given by `lookup`.
 */
export function cartOfOrder(
  detail: OrderDetail,
  lookup: (item: OrderDetail['items'][number]) => Partial<TillLine> | null,
): Cart {
  return {
    order_id: detail.id,
    number: detail.number,
    store_id: detail.store_id,
    customer_id: detail.customer_id,
    discount_id: detail.discount_id,
    note: detail.note ?? '',
    delivery:
      detail.shipping_address !== null
        ? { shipping_address: detail.shipping_address, fee_cents: detail.delivery_fee_cents }
        : null,
    lines: detail.items.map((item) => {
      const line: TillLine = {
        key: lineKey(),
        kind: item.kind,
        item_id: (item.kind === 'product' ? item.product_id : item.combo_id) ?? 0,
        name_en: item.name_en,
        name_kh: item.name_kh,
        sku: item.sku,
        category_id: null,
        thumbnail_url: null,
        base_unit_id: item.kind === 'product' && item.factor === 1 ? item.unit_id : null,
        unit:
          item.kind === 'product' && item.unit_id !== null
            ? {
                id: item.unit_id,
                name_en: item.unit_name_en ?? '',
                name_kh: item.unit_name_kh ?? '',
                factor: item.factor,
              }
            : null,
        base_price_cents:
          item.kind === 'product' ? Math.round(item.unit_price_cents / item.factor) : item.unit_price_cents,
        taxable: item.taxable,
        quantity: item.quantity,
        ...(item.decimals ? { decimals: item.decimals } : {}),
        discount_id: item.discount_id,
        ...(item.serials.length ? { serials: item.serials } : {}),
      };
      return { ...line, ...(lookup(item) ?? {}) };
    }),
  };
}

// ─── kept in sessionStorage ────────────────────────────────────────────────────────────────

const unitShape = z.object({ id: z.number(), name_en: z.string(), name_kh: z.string(), factor: z.number() });
const stored = z.object({
  order_id: z.number().nullable(),
  number: z.string().nullable(),
  store_id: z.number().nullable(),
  customer_id: z.number().nullable(),
  discount_id: z.number().nullable(),
  note: z.string(),
  delivery: z
    .object({ shipping_address: z.string(), fee_cents: z.union([z.number(), z.string()]).optional() })
    .nullable(),
  lines: z.array(
    z.object({
      key: z.string(),
      kind: z.enum(['product', 'combo']),
      item_id: z.number(),
      name_en: z.string(),
      name_kh: z.string(),
      sku: z.string(),
      category_id: z.number().nullable(),
      thumbnail_url: z.string().nullable(),
      base_unit_id: z.number().nullable(),
      unit: unitShape.nullable(),
      base_price_cents: z.number(),
      taxable: z.boolean(),
      quantity: z.number(),
      decimals: z.number().optional(),
      discount_id: z.number().nullable(),
      stock: z.number().nullable().optional(),
      serials: z.array(z.string()).optional(),
      parts: z
        .array(
          z.object({
            product_id: z.number(),
            name_en: z.string(),
            name_kh: z.string(),
            quantity: z.number(),
            stock: z.number().nullable(),
          }),
        )
        .nullable()
        .optional(),
    }),
  ),
});

const CART = 'depot.pos_cart';

export function saveCart(cart: Cart): void {
  try {
    sessionStorage.setItem(CART, JSON.stringify(cart));
  } catch {
    // A full or refused storage only loses the reload copy.
  }
}

export function loadCart(): Cart | null {
  try {
    const raw = sessionStorage.getItem(CART);
    if (!raw) return null;
    const parsed = stored.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function clearCart(): void {
  sessionStorage.removeItem(CART);
}

/** Whatever a value is in the router's state, a cart or nothing. */
export function cartFrom(value: unknown): Cart | null {
  const parsed = stored.safeParse(value);
  return parsed.success ? parsed.data : null;
}

// ─── one key per attempt at the same request ────────────────────────────────────────────────

/**
 * The Idempotency-Key of a sale, kept while its body stays the same and no answer has settled it:
 * a retry after a lost answer (even after a reload) sends the same key, so the server replays the
 * first answer instead of selling twice. Another body, or after an answer, takes a new key (the
 * server refuses a key reused for another body, and replays refusals too).
 */
export interface RetryKeys {
  keyFor: (body: unknown) => string;
  settle: () => void;
}

export function retryKeys(storageKey: string): RetryKeys {
  const read = (): { body: string; key: string } | null => {
    try {
      const raw = sessionStorage.getItem(storageKey);
      return raw ? (JSON.parse(raw) as { body: string; key: string }) : null;
    } catch {
      return null;
    }
  };
  return {
    keyFor(body) {
      const text = JSON.stringify(body);
      const last = read();
      if (last && last.body === text) return last.key;
      const key = newIdempotencyKey();
      try {
        sessionStorage.setItem(storageKey, JSON.stringify({ body: text, key }));
      } catch {
        // kept for this page only
      }
      return key;
    },
    settle() {
      sessionStorage.removeItem(storageKey);
    },
  };
}

/** Whether a failure leaves the sale's outcome unknown (the same key must go again): lib/http.ts. */
export { outcomeUnknown } from '../../lib/http.ts';
