import {
  type CartLine,
  choosePrice,
  type DiscountRule,
  discountApplies,
  type MessageKey,
  type MessageParams,
  type orderInput,
  type PaymentStatus,
  type PriceSource,
  priceCart,
  type returnInput,
  rielOf,
  type SaleRates,
  type tenderInput,
} from '@depot/contracts';
import type { Selectable } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/database.ts';
import type { OrderItemsTable, OrdersTable } from '../../db/schema.ts';
import { FieldError } from '../../http/errors.ts';
import { findLive } from '../../kit/resource.ts';
import { authorizeSale } from '../../policies/orders.ts';
import type { Actor } from '../../policies/policy.ts';
import { customerPriceGroup, listNames, priceRulesFor } from '../prices/prices.service.ts';
import { checkSerialCount } from '../serials/serials.ledger.ts';
import { factorFor } from '../stock/stock.repository.ts';
import { cartCombos, cartDiscounts, cartProducts, cartUnits, comboParts } from './orders.repository.ts';

/*
 * The steps of an order's writes, each a named function that can be read and tested alone. The
 * orders service (orders.service.ts) composes them inside the document building block, which
 * locks, authorizes and runs them in one transaction. Here: the cart, checked against the
 * catalogue and priced, and the order row it makes. The sale's writes are in orders.sale.ts, its
 * money in orders.payments.ts, its stock in orders.stock.ts, voids and returns in orders.returns.ts.
 */

export type OrderInput = z.output<typeof orderInput>;
export type ReturnInput = z.output<typeof returnInput>;
export type Tender = z.output<typeof tenderInput>;
export type Problems = Record<string, { key: MessageKey; params?: MessageParams }[]>;
export type OrderRow = Selectable<OrdersTable>;

/**
 * A line of a cart as it will be sold: priced from the catalogue, with the stock it takes. The
 * columns it shares with the order item it becomes are that row's (db/schema.ts).
 */
export interface SaleLine
  extends Pick<
    Selectable<OrderItemsTable>,
    | 'kind'
    | 'product_id'
    | 'combo_id'
    | 'name_en'
    | 'name_kh'
    | 'sku'
    | 'unit_id'
    | 'factor'
    | 'quantity'
    | 'unit_price_cents'
    | 'price_list_en'
    | 'price_list_kh'
  > {
  /** Why it costs that (contracts `choosePrice`): the list price before a break, the list's names. */
  price_source: PriceSource;
  list_price_cents: number;
  /** The unit sold's decimals (a kg: 3, its quantity in grams; a carton or a combo: 0). */
  decimals: number;
  taxable: boolean;
  discount: { id: number; name: string; rule: DiscountRule } | null;
  /** The base units of each product the line takes (a combo's items, times the line's quantity). */
  takes: { product_id: number; units: number }[];
  /** A serial-tracked product's serials, one per base unit (checked against the count here). */
  serials: string[];
}

/** Payment status from what is paid, what is due and whether it goes out for delivery. */
export function paymentStatus(total: number, paid: number, delivery: boolean): PaymentStatus {
  if (paid >= total) return 'paid';
  if (paid > 0) return 'partially_paid';
  return delivery ? 'pending' : 'unpaid';
}

/**
 * The store a sale is made in (the one named, else the seller's home store): live, active and
 * covered by the seller; and its customer, live (answered too: readCart prices by its group).
 */
export async function saleStore(trx: Db, actor: Actor, input: OrderInput) {
  const storeId = input.store_id ?? actor.storeId;
  if (!storeId) throw new FieldError({ store_id: [{ key: 'validation.required' }] });
  const store = await findLive(trx, 'stores', storeId);
  if (!store) throw new FieldError({ store_id: [{ key: 'validation.exists' }] });
  if (store.status !== 'active') throw new FieldError({ store_id: [{ key: 'validation.store_inactive' }] });
  authorizeSale(actor, store.id);
  const customer = await findLive(trx, 'customers', input.customer_id);
  if (!customer) throw new FieldError({ customer_id: [{ key: 'validation.exists' }] });
  return { store, customer };
}

/**
 * Checks a cart against the catalogue: live, active products and combos, a unit of each product,
 * discounts that apply today. Every mistake at once, on its field (`items.2.unit_id`).
 */
export async function readCart(
  trx: Db,
  input: OrderInput,
  today: string,
  /** The customer's row, when the caller has read it (saleStore): not read again. */
  customer?: { customer_group_id: number | null },
) {
  const problems: Problems = {};
  const add = (field: string, key: MessageKey, params?: MessageParams) => {
    problems[field] = [...(problems[field] ?? []), { key, params }];
  };
  const productIds = input.items.flatMap((i) => (i.product_id ? [i.product_id] : []));
  const comboIds = input.items.flatMap((i) => (i.combo_id ? [i.combo_id] : []));
  const discountIds = [
    ...input.items.flatMap((i) => (i.discount_id ? [i.discount_id] : [])),
    ...(input.discount_id ? [input.discount_id] : []),
  ];

  const products = new Map((productIds.length ? await cartProducts(trx, productIds) : []).map((p) => [p.id, p]));
  // the customer's price list (saleStore has found the customer): their group's rows and the base list's
  const group = (await customerPriceGroup(trx, input.customer_id, customer)) ?? null;
  const priceRules = await priceRulesFor(trx, group?.id ?? null, [...products.values()]);
  const combos = new Map((comboIds.length ? await cartCombos(trx, comboIds) : []).map((c) => [c.id, c]));
  const comboItems = comboIds.length ? await comboParts(trx, comboIds) : [];
  const units = new Map(
    (
      await cartUnits(
        trx,
        input.items.flatMap((i) => (i.unit_id ? [i.unit_id] : [])),
      )
    ).map((u) => [u.id, u]),
  );
  const discounts = new Map((discountIds.length ? await cartDiscounts(trx, discountIds) : []).map((d) => [d.id, d]));
  const discountFor = (discountId: number | null, field: string, target: Parameters<typeof discountApplies>[1]) => {
    if (!discountId) return null;
    const found = discounts.get(discountId);
    if (!found || !discountApplies(found, target, today)) {
      add(field, 'order.discount_not_applicable');
      return null;
    }
    return { id: found.id, name: found.name, rule: { type: found.type, amount: Number(found.amount) } as DiscountRule };
  };

  const lines: SaleLine[] = [];
  for (const [index, item] of input.items.entries()) {
    const field = `items.${index}`;
    if (item.product_id) {
      const product = products.get(item.product_id);
      if (!product) {
        add(`${field}.product_id`, 'validation.exists');
        continue;
      }
      if (product.status !== 'active') add(`${field}.product_id`, 'validation.product_inactive');
      const unit = item.unit_id ? units.get(item.unit_id) : null;
      const factor = item.unit_id ? (unit ? factorFor(product.unit_id, unit) : null) : 1;
      if (factor === null) {
        add(`${field}.unit_id`, 'stock.unit_of_product');
        continue;
      }
      const chosen = choosePrice(
        {
          product: { ...product, price_usd_cents: Number(product.price_usd_cents) },
          unit_id: item.unit_id ?? product.unit_id,
          factor,
          quantity: item.quantity,
          group_id: group?.id ?? null,
        },
        priceRules,
      );
      lines.push({
        kind: 'product',
        product_id: product.id,
        combo_id: null,
        name_en: product.name_en,
        name_kh: product.name_kh,
        sku: product.sku,
        unit_id: item.unit_id ?? product.unit_id,
        factor,
        quantity: item.quantity,
        // a weighed product sold in its own unit: the quantity is in grams (a unit made of it is whole)
        decimals: factor === 1 ? Number(product.unit_decimals) : 0,
        unit_price_cents: chosen.unit_price_cents,
        price_source: chosen.source,
        list_price_cents: chosen.list_price_cents,
        ...listNames(chosen, group),
        taxable: Number(product.taxable) === 1,
        discount: discountFor(item.discount_id, `${field}.discount_id`, {
          product_id: product.id,
          category_id: product.category_id,
        }),
        takes: [{ product_id: product.id, units: item.quantity * factor }],
        serials: item.serials,
      });
      checkSerialCount(problems, `${field}.serials`, {
        tracked: Number(product.serial_tracked) === 1,
        units: item.quantity * factor,
        serials: item.serials,
      });
    } else if (item.combo_id) {
      const combo = combos.get(item.combo_id);
      if (!combo) {
        add(`${field}.combo_id`, 'validation.exists');
        continue;
      }
      if (combo.status !== 'active') add(`${field}.combo_id`, 'validation.product_inactive');
      if (item.discount_id) add(`${field}.discount_id`, 'order.discount_not_applicable');
      const parts = comboItems.filter((c) => c.combo_id === combo.id);
      // a unit with a serial is sold by it: never inside a bundle, which names none
      if (parts.some((p) => Number(p.serial_tracked) === 1)) add(`${field}.combo_id`, 'serial.in_combo');
      if (item.serials.length) add(`${field}.serials`, 'serial.not_tracked');
      lines.push({
        kind: 'combo',
        product_id: null,
        combo_id: combo.id,
        name_en: combo.name_en,
        name_kh: combo.name_kh,
        sku: combo.sku,
        unit_id: null,
        factor: 1,
        quantity: item.quantity,
        decimals: 0,
        unit_price_cents: Number(combo.selling_price_cents),
        price_source: 'combo',
        list_price_cents: Number(combo.selling_price_cents),
        price_list_en: null,
        price_list_kh: null,
        // a bundle carries VAT when any of its products does
        taxable: parts.some((p) => Number(p.taxable) === 1),
        // discounts name products and categories; a combo's price is already its own
        discount: null,
        takes: parts.map((p) => ({ product_id: p.product_id, units: item.quantity * p.quantity * p.factor })),
        serials: [],
      });
    }
  }
  const orderDiscount = discountFor(input.discount_id, 'discount_id', 'order');
  if (Object.keys(problems).length) throw new FieldError(problems);
  return { lines, orderDiscount };
}

export type Cart = Awaited<ReturnType<typeof readCart>>;

/** The money of a cart: `priceCart`, the function the till shows the same numbers with. */
export function priceOrder(cart: Cart, rates: SaleRates, delivery: OrderInput['delivery']) {
  const lines: CartLine[] = cart.lines.map((l) => ({
    unit_price_cents: l.unit_price_cents,
    quantity: l.quantity,
    decimals: l.decimals,
    taxable: l.taxable,
    discount: l.discount?.rule ?? null,
  }));
  return priceCart({
    lines,
    order_discount: cart.orderDiscount?.rule ?? null,
    vat_rate_bp: rates.vat_rate_bp,
    delivery_fee_cents: delivery?.fee_cents ?? 0,
  });
}

export type Priced = ReturnType<typeof priceOrder>;

/** The order row of a priced cart: held (no stock, payment on hold) or sold (confirmed, nothing paid yet). */
export function orderValues(
  input: OrderInput,
  sale: { storeId: number; cashierId: number; cart: Cart; priced: Priced; rates: SaleRates; held: boolean; at: string },
) {
  const { priced, rates, held } = sale;
  return {
    store_id: sale.storeId,
    customer_id: input.customer_id,
    cashier_id: sale.cashierId,
    order_date: sale.at,
    status: held ? ('held' as const) : ('confirmed' as const),
    payment_status: held ? ('onhold' as const) : paymentStatus(priced.total_cents, 0, input.delivery !== null),
    subtotal_cents: priced.subtotal_cents,
    discount_cents: priced.discount_cents,
    tax_cents: priced.tax_cents,
    delivery_fee_cents: priced.delivery_fee_cents,
    total_cents: priced.total_cents,
    paid_cents: 0,
    change_cents: 0,
    change_khr: 0,
    change_given_cents: 0,
    change_given_khr: 0,
    exchange_rate_khr: rates.rate_khr,
    rate_in_khr: rates.rate_in_khr ?? null,
    rate_out_khr: rates.rate_out_khr ?? null,
    khr_step: rates.khr_step,
    total_khr: rielOf(priced.total_cents, rates),
    vat_rate_bp: rates.vat_rate_bp,
    discount_id: sale.cart.orderDiscount?.id ?? null,
    note: input.note,
    shipping_address: input.delivery?.shipping_address ?? null,
    delivery_status: input.delivery && !held ? ('preparing' as const) : null,
    // lines, as a purchase and a combo count them (the invoices list and the held orders read it)
    items_count: sale.cart.lines.length,
    // made on the till with no connection (orders.service.ts `create` checks the claim)
    offline_sold_at: input.offline ? new Date(input.offline.sold_at).toISOString() : null,
    offline_receipt_no: input.offline?.device_receipt_no ?? null,
    updated_at: sale.at,
  };
}

export type OrderValues = ReturnType<typeof orderValues>;
