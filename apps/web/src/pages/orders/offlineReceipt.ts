import {
  type ChangeIn,
  changeGiven,
  khrToCents,
  ORDER_ACTIONS,
  type OrderDetail,
  type PricedCart,
  type Rates,
  rielOf,
  settle,
  type TenderInput,
} from '@depot/contracts';
import { type Cart, unitPrice } from '../till/cart.ts';

/**
 * The receipt of a sale kept on this device (offline), as the order the server would
 * record: its lines, prices and totals (`cartTotals`, contracts `priceCart`), its tenders and change
 * (contracts `settle` and `changeGiven`, as the server's `payOrder`), the device receipt number in
 * place of the order number. The one `Receipt` draws it, marked not yet synced. Kept with the sale
 * in IndexedDB, so it can be printed again until the sale is synced.
 */
export function offlineOrder(input: {
  cart: Cart;
  totals: PricedCart;
  rates: Rates & { vat_rate_bp: number };
  payments: readonly TenderInput[];
  change_in: ChangeIn;
  client_id: string;
  sold_at: string;
  store: { id: number; name: string; code: string; phone: string | null; address: string | null };
  customer_name: string;
  cashier: { id: number | null; name: string | null };
  /** Discount names by id (the line's discount on the receipt). */
  discounts: ReadonlyMap<number, string>;
}): OrderDetail {
  const { cart, totals, rates, payments, sold_at } = input;
  const s = settle(totals.total_cents, payments, rates);
  const given = changeGiven(s, input.change_in);
  const rateIn = rates.rate_in_khr || rates.rate_khr;
  const paid = s.status === 'paid' ? totals.total_cents : s.tendered_cents;
  const abilities = Object.fromEntries(ORDER_ACTIONS.map((a) => [a, false])) as OrderDetail['abilities'];
  return {
    id: 0,
    created_at: sold_at,
    updated_at: sold_at,
    deleted_at: null,
    number: input.client_id,
    store_id: input.store.id,
    store_name: input.store.name,
    store_code: input.store.code,
    store_phone: input.store.phone,
    store_address: input.store.address,
    cashier_id: input.cashier.id,
    cashier_name: input.cashier.name,
    customer_id: cart.customer_id ?? 0,
    customer_name: input.customer_name,
    customer_phone: null,
    customer_vat_number: null,
    order_date: sold_at,
    status: 'confirmed',
    payment_status: s.status,
    subtotal_cents: totals.subtotal_cents,
    discount_cents: totals.discount_cents,
    tax_cents: totals.tax_cents,
    delivery_fee_cents: totals.delivery_fee_cents,
    total_cents: totals.total_cents,
    paid_cents: paid,
    due_cents: Math.max(0, totals.total_cents - paid),
    change_cents: s.change_cents,
    change_khr: s.change_khr,
    change_given_cents: given.usd_cents,
    change_given_khr: given.khr,
    exchange_rate_khr: rates.rate_khr,
    rate_in_khr: rates.rate_in_khr ?? null,
    rate_out_khr: rates.rate_out_khr ?? null,
    khr_step: rates.khr_step,
    total_khr: rielOf(totals.total_cents, rates),
    vat_rate_bp: rates.vat_rate_bp,
    discount_id: cart.discount_id,
    note: cart.note || null,
    shipping_address: cart.delivery?.shipping_address ?? null,
    delivery_status: null,
    items_count: cart.lines.length,
    invoice_number: null,
    cancelled_at: null,
    cancel_reason: null,
    offline_sold_at: sold_at,
    offline_receipt_no: input.client_id,
    oversold: false,
    abilities,
    items: cart.lines.map((line, index): OrderDetail['items'][number] => {
      const priced = totals.lines[index];
      const quote = line.kind === 'product' && line.quote?.quantity === line.quantity ? line.quote : null;
      return {
        id: index + 1,
        kind: line.kind,
        product_id: line.kind === 'product' ? line.item_id : null,
        combo_id: line.kind === 'combo' ? line.item_id : null,
        name_en: line.name_en,
        name_kh: line.name_kh,
        sku: line.sku,
        unit_id: line.unit?.id ?? null,
        unit_name_en: line.unit?.name_en ?? null,
        unit_name_kh: line.unit?.name_kh ?? null,
        decimals: line.decimals ?? 0,
        factor: line.unit?.factor ?? 1,
        quantity: line.quantity,
        unit_price_cents: unitPrice(line),
        discount_id: line.discount_id,
        discount_name: line.discount_id === null ? null : (input.discounts.get(line.discount_id) ?? null),
        line_discount_cents: priced.line_discount_cents,
        order_discount_cents: priced.order_discount_cents,
        net_cents: priced.net_cents,
        tax_cents: priced.tax_cents,
        total_cents: priced.total_cents,
        taxable: line.taxable,
        returned_quantity: 0,
        oversold: 0,
        serials: line.serials ?? [],
        price_source: line.kind === 'combo' ? 'combo' : (quote?.source ?? 'product'),
        list_price_cents: quote?.list_price_cents ?? null,
        price_list_en: quote?.price_list_en ?? null,
        price_list_kh: quote?.price_list_kh ?? null,
      };
    }),
    payments: payments.map((p, index) => ({
      id: index + 1,
      kind: 'payment' as const,
      method: p.method,
      amount: p.amount,
      amount_cents: p.method === 'cash_khr' ? khrToCents(p.amount, rateIn) : p.amount,
      transaction_id: p.transaction_id ?? null,
      received_by_name: input.cashier.name,
      created_at: sold_at,
    })),
    invoice: null,
    approved_by_name: null,
  };
}
