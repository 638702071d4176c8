import type { SerialRecord } from '@depot/contracts';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, renderApp, signedIn } from '../../test/render.tsx';

const SOLD: SerialRecord = {
  id: 1,
  serial: '359593849553129',
  product_id: 5,
  product_name_en: 'Phone A5',
  product_name_kh: 'ទូរស័ព្ទ A5',
  sku: 'PH-A5',
  store_id: 1,
  store_name: 'Main store',
  status: 'sold',
  warranty_months: 12,
  received_at: '2026-11-29T07:00:00.000Z',
  purchase_number: 'PO-2026-000002',
  order_id: 18,
  order_number: 'ORD-2026-000018',
  invoice_number: 'INV-MAIN-2026-000016',
  // the walk-in customer as the seed stores it: its Khmer name
  customer_name: 'អតិថិជនទូទៅ',
  customer_phone: null,
  sold_at: '2026-11-29T07:48:00.000Z',
  warranty_until: '2027-11-29',
};

describe('serial numbers', { timeout: 30_000 }, () => {
  it('names the walk-in buyer in the page’s language', async () => {
    mockFetch({ 'GET serials': { body: { data: [SOLD] } } });
    signedIn({ permissions: ['orders.list'] });
    renderApp(`/en/serials?search=${SOLD.serial}`);
    expect(await screen.findByText('Walk-in customer')).toBeTruthy();
    expect(screen.queryByText('អតិថិជនទូទៅ')).toBeNull();
  });
});
