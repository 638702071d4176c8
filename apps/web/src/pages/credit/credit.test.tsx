import type { CreditAccount } from '@depot/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { listAnswer } from '../../test/inventory.ts';
import { mockFetch, renderApp, signedIn } from '../../test/render.tsx';
import { customerRow, RATES } from '../../test/sales.ts';

const SHOP = customerRow(5, 'Lucky Mart', { credit_limit_cents: 5000, payment_terms_days: 30 });

const open = (id: number, number: string, date: string, due: number) => ({
  id,
  number,
  store_id: 1,
  date,
  due_date: date,
  total_cents: due,
  paid_cents: 0,
  due_cents: due,
  days_overdue: 0,
  bucket: 'current' as const,
});

const ACCOUNT: CreditAccount = {
  id: 5,
  name: 'Lucky Mart',
  balance_cents: 4500,
  credit_limit_cents: 5000,
  available_cents: 500,
  payment_terms_days: 30,
  ageing: { current: 4500, d1_30: 0, d31_60: 0, d61_90: 0, d90_plus: 0 },
  // the newer one first: the preview orders them oldest first itself
  open: [open(12, 'ORD-2026-000012', '2026-11-20', 2500), open(11, 'ORD-2026-000011', '2026-11-02', 2000)],
};

const LIST = ['customers.list', 'customers.view'];

describe('a customer’s account', () => {
  it('shows the balance and ageing, previews a payment oldest first or on chosen orders, and records it once', async () => {
    signedIn({ permissions: [...LIST, 'credit.view', 'credit.create'] });
    const { calls } = mockFetch({
      'GET customers': { body: listAnswer([SHOP]) },
      'GET customers/5/credit': { body: { data: ACCOUNT } },
      'GET exchange-rates/current': { body: { data: RATES } },
      'GET stocks/low/count': { body: { data: { count: 0 } } },
      'POST customers/5/payments': () => ({
        status: 201,
        body: {
          message: 'Payment CP-2026-000001 recorded.',
          data: {
            id: 1,
            number: 'CP-2026-000001',
            customer_id: 5,
            customer_name: 'Lucky Mart',
            store_id: 1,
            method: 'cash_usd',
            amount: 2000,
            amount_cents: 2000,
            exchange_rate_khr: 4100,
            transaction_id: null,
            note: null,
            received_by: 1,
            created_at: '2026-11-25T01:00:00.000Z',
            updated_at: '2026-11-25T01:00:00.000Z',
            allocations: [{ order_id: 12, number: 'ORD-2026-000012', amount_cents: 2000 }],
            abilities: {},
          },
        },
      }),
    });
    const { user } = renderApp('/en/customers');
    await user.click(await screen.findByTestId('credit-5'));
    const account = await screen.findByTestId('credit-account');
    expect(within(account).getByTestId('credit-balance').textContent).toContain('$45.00');
    expect(within(account).getByTestId('credit-limit').textContent).toContain('$50.00');

    await user.click(within(account).getByTestId('credit-pay'));
    const form = await screen.findByTestId('credit-pay-form');
    const amount = within(form).getByTestId('credit-amount');
    expect((amount as HTMLInputElement).value).toBe('45.00');
    // all of it: both orders cleared
    expect(within(form).getByTestId('credit-share-ORD-2026-000011').textContent).toBe('$20.00 ✓');
    expect(within(form).getByTestId('credit-share-ORD-2026-000012').textContent).toBe('$25.00 ✓');
    // $30: the older order first, the rest on the newer one
    await user.clear(amount);
    await user.type(amount, '30');
    expect(within(form).getByTestId('credit-share-ORD-2026-000011').textContent).toBe('$20.00 ✓');
    expect(within(form).getByTestId('credit-share-ORD-2026-000012').textContent).toBe('$10.00');
    // $20 on the newer order only, when it is the one chosen
    await user.clear(amount);
    await user.type(amount, '20');
    const rows = within(form).getAllByRole('checkbox');
    await user.click(rows[1]);
    await waitFor(() => expect(within(form).queryByTestId('credit-share-ORD-2026-000011')).toBeNull());
    expect(within(form).getByTestId('credit-share-ORD-2026-000012').textContent).toBe('$20.00');

    await user.click(screen.getByTestId('credit-pay-ok'));
    await waitFor(() => expect(calls('POST customers/5/payments')).toHaveLength(1));
    const sent = calls('POST customers/5/payments')[0];
    expect(sent.body).toEqual({ method: 'cash_usd', amount: 2000, transaction_id: '', order_ids: [12] });
    expect(sent.headers['idempotency-key']).toBeTruthy();
  });

  it('shows no account to a user without credit.view (a cashier)', async () => {
    signedIn({ permissions: LIST });
    mockFetch({
      'GET customers': { body: listAnswer([SHOP]) },
      'GET stocks/low/count': { body: { data: { count: 0 } } },
    });
    renderApp('/en/customers');
    expect(await screen.findByText('Lucky Mart')).toBeTruthy();
    expect(screen.queryByTestId('credit-5')).toBeNull();
  });
});
