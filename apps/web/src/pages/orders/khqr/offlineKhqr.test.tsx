import { decodeKhqr } from '@depot/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import md5 from 'md5';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queuedSales, syncOutbox } from '../../../lib/offline/outbox.ts';
import { listAnswer, popoverWith, storeRow } from '../../../test/inventory.ts';
import { offline, online } from '../../../test/offline.ts';
import { mockFetch, renderApp, signedIn } from '../../../test/render.tsx';
import { SELLING, tillLookups } from '../../../test/sales.ts';

afterEach(online);

/** The first store takes KHQR into its Bakong account. */
const PAYEE = {
  ...storeRow(1, 'Phnom Penh Depot', 'PP01'),
  khqr_account_id: 'depot_pp@aclb',
  khqr_merchant_name: 'Depot Phnom Penh',
  khqr_merchant_city: 'Phnom Penh',
};

describe('a KHQR while the till is offline', { timeout: 90_000 }, () => {
  it('is made on the device, kept with the sale, and sent with it when the connection returns', async () => {
    const { calls } = mockFetch({
      ...tillLookups(),
      'GET stores': () => ({ body: listAnswer([PAYEE, storeRow(2, 'Siem Reap Depot', 'SR01')]) }),
      'POST orders': () => ({ status: 201, body: { message: 'Sale recorded.', data: { id: 42 } } }),
      'POST orders/42/khqr/offline': () => ({ body: { message: 'ok', data: {} } }),
    });
    signedIn({ permissions: SELLING });
    const user = userEvent.setup();
    const { user: appUser, path } = renderApp('/en/pos');
    await appUser.click(await screen.findByTestId('tile-1', {}, { timeout: 30_000 }));
    await appUser.click(screen.getByTestId('pos-pay'));
    await waitFor(() => expect(path()).toBe('/en/orders/review'));
    await screen.findByTestId('tenders');
    offline();
    await user.click(screen.getByTestId('pay-khqr'));
    const dialog = await screen.findByTestId('khqr-offline');
    const symbol = within(dialog).getByTestId('khqr-symbol');
    const payload = symbol.getAttribute('data-payload') ?? '';
    const fields = decodeKhqr(payload);
    expect(fields).toMatchObject({ account_id: 'depot_pp@aclb', currency: 'USD', amount: 139 });
    expect(fields.expires_at - fields.created_at).toBe(10 * 60_000);
    expect(within(dialog).getByTestId('khqr-countdown').textContent).toMatch(/^\d+:\d\d left to pay$/);

    await user.click(screen.getByTestId('khqr-confirm'));
    await user.click(
      within(popoverWith(await screen.findByText('Has the payment arrived?'))).getByRole('button', {
        name: 'Customer has paid',
      }),
    );
    await screen.findByTestId('kept-unsynced');
    const [kept] = await queuedSales();
    expect(kept.khqr).toEqual({ payload, md5: md5(payload) });
    expect((kept.body as { payments: unknown[] }).payments).toEqual([
      { method: 'khqr', amount: 139, transaction_id: md5(payload) },
    ]);
    expect(calls('POST orders')).toHaveLength(0);

    vi.restoreAllMocks();
    const sent = await syncOutbox({ userId: kept.user_id ?? null });
    expect(sent).toMatchObject({ sent: 1, failed: 0 });
    expect(calls('POST orders/42/khqr/offline').map((c) => c.body)).toEqual([{ payload, md5: md5(payload) }]);
    expect(await queuedSales()).toHaveLength(0);
  });
});
