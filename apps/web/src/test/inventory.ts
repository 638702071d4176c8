import type {
  Product,
  PurchaseDetail,
  StockBatch,
  StockLevel,
  Store,
  Supplier,
  TransferDetail,
  Unit,
} from '@depot/contracts';
import { NO_KHQR } from '@depot/contracts';
import { waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { actorOf, purchasePolicy, transferPolicy, type Viewer } from './policies.ts';

/** Rows as the server answers them, and the list and dropdown helpers the component tests share. */

export const stamp = {
  created_at: '2026-03-01T02:00:00.000Z',
  updated_at: '2026-03-01T02:00:00.000Z',
  deleted_at: null,
};

/** The list answer of the server (Laravel's paginator). */
export function listAnswer<T>(rows: T[], { total = rows.length, page = 1, perPage = 20, lowerBound = false } = {}) {
  const from = rows.length ? (page - 1) * perPage + 1 : null;
  return {
    data: rows,
    meta: {
      current_page: page,
      per_page: perPage,
      total,
      ...(lowerBound && { total_is_lower_bound: true }),
      last_page: Math.max(1, Math.ceil(total / perPage)),
      from,
      to: from === null ? null : from + rows.length - 1,
    },
    links: { first: '/api/x?page=1', last: '/api/x?page=1', prev: null, next: null },
  };
}

export function storeRow(id: number, name: string, code: string): Store {
  return {
    id,
    name,
    code,
    phone: null,
    address: null,
    village_id: null,
    location: null,
    location_kh: null,
    status: 'active',
    users_count: 1,
    ...NO_KHQR,
    ...stamp,
  };
}

export const STORES = [storeRow(1, 'Phnom Penh Depot', 'PP01'), storeRow(2, 'Siem Reap Depot', 'SR01')];

export function supplierRow(id: number, name: string): Supplier {
  return {
    id,
    name,
    type: 'company',
    phone: null,
    address: null,
    shipping_address: null,
    village_id: null,
    location: null,
    location_kh: null,
    status: 'active',
    total_items: 0,
    payment_terms_days: 0,
    ...stamp,
  };
}

export function productRow(id: number, extra: Partial<Product> = {}): Product {
  return {
    id,
    name_en: 'Angkor Beer 330ml',
    name_kh: 'ស្រាបៀរអង្គរ',
    short_name: null,
    sku: 'ANG-330',
    barcode: '8851959132012',
    brand_id: null,
    brand_name: null,
    category_id: 1,
    category_name_en: 'Drinks',
    category_name_kh: 'ភេសជ្ជៈ',
    sub_category_id: null,
    sub_category_name_en: null,
    sub_category_name_kh: null,
    unit_id: 5,
    unit_name_en: 'Can',
    unit_name_kh: 'កំប៉ុង',
    unit_decimals: 0,
    price_usd_cents: 126,
    price_khr: null,
    price_khr_effective: 5200,
    cost_usd_cents: 90,
    taxable: true,
    image_url: null,
    thumbnail_url: null,
    expiry_date: null,
    reorder_level: 0,
    serial_tracked: false,
    warranty_months: 0,
    status: 'active',
    ...stamp,
    ...extra,
  };
}

export function unitRow(id: number, extra: Partial<Unit> = {}): Unit {
  return {
    id,
    name_en: 'Carton',
    name_kh: 'កេស',
    short_name: 'ctn',
    base_unit_id: 5,
    base_unit_name_en: 'Can',
    base_unit_name_kh: 'កំប៉ុង',
    factor: 24,
    decimals: 0,
    status: 'active',
    ...stamp,
    ...extra,
  };
}

export function levelRow(extra: Partial<StockLevel> = {}): StockLevel {
  return {
    store_id: 1,
    store_name: 'Phnom Penh Depot',
    product_id: 5,
    product_name_en: 'Angkor Beer 330ml',
    product_name_kh: 'ស្រាបៀរអង្គរ',
    sku: 'ANG-330',
    barcode: '8851959132012',
    unit_name_en: 'Can',
    unit_name_kh: 'កំប៉ុង',
    unit_decimals: 0,
    quantity: 120,
    reorder_level: 24,
    average_cost_cents: 90,
    value_cents: 10800,
    batches: [
      { id: 11, lot: 'L-2025-01', expiry_date: '2020-01-31', quantity: 40 },
      { id: 12, lot: 'L-2026-02', expiry_date: '2099-12-31', quantity: 80 },
    ],
    ...extra,
  };
}

export function batchRow(extra: Partial<StockBatch> = {}): StockBatch {
  return {
    store_id: 1,
    store_name: 'Phnom Penh Depot',
    product_id: 5,
    product_name_en: 'Angkor Beer 330ml',
    product_name_kh: 'ស្រាបៀរអង្គរ',
    sku: 'ANG-330',
    unit_name_en: 'Can',
    unit_name_kh: 'កំប៉ុង',
    unit_decimals: 0,
    batch_id: 31,
    lot: 'L-2025-01',
    expiry_date: '2020-01-31',
    quantity: 24,
    value_cents: 2160,
    days_left: -30,
    ...extra,
  };
}

/** A transfer as the server answers it to `viewer` (an administrator by default): its abilities are the policy's. */
export function transferRow(id: number, extra: Partial<TransferDetail> = {}, viewer: Viewer = {}): TransferDetail {
  const row: Omit<TransferDetail, 'abilities'> = {
    id,
    number: `TR-${String(id).padStart(4, '0')}`,
    from_store_id: 1,
    from_store_name: 'Phnom Penh Depot',
    to_store_id: 2,
    to_store_name: 'Siem Reap Depot',
    status: 'draft',
    note: null,
    items_count: 1,
    created_by_name: 'admin',
    sent_at: null,
    received_at: null,
    cancelled_at: null,
    items: [
      {
        id: 100 + id,
        product_id: 5,
        product_name_en: 'Angkor Beer 330ml',
        product_name_kh: 'ស្រាបៀរអង្គរ',
        sku: 'ANG-330',
        unit_id: 6,
        unit_name_en: 'Carton',
        unit_name_kh: 'កេស',
        unit_decimals: 0,
        factor: 24,
        quantity: 2,
        base_quantity: 48,
        serials: [],
      },
    ],
    ...stamp,
    ...extra,
  };
  return { ...row, abilities: extra.abilities ?? transferPolicy.abilities(actorOf(viewer), row) };
}

/** A purchase as the server answers it to `viewer` (an administrator by default): its abilities are the policy's. */
export function purchaseRow(id: number, extra: Partial<PurchaseDetail> = {}, viewer: Viewer = {}): PurchaseDetail {
  const row: Omit<PurchaseDetail, 'abilities'> = {
    id,
    number: `PO-${String(id).padStart(4, '0')}`,
    supplier_id: 1,
    supplier_name: 'Cambrew Ltd',
    store_id: 1,
    store_name: 'Phnom Penh Depot',
    purchase_date: '2026-03-01',
    notes: null,
    status: 'ordered',
    subtotal_cents: 2160,
    shipping_cents: 100,
    tax_cents: 0,
    grand_total_cents: 2260,
    paid_cents: 0,
    due_cents: 2260,
    payment_status: 'unpaid',
    items_count: 1,
    created_by_name: 'admin',
    received_at: null,
    cancelled_at: null,
    items: [
      {
        id: 71,
        product_id: 5,
        product_name_en: 'Angkor Beer 330ml',
        product_name_kh: 'ស្រាបៀរអង្គរ',
        sku: 'ANG-330',
        unit_id: 6,
        unit_name_en: 'Carton',
        unit_name_kh: 'កេស',
        factor: 24,
        quantity: 10,
        received_quantity: 4,
        unit_price_cents: 216,
        line_total_cents: 2160,
        shipping_share_cents: 100,
        received_value_cents: 904,
        lot: null,
        expiry_date: null,
        serial_tracked: false,
      },
    ],
    payments: [],
    ...stamp,
    ...extra,
  };
  return { ...row, abilities: extra.abilities ?? purchasePolicy.abilities(actorOf(viewer), row) };
}

/**
 * The dropdown that is open now. Closed ones stay in the page, hidden or (jsdom runs no
 * animations) still leaving.
 */
export function openDropdown(): HTMLElement {
  const open = [...document.querySelectorAll<HTMLElement>('.ant-select-dropdown')].filter(
    (element) => !/ant-select-dropdown-hidden|-leave/.test(element.className),
  );
  if (open.length !== 1) throw new Error(`${open.length} dropdowns are open`);
  return open[0];
}

export async function choose(user: UserEvent, combobox: HTMLElement, option: string): Promise<void> {
  await user.click(combobox);
  const item = await waitFor(() => within(openDropdown()).getByText(option));
  await user.click(item);
}

/** The popover a Popconfirm opened, found by a text inside it. */
export function popoverWith(element: HTMLElement): HTMLElement {
  return element.closest('.ant-popover') as HTMLElement;
}

export function fieldOf(element: HTMLElement): HTMLElement {
  return element.closest('.ant-form-item') as HTMLElement;
}
