import type { KhqrPayment } from '@depot/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { listAnswer } from '../../../test/inventory.ts';
import { mockFetch } from '../../../test/render.tsx';
import { KHQR_HASH, khqrOf, orderRow, sellerOnOrder, tillLookups } from '../../../test/sales.ts';

const made = Date.parse('2026-03-01T03:00:00.000Z');

function qrOf(orderId: number, extra: Partial<KhqrPayment> = {}, minutes = 15): KhqrPayment {
  return khqrOf({ id: orderId, number: `SO-PP01-00000${orderId}` }, made, made + minutes * 60_000, extra);
}

/** An order paid by KHQR, its payment confirmed by Bakong with the bank's hash. */
const paidByKhqr = orderRow(9, {
  payments: [
    {
      id: 2,
      kind: 'payment',
      method: 'khqr',
      amount: 554,
      amount_cents: 554,
      transaction_id: KHQR_HASH,
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
    api(paidByKhqr, qrOf(9, { paid_hash: KHQR_HASH }));
    const { user } = sellerOnOrder(9);
    await screen.findByTestId('order-details', {}, { timeout: 30_000 });
    await user.click(screen.getByTestId('order-receipt'));
    const receipt = await screen.findByTestId('receipt');
    const part = await within(receipt).findByTestId('receipt-khqr');
    expect(within(part).getByTestId('receipt-bank-ref').textContent).toBe(KHQR_HASH.slice(0, 8));
    expect(part.textContent).toContain('បានបង់តាម KHQR');
    expect(within(receipt).queryByTestId('khqr-symbol')).toBeNull();
  });

  it('an owed receipt prints the code until it expires, with its time; expired, no code', async () => {
    const live = qrOf(8, {}, 60 * 24 * 365 * 50);
    api(owed, live);
    const { user } = sellerOnOrder(8);
    await screen.findByTestId('order-details', {}, { timeout: 30_000 });
    await user.click(screen.getByTestId('order-receipt'));
    const receipt = await screen.findByTestId('receipt');
    const symbol = await within(receipt).findByTestId('khqr-symbol');
    expect(symbol.getAttribute('data-payload')).toBe(live.payload);
    expect(within(receipt).getByTestId('receipt-khqr-until')).toBeTruthy();
  });

  it('an owed receipt whose QR expired prints no code', async () => {
    const { calls } = api(owed, qrOf(8));
    const { user } = sellerOnOrder(8);
    await screen.findByTestId('order-details', {}, { timeout: 30_000 });
    await user.click(screen.getByTestId('order-receipt'));
    const receipt = await screen.findByTestId('receipt');
    await waitFor(() => expect(calls('GET orders/8/khqr').length).toBeGreaterThan(0));
    await screen.findByTestId('receipt-total');
    expect(within(receipt).queryByTestId('khqr-symbol')).toBeNull();
  });
});
