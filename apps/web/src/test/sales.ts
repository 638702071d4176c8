import type {
  Category,
  Combo,
  ComboPreview,
  CurrentRates,
  Customer,
  Discount,
  OrderDetail,
  Product,
} from '@depot/contracts';
import { listAnswer, productRow, STORES, stamp } from './inventory.ts';
import { actorOf, comboPolicy, orderPolicy, type Viewer } from './policies.ts';
import type { Handler } from './render.tsx';

/** Rows as the server answers them, for the till's, the orders' and the catalogue's tests. */

export const RATES: CurrentRates = {
  rate_khr: 4100,
  rate_in_khr: null,
  rate_out_khr: null,
  khr_step: 100,
  vat_rate_bp: 1000,
  stale_after_hours: 24,
  updated_at: '2026-03-01T01:00:00.000Z',
  updated_by_name: 'admin',
  stale: false,
  receipt_title: '',
  receipt_footer: 'សូមអរគុណ! Thank you!',
};

export function customerRow(id: number, name: string, extra: Partial<Customer> = {}): Customer {
  return {
    id,
    name,
    phone: null,
    address: null,
    shipping_address: null,
    vat_number: null,
    village_id: null,
    location: null,
    location_kh: null,
    status: 'active',
    is_walk_in: false,
    credit_limit_cents: null,
    payment_terms_days: 0,
    ...stamp,
    ...extra,
  } as Customer;
}

export const WALK_IN = customerRow(1, 'អតិថិជនទូទៅ', { is_walk_in: true });
export const DARA = customerRow(2, 'Sok Dara', { phone: '012 345 678', shipping_address: 'St. 271, Phnom Penh' });

export function discountRow(id: number, extra: Partial<Discount> = {}): Discount {
  return {
    id,
    name: 'Drinks 10%',
    type: 'percentage',
    amount: 1000,
    scope: 'category',
    product_id: null,
    product_name_en: null,
    product_name_kh: null,
    category_id: 1,
    category_name_en: 'Drinks',
    category_name_kh: 'ភេសជ្ជៈ',
    starts_on: null,
    ends_on: null,
    status: 'active',
    ...stamp,
    ...extra,
  };
}

export const DRINKS_10 = discountRow(1);
export const ORDER_1_OFF = discountRow(2, {
  name: 'Loyalty $1',
  type: 'value',
  amount: 100,
  scope: 'order',
  category_id: null,
  category_name_en: null,
  category_name_kh: null,
});

export function categoryRow(id: number, name_en: string, name_kh: string): Category {
  return { id, name_en, name_kh, description: null, status: 'active', sub_categories_count: 0, ...stamp };
}

export const BEER = productRow(1);
export const RICE = productRow(2, {
  name_en: 'Jasmine rice 5kg',
  name_kh: 'អង្ករផ្កាម្លិះ',
  sku: 'RICE-5',
  barcode: '8850000000002',
  category_id: 2,
  category_name_en: 'Rice',
  category_name_kh: 'អង្ករ',
  unit_id: 9,
  unit_name_en: 'Bag',
  unit_name_kh: 'បាវ',
  price_usd_cents: 450,
  price_khr_effective: 18500,
  taxable: false,
});

/** A combo as the server answers it to `viewer` (an administrator by default): its abilities are the policy's. */
export function comboRow(id: number, extra: Partial<Combo> = {}, viewer: Viewer = {}): Combo {
  const row: Omit<Combo, 'abilities'> = {
    id,
    name_en: 'Party pack',
    name_kh: 'កញ្ចប់ពិធីជប់លៀង',
    description: null,
    sku: 'PARTY-1',
    barcode: null,
    selling_price_cents: 2500,
    status: 'active',
    items_count: 2,
    total_quantity: 13,
    price_cents: 2088,
    total_cost_cents: 1530,
    profit_cents: 970,
    margin_bp: 3880,
    created_by: 1,
    created_by_name: 'admin',
    ...stamp,
    ...extra,
  };
  return { ...row, abilities: extra.abilities ?? comboPolicy.abilities(actorOf(viewer), row) };
}

/** An order as the server answers it to `viewer` (an administrator by default): its abilities are the policy's. */
export function orderRow(id: number, extra: Partial<OrderDetail> = {}, viewer: Viewer = {}): OrderDetail {
  const row: Omit<OrderDetail, 'abilities'> = {
    id,
    number: `SO-PP01-${String(id).padStart(6, '0')}`,
    store_id: 1,
    store_name: 'Phnom Penh Depot',
    store_code: 'PP01',
    store_phone: '023 123 456',
    store_address: 'Street 271, Phnom Penh',
    cashier_id: 1,
    cashier_name: 'Sok Dara',
    customer_id: 1,
    customer_name: 'អតិថិជនទូទៅ',
    customer_phone: null,
    customer_vat_number: null,
    order_date: '2026-03-01T03:00:00.000Z',
    status: 'confirmed',
    payment_status: 'paid',
    subtotal_cents: 504,
    discount_cents: 0,
    tax_cents: 50,
    delivery_fee_cents: 0,
    total_cents: 554,
    paid_cents: 554,
    due_cents: 0,
    change_cents: 0,
    change_khr: 0,
    change_given_cents: 0,
    change_given_khr: 0,
    exchange_rate_khr: 4100,
    rate_in_khr: null,
    rate_out_khr: null,
    khr_step: 100,
    total_khr: 22700,
    vat_rate_bp: 1000,
    discount_id: null,
    note: null,
    shipping_address: null,
    delivery_status: null,
    items_count: 1,
    invoice_number: null,
    cancelled_at: null,
    cancel_reason: null,
    offline_sold_at: null,
    offline_receipt_no: null,
    oversold: false,
    items: [
      {
        id: 301,
        kind: 'product',
        product_id: 1,
        combo_id: null,
        name_en: 'Angkor Beer 330ml',
        name_kh: 'ស្រាបៀរអង្គរ',
        sku: 'ANG-330',
        unit_id: 5,
        unit_name_en: 'Can',
        unit_name_kh: 'កំប៉ុង',
        factor: 1,
        quantity: 4,
        unit_price_cents: 126,
        discount_id: null,
        discount_name: null,
        line_discount_cents: 0,
        order_discount_cents: 0,
        net_cents: 504,
        tax_cents: 50,
        total_cents: 554,
        taxable: true,
        returned_quantity: 0,
        oversold: 0,
        price_source: 'product',
        list_price_cents: 126,
        price_list_en: null,
        price_list_kh: null,
      },
    ],
    payments: [],
    invoice: null,
    approved_by_name: null,
    ...stamp,
    ...extra,
  };
  return { ...row, abilities: extra.abilities ?? orderPolicy.abilities(actorOf(viewer), row) };
}

export function previewOf(extra: Partial<ComboPreview> = {}): ComboPreview {
  const { id: _id, created_at: _c, updated_at: _u, deleted_at: _d, abilities: _a, ...rest } = comboRow(0);
  return {
    ...rest,
    items: [
      {
        product_id: 1,
        product_name_en: 'Angkor Beer 330ml',
        product_name_kh: 'ស្រាបៀរអង្គរ',
        sku: 'ANG-330',
        unit_id: 5,
        unit_name_en: 'Can',
        unit_name_kh: 'កំប៉ុង',
        factor: 1,
        quantity: 12,
        base_quantity: 12,
        unit_price_cents: 126,
        price_cents: 1512,
        cost_cents: 1080,
      },
      {
        product_id: 2,
        product_name_en: 'Jasmine rice 5kg',
        product_name_kh: 'អង្ករផ្កាម្លិះ',
        sku: 'RICE-5',
        unit_id: 9,
        unit_name_en: 'Bag',
        unit_name_kh: 'បាវ',
        factor: 1,
        quantity: 1,
        base_quantity: 1,
        unit_price_cents: 576,
        price_cents: 576,
        cost_cents: 450,
      },
    ],
    ...extra,
  };
}

/** The products a search asks for, as the server would roughly find them: a category, a SKU, a barcode, a name. */
function searched(products: Product[], query: URLSearchParams): Product[] {
  const search = (query.get('search') ?? '').toLowerCase();
  const category = query.get('filter[category_id]');
  return products.filter(
    (p) =>
      (!category || String(p.category_id) === category) &&
      (!search ||
        p.sku.toLowerCase().startsWith(search) ||
        p.barcode === search ||
        p.name_en.toLowerCase().includes(search)),
  );
}

/** What the till reads besides the request under test: rates, discounts, customers, catalogue. */
export function tillLookups(products: Product[] = [BEER, RICE]): Record<string, Handler> {
  return {
    'GET exchange-rates/current': () => ({ body: { data: RATES } }),
    'GET discounts': () => ({ body: listAnswer([DRINKS_10, ORDER_1_OFF]) }),
    'GET customers': () => ({ body: listAnswer([WALK_IN, DARA]) }),
    'GET customers/1': () => ({ body: { data: WALK_IN } }),
    'GET customers/2': () => ({ body: { data: DARA } }),
    'GET categories': () => ({
      body: listAnswer([categoryRow(1, 'Drinks', 'ភេសជ្ជៈ'), categoryRow(2, 'Rice', 'អង្ករ')]),
    }),
    'GET products': ({ query }) => ({ body: listAnswer(searched(products, query)) }),
    // the till's own search (before its catalogue is on the device) and its scans by code
    'GET products/till': ({ query }) => {
      const code = query.get('filter[code]')?.toLowerCase();
      return {
        body: listAnswer(
          code === undefined
            ? searched(products, query)
            : products.filter((p) => p.barcode?.toLowerCase() === code || p.sku.toLowerCase() === code),
        ),
      };
    },
    'GET products/1': () => ({ body: { data: BEER } }),
    'GET products/2': () => ({ body: { data: RICE } }),
    'GET combos': () => ({ body: listAnswer([]) }),
    'GET stores': () => ({ body: listAnswer(STORES) }),
    'GET orders': () => ({ body: listAnswer([]) }),
    'GET settings/sale': () => ({
      body: {
        data: {
          vat_rate_bp: 1000,
          khr_rounding_step: 100,
          stale_after_hours: 24,
          receipt_title: 'Depot PP',
          receipt_footer: 'សូមអរគុណ! Thank you!',
        },
      },
    }),
  };
}

export const SELLING = [
  'orders.list',
  'orders.view',
  'orders.create',
  'orders.update',
  'orders.cancel',
  'customers.list',
  'customers.view',
  'products.list',
  'products.view',
  'categories.list',
  'discounts.list',
  'combos.list',
  'combos.view',
  'stores.list',
  'exchange_rates.view',
];

/** The order as the server answers it to another viewer (a cashier): the same record, their abilities. */
export function seenBy(order: OrderDetail, viewer: Viewer): OrderDetail {
  return { ...order, abilities: orderPolicy.abilities(actorOf(viewer), order) };
}
