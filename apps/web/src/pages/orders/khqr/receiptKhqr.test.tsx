import { encodeKhqr, type KhqrPayment } from '@depot/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { listAnswer } from '../../../test/inventory.ts';
import { mockFetch, renderApp, signedIn } from '../../../test/render.tsx';
import { orderRow, SELLING, tillLookups } from '../../../test/sales.ts';

const made = Date.parse('2026-03-01T03:00:00.000Z');

function qrOf(orderId: number, extra: Partial<KhqrPayment> = {}, minutes = 15): KhqrPayment {
  const payload = encodeKhqr({
    account_id: 'depot_pp@aclb',
    merchant_id: null,
    acquiring_bank: null,
    merchant_name: 'Depot Phnom Penh',
    merchant_city: 'Phnom Penh',
    mcc: '5999',
    currency: 'USD',
    amount: 554,
    bill_number: `SO-PP01-00000${orderId}`,
    store_label: 'PP01',
    terminal_label: null,
    created_at: made,
    expires_at: made + minutes * 60_000,
  });
  return {
    id: 1,
    order_id: orderId,
    order_number: `SO-PP01-00000${orderId}`,
    payload,
    md5: '0123456789abcdef0123456789abcdef',
    currency: 'USD',
    amount: 554,
    amount_cents: 554,
    merchant_name: 'Depot Phnom Penh',
    created_at: new Date(made).toISOString(),
    expires_at: new Date(made + minutes * 60_000).toISOString(),
    paid_hash: null,
    offline: false,
    can_check: true,
    ...extra,
  };
}

const HASH = '8465d722a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7';

/** An order paid by KHQR, its payment confirmed by Bakong with the bank's hash. */
const paidByKhqr = orderRow(9, {
  payments: [
    {
      id: 2,
      kind: 'payment',
      method: 'khqr',
      amount: 554,
      amount_cents: 554,
      transaction_id: HASH,
      received_by_name: 'Sok Dara',
      created_at: '2026-03-01T03:01:00.000Z',
    },
  ],
});
const owed = orderRow(8, { payment_status: 'unpaid', paid_cents: 0, due_cents: 554, payments: [] });

function api(order: typeof paidByKhqr, qr: KhqrPayment | null) {
  return mockFetch({
    ...tillLookups(),
    'GET orders': () => ({ body: listAnswer([order]) }),
    [`GET orders/${order.id}`]: () => ({ body: { data: order } }),
    [`GET orders/${order.id}/khqr`]: () => ({ body: { data: qr } }),
  });
}

describe('the KHQR on a receipt', { timeout: 90_000 }, () => {
  it('a paid receipt never prints a payable code: it shows the bank’s reference (hash) instead', async () => {
    api(paidByKhqr, qrOf(9, { paid_hash: HASH }));
    signedIn({ permissions: SELLING });
    const { user } = renderApp('/en/orders?view=9');
    await screen.findByTestId('order-details', {}, { timeout: 30_000 });
    await user.click(screen.getByTestId('order-receipt'));
    const receipt = await screen.findByTestId('receipt');
    const part = await within(receipt).findByTestId('receipt-khqr');
    expect(within(part).getByTestId('receipt-bank-ref').textContent).toBe(HASH.slice(0, 8));
    expect(part.textContent).toContain('បានបង់តាម KHQR');
    expect(within(receipt).queryByTestId('khqr-symbol')).toBeNull();
  });

  it('an owed receipt prints the code until it expires, with its time; expired, no code', async () => {
    const live = qrOf(8, {}, 60 * 24 * 365 * 50);
    api(owed, live);
    signedIn({ permissions: SELLING });
    const { user } = renderApp('/en/orders?view=8');
    await screen.findByTestId('order-details', {}, { timeout: 30_000 });
    await user.click(screen.getByTestId('order-receipt'));
    const receipt = await screen.findByTestId('receipt');
    const symbol = await within(receipt).findByTestId('khqr-symbol');
    expect(symbol.getAttribute('data-payload')).toBe(live.payload);
    expect(within(receipt).getByTestId('receipt-khqr-until')).toBeTruthy();
  });

  it('an owed receipt whose QR expired prints no code', async () => {
    const { calls } = api(owed, qrOf(8));
    signedIn({ permissions: SELLING });
    const { user } = renderApp('/en/orders?view=8');
    await screen.findByTestId('order-details', {}, { timeout: 30_000 });
    await user.click(screen.getByTestId('order-receipt'));
    const receipt = await screen.findByTestId('receipt');
    await waitFor(() => expect(calls('GET orders/8/khqr').length).toBeGreaterThan(0));
    await screen.findByTestId('receipt-total');
    expect(within(receipt).queryByTestId('khqr-symbol')).toBeNull();
  });
});
