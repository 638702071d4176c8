import type { CreditAccount } from '@depot/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { listAnswer, supplierRow } from '../../test/inventory.ts';
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

const MEKONG: CreditAccount = {
  ...ACCOUNT,
  id: 7,
  name: 'Mekong Trading',
  balance_cents: 9000,
  credit_limit_cents: null,
  available_cents: null,
  ageing: { current: 9000, d1_30: 0, d31_60: 0, d61_90: 0, d90_plus: 0 },
  open: [
    open(23, 'PO-2026-000023', '2026-11-09', 4000),
    open(21, 'PO-2026-000021', '2026-11-01', 2000),
    open(22, 'PO-2026-000022', '2026-11-05', 3000),
  ],
};

describe('paying a supplier over several purchases', () => {
  const SUPPLIERS = ['suppliers.list', 'suppliers.view', 'credit.view', 'costs.view'];
  const answers = {
    'GET suppliers': { body: listAnswer([supplierRow(7, 'Mekong Trading')]) },
    'GET suppliers/7/credit': { body: { data: MEKONG } },
    'GET stocks/low/count': { body: { data: { count: 0 } } },
  };

  it('previews the split oldest first or on chosen purchases, records it once and shows what it paid', async () => {
    signedIn({ permissions: [...SUPPLIERS, 'purchases.approve'] });
    const { calls } = mockFetch({
      ...answers,
      'POST suppliers/7/payments': () => ({
        status: 201,
        body: {
          message: 'Payment of $35.00 recorded on 2 purchases.',
          data: {
            supplier_id: 7,
            amount_cents: 3500,
            method: 'bank_transfer',
            paid_at: '2026-11-25',
            allocations: [
              { purchase_id: 22, number: 'PO-2026-000022', amount_cents: 3000 },
              { purchase_id: 23, number: 'PO-2026-000023', amount_cents: 500 },
            ],
          },
        },
      }),
    });
    const { user } = renderApp('/en/suppliers');
    await user.click(await screen.findByTestId('credit-7'));
    const account = await screen.findByTestId('credit-account');
    await user.click(within(account).getByTestId('credit-pay'));
    const form = await screen.findByTestId('credit-pay-form');
    expect(screen.getAllByText('Pay supplier').length).toBeGreaterThan(0);
    const amount = within(form).getByTestId('credit-amount');
    expect((amount as HTMLInputElement).value).toBe('90.00');
    // $60: the two older purchases in full, the rest on the newest
    await user.clear(amount);
    await user.type(amount, '60');
    expect(within(form).getByTestId('credit-share-PO-2026-000021').textContent).toBe('$20.00 ✓');
    expect(within(form).getByTestId('credit-share-PO-2026-000022').textContent).toBe('$30.00 ✓');
    expect(within(form).getByTestId('credit-share-PO-2026-000023').textContent).toBe('$10.00');
    // $35 on the two newer ones, ticked
    await user.clear(amount);
    await user.type(amount, '35');
    const rows = within(form).getAllByRole('checkbox');
    await user.click(rows[1]);
    await user.click(rows[3]);
    await waitFor(() => expect(within(form).queryByTestId('credit-share-PO-2026-000021')).toBeNull());
    expect(within(form).getByTestId('credit-share-PO-2026-000022').textContent).toBe('$30.00 ✓');
    expect(within(form).getByTestId('credit-share-PO-2026-000023').textContent).toBe('$5.00');

    await user.click(screen.getByTestId('credit-pay-ok'));
    await waitFor(() => expect(calls('POST suppliers/7/payments')).toHaveLength(1));
    const sent = calls('POST suppliers/7/payments')[0];
    expect(sent.body).toMatchObject({ amount_cents: 3500, method: 'bank_transfer', purchase_ids: [23, 22] });
    expect(sent.headers['idempotency-key']).toBeTruthy();
    const paid = await screen.findByTestId('supplier-paid');
    expect(within(paid).getByTestId('supplier-paid-PO-2026-000022').textContent).toBe('$30.00');
    expect(within(paid).getByTestId('supplier-paid-PO-2026-000023').textContent).toBe('$5.00');
  });

  it('offers no payment to a user who may not pay suppliers', async () => {
    signedIn({ permissions: [...SUPPLIERS, 'credit.create'] });
    mockFetch(answers);
    const { user } = renderApp('/en/suppliers');
    await user.click(await screen.findByTestId('credit-7'));
    const account = await screen.findByTestId('credit-account');
    expect(within(account).getByTestId('credit-balance').textContent).toContain('$90.00');
    expect(within(account).queryByTestId('credit-pay')).toBeNull();
  });
});
