import { DEFAULT_SETTINGS, type OrderDetail } from '@depot/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { choose, listAnswer, popoverWith } from '../../test/inventory.ts';
import { mockFetch, renderApp, signedIn } from '../../test/render.tsx';
import { orderRow, SELLING, seenBy, tillLookups } from '../../test/sales.ts';

const MANAGER = [...SELLING, 'orders.approve'];

const held = orderRow(7, { status: 'held', payment_status: 'onhold', paid_cents: 0, due_cents: 554 });
const partly = orderRow(8, {
  payment_status: 'partially_paid',
  paid_cents: 300,
  due_cents: 254,
  shipping_address: 'St. 271, Phnom Penh',
  delivery_status: 'preparing',
  payments: [
    {
      id: 1,
      kind: 'payment',
      method: 'cash_usd',
      amount: 300,
      amount_cents: 300,
      transaction_id: null,
      received_by_name: 'Sok Dara',
      created_at: '2026-03-01T03:00:00.000Z',
    },
  ],
});
const paid = orderRow(9, {
  invoice_number: 'INV-PP01-2026-000001',
  invoice: {
    id: 1,
    number: 'INV-PP01-2026-000001',
    total_cents: 554,
    items_count: 1,
    paid_at: '2026-03-01T03:00:00.000Z',
  },
  payments: [
    {
      id: 2,
      kind: 'payment',
      method: 'cash_khr',
      amount: 23_000,
      amount_cents: 560,
      transaction_id: null,
      received_by_name: 'Sok Dara',
      created_at: '2026-03-01T03:00:00.000Z',
    },
  ],
  change_cents: 6,
  change_khr: 0,
});
const cancelled = orderRow(10, { status: 'cancelled', cancelled_at: '2026-03-01T04:00:00.000Z' });
const ORDERS: OrderDetail[] = [held, partly, paid, cancelled];

function ordersApi(extra = {}) {
  const handlers: Record<string, unknown> = {
    ...tillLookups(),
    'GET orders': () => ({ body: listAnswer(ORDERS) }),
  };
  for (const row of ORDERS) handlers[`GET orders/${row.id}`] = () => ({ body: { data: row } });
  Object.assign(handlers, extra);
  return mockFetch(handlers as Parameters<typeof mockFetch>[0]);
}

const ACTIONS = [
  'order-resume',
  'order-pay',
  'order-khqr',
  'deliver-preparing_done',
  'deliver-returned',
  'order-return',
  'order-receipt',
  'order-invoice',
  'order-cancel',
];

async function actionsOf(id: number, permissions = MANAGER): Promise<string[]> {
  signedIn({ permissions });
  renderApp(`/en/orders?view=${id}`);
  // the file's first screen loads the orders page's lazy chunks: on a busy machine that takes seconds
  await screen.findByTestId('order-details', {}, { timeout: 30_000 });
  return ACTIONS.filter((testId) => screen.queryByTestId(testId) !== null);
}

describe('order details', { timeout: 40_000 }, () => {
  it('a held order: resume it at the till, or cancel it', async () => {
    ordersApi();
    expect(await actionsOf(7)).toEqual(['order-resume', 'order-cancel']);
  });

  it('a partly paid delivery: confirm payment (or by KHQR), the next delivery steps, receipt, cancel', async () => {
    ordersApi();
    expect(await actionsOf(8)).toEqual([
      'order-pay',
      'order-khqr',
      'deliver-preparing_done',
      'deliver-returned',
      'order-receipt',
      'order-cancel',
    ]);
  });

  it('a paid order: returns, receipt, invoice, cancel', async () => {
    ordersApi();
    expect(await actionsOf(9)).toEqual(['order-return', 'order-receipt', 'order-invoice', 'order-cancel']);
  });

  it('a cancelled order only reprints', async () => {
    ordersApi();
    expect(await actionsOf(10)).toEqual(['order-receipt']);
  });

  it('a cashier’s void of a paid sale goes through with a manager’s name and password typed at the till', async () => {
    // the server's abilities for a cashier: a void and a return need a manager's approval
    const asCashier = seenBy(paid, { as: 'cashier' });
    expect(asCashier.abilities).toMatchObject({ cancel: 'approval', return: 'approval' });
    const { calls } = ordersApi({
      'GET orders/9': () => ({ body: { data: asCashier } }),
      'POST orders/9/cancel': ({ body }: { body: { approval?: { password: string } } }) =>
        body.approval?.password === 'secret'
          ? {
              body: {
                message: 'Order cancelled: its stock is back.',
                data: { ...asCashier, status: 'cancelled', approved_by_name: 'Chan Dara' },
              },
            }
          : {
              status: 422,
              body: {
                message: 'The given data was invalid.',
                errors: { approval: ['Username or password is incorrect.'] },
              },
            },
    });
    expect(await actionsOf(9, SELLING)).toEqual(['order-return', 'order-receipt', 'order-invoice', 'order-cancel']);
    const user = userEvent.setup();
    const cancel = screen.getByTestId('order-cancel');
    // labelled as needing a manager, and no write until one approves
    expect(cancel.textContent).toBe('Cancel order (needs a manager)');
    await user.click(cancel);
    const dialog = await screen.findByTestId('approval-dialog');
    await user.click(screen.getByTestId('approval-ok'));
    expect((await within(dialog).findByTestId('approval-problem')).textContent).toBe(
      'Enter the manager’s username and password.',
    );
    expect(calls('POST orders/9/cancel')).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Manager’s username'), 'manager');
    await user.type(within(dialog).getByLabelText('Manager’s password'), 'wrong');
    await user.click(screen.getByTestId('approval-ok'));
    // the server's 422 on `approval` stays in the dialog, the password is typed again
    await waitFor(() =>
      expect(within(dialog).getByTestId('approval-problem').textContent).toBe('Username or password is incorrect.'),
    );
    await user.type(within(dialog).getByLabelText('Manager’s password'), 'secret');
    await user.click(screen.getByTestId('approval-ok'));
    await waitFor(() => expect(calls('POST orders/9/cancel')).toHaveLength(2));
    const [first, second] = calls('POST orders/9/cancel');
    expect(second.body).toEqual({ approval: { name: 'manager', password: 'secret' } });
    // a refused attempt is final: the next one takes a new key
    expect(first.headers['idempotency-key']).toBeTruthy();
    expect(second.headers['idempotency-key']).not.toBe(first.headers['idempotency-key']);
    await waitFor(() => expect(screen.queryByTestId('approval-dialog')).toBeNull());
  });

  it('moves a delivery one step, cancels with stock going back, and confirms a payment in riel', async () => {
    const { calls } = ordersApi({
      'POST orders/8/delivery': () => ({
        body: { message: 'Delivery updated.', data: { ...partly, delivery_status: 'preparing_done' } },
      }),
      'POST orders/8/cancel': () => ({
        body: { message: 'Order cancelled: its stock is back.', data: { ...partly, status: 'cancelled' } },
      }),
      'POST orders/8/payments': () => ({
        body: { message: 'Payment recorded.', data: { ...partly, payment_status: 'paid', due_cents: 0 } },
      }),
    });
    signedIn({ permissions: MANAGER });
    const { user } = renderApp('/en/orders?view=8');
    await screen.findByTestId('order-details');

    await user.click(screen.getByTestId('deliver-preparing_done'));
    const step = popoverWith(await screen.findByText('The delivery becomes “Prepared”.'));
    await user.click(within(step).getByRole('button', { name: 'Confirm delivery' }));
    await waitFor(() => expect(calls('POST orders/8/delivery')).toHaveLength(1));
    expect(calls('POST orders/8/delivery')[0].body).toEqual({ status: 'preparing_done' });

    await user.click(screen.getByTestId('order-pay'));
    const dialog = await screen.findByTestId('confirm-payment');
    await user.click(within(dialog).getByTestId('note-khr-10000'));
    // $2.54 due at 4,100៛ is 10,414៛: 10,000៛ leaves 11 cents, 20,000៛ pays with change in both
    expect(within(dialog).getByTestId('due-usd').textContent).toBe('$0.11');
    expect(within(dialog).getByTestId('due-khr').textContent).toBe('400៛');
    await user.click(within(dialog).getByTestId('note-khr-10000'));
    expect(within(dialog).getByTestId('due-usd').textContent).toBe('$0.00');
    expect(within(dialog).getByTestId('change-khr').textContent).toBe('9,600៛');
    // paid in riel, the change goes back in riel too: the cashier says so, and the riel drawer gives it
    await user.click(within(dialog).getByTestId('change-in-khr'));
    await user.click(screen.getByRole('button', { name: 'Confirm payment' }));
    await waitFor(() => expect(calls('POST orders/8/payments')).toHaveLength(1));
    const [payment] = calls('POST orders/8/payments');
    expect(payment.body).toEqual({
      payments: [{ method: 'cash_khr', amount: 20_000, transaction_id: null }],
      change_in: 'khr',
    });
    expect(payment.headers['idempotency-key']).toBeTruthy();

    await user.click(screen.getByTestId('order-cancel'));
    const confirm = popoverWith(await screen.findByText(/The stock returns to the store/));
    await user.click(within(confirm).getByRole('button', { name: 'Cancel order' }));
    await waitFor(() => expect(calls('POST orders/8/cancel')).toHaveLength(1));
    expect(calls('POST orders/8/cancel')[0].headers['idempotency-key']).toBeTruthy();
  });

  it('prints the receipt for 80 mm or 58 mm, in Khmer with English, with the totals in both currencies', async () => {
    ordersApi();
    const print = window.print;
    let printed: string | null = null;
    window.print = () => {
      printed = document.querySelector('.print-sheet')?.textContent ?? null;
    };
    try {
      signedIn({ permissions: MANAGER });
      const { user } = renderApp('/en/orders?view=9');
      await user.click(await screen.findByTestId('order-receipt'));
      const receipt = await screen.findByTestId('receipt');
      expect(receipt.textContent).toContain('បង្កាន់ដៃ');
      expect(receipt.textContent).toContain('Receipt');
      expect(within(receipt).getByTestId('receipt-total').textContent).toBe('$5.54');
      expect(within(receipt).getByTestId('receipt-total-khr').textContent).toBe('22,700៛');
      expect(receipt.textContent).toContain('23,000៛');
      // the one date helper: Khmer month names, never 01/03/2026
      expect(receipt.textContent).toContain('1 មីនា 2026');
      expect(receipt.textContent).not.toContain('01/03/2026');
      await user.click(screen.getByText('58 mm'));
      expect(screen.getByTestId('receipt').getAttribute('data-paper')).toBe('58');
      await user.click(screen.getByTestId('print-now'));
      await waitFor(() => expect(printed).toContain('SO-PP01-000009'));
      expect(document.querySelector('.print-sheet style')).toBeNull();
    } finally {
      window.print = print;
    }
  });

  it('writes a receipt’s quantities in the numerals its money is written in (Khmer numerals on)', async () => {
    const many = { ...paid, items: paid.items.map((item) => ({ ...item, quantity: 1200 })) };
    ordersApi({
      'GET orders/9': { body: { data: many } },
      'GET settings/public': { body: { data: { ...DEFAULT_SETTINGS, khmer_numerals: true } } },
    });
    signedIn({ permissions: MANAGER });
    const { user } = renderApp('/orders?view=9');
    await user.click(await screen.findByTestId('order-receipt', {}, { timeout: 30_000 }));
    const receipt = await screen.findByTestId('receipt');
    await waitFor(() => expect(within(receipt).getByTestId('receipt-total').textContent).toBe('$៥.៥៤'));
    // the line: 1,200 cans × $1.26, every figure in Khmer digits
    expect(receipt.textContent).toContain('១,២០០ កំប៉ុង × $១.២៦');
    expect(receipt.textContent).not.toContain('1,200');
  });

  it('names the walk-in customer in the page’s language: English list and details, both languages on the receipt', async () => {
    ordersApi();
    signedIn({ permissions: MANAGER });
    const { user } = renderApp('/en/orders?view=9');
    const details = await screen.findByTestId('order-details');
    expect(details.textContent).toContain('Walk-in customer');
    expect(details.textContent).not.toContain('អតិថិជនទូទៅ');
    expect(document.querySelector('.ant-table-tbody')?.textContent).not.toContain('អតិថិជនទូទៅ');
    await user.click(screen.getByTestId('order-receipt'));
    const receipt = await screen.findByTestId('receipt');
    expect(receipt.textContent).toContain('អតិថិជនទូទៅ Walk-in customer');
  });

  it('prints the business details and VAT number of the settings at the top of the receipt', async () => {
    ordersApi({
      'GET settings/public': {
        body: {
          data: {
            ...DEFAULT_SETTINGS,
            store_name: 'Corner Depot Co., Ltd.',
            store_address: 'Street 271, Phnom Penh',
            store_phone: '023 555 555',
            vat_number: 'K001-901234567',
          },
        },
      },
    });
    signedIn({ permissions: MANAGER });
    const { user } = renderApp('/en/orders?view=9');
    await user.click(await screen.findByTestId('order-receipt'));
    const seller = within(await screen.findByTestId('receipt')).getByTestId('seller');
    await waitFor(() => expect(seller.textContent).toContain('Corner Depot Co., Ltd.'));
    expect(seller.textContent).toContain('Street 271, Phnom Penh');
    expect(within(seller).getByTestId('seller-vat').textContent).toBe(
      'លេខអត្តសញ្ញាណកម្ម អតប / VAT number: K001-901234567',
    );
  });
});

describe('the tax invoice', { timeout: 40_000 }, () => {
  it('prints the buyer’s VAT number beside the seller’s and the total as “សរុបរួម (រួមអាករ)”', async () => {
    const buyer = { ...paid, customer_name: 'Angkor Mart Co., Ltd.', customer_vat_number: 'K002-100200300' };
    ordersApi({
      'GET orders': { body: listAnswer([held, partly, buyer, cancelled]) },
      'GET orders/9': { body: { data: buyer } },
      'GET settings/public': { body: { data: { ...DEFAULT_SETTINGS, vat_number: 'K001-901234567' } } },
    });
    signedIn({ permissions: MANAGER });
    const { user } = renderApp('/orders?view=9');
    await user.click(await screen.findByTestId('order-invoice'));
    const invoice = await screen.findByTestId('tax-invoice');
    await waitFor(() => expect(within(invoice).getByTestId('seller-vat').textContent).toContain('K001-901234567'));
    expect(within(invoice).getByTestId('buyer-vat').textContent).toBe('K002-100200300');
    expect(invoice.textContent).toContain('សរុបរួម (រួមអាករ)');
    expect(invoice.textContent).toContain('Grand total (VAT included)');
  });
});

describe('the orders list', { timeout: 40_000 }, () => {
  it('filters by who sold, the signed-in user’s own sales named “My sales”', async () => {
    const { calls } = ordersApi({
      'GET orders/cashiers': {
        body: {
          data: [
            { id: 5, name: 'Chan Sreyneang' },
            { id: 1, name: 'Sok Dara' },
          ],
        },
      },
    });
    signedIn({ permissions: MANAGER });
    const { user } = renderApp('/en/orders');
    await screen.findByText(held.number);
    await choose(user, screen.getByRole('combobox', { name: 'Cashier' }), 'Chan Sreyneang');
    await waitFor(() => expect(calls('GET orders').at(-1)?.query.get('filter[cashier_id]')).toBe('5'));
    await choose(user, screen.getByRole('combobox', { name: 'Cashier' }), 'My sales (Sok Dara)');
    await waitFor(() => expect(calls('GET orders').at(-1)?.query.get('filter[cashier_id]')).toBe('1'));
  });
});
