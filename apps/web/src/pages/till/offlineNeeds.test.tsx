import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { queuedSales } from '../../lib/offline/outbox.ts';
import { listAnswer, popoverWith } from '../../test/inventory.ts';
import { offline, online } from '../../test/offline.ts';
import { mockFetch, renderApp, signedIn } from '../../test/render.tsx';
import { orderRow, SELLING, seenBy, tillLookups } from '../../test/sales.ts';

/**
 * What needs the server says so when the device is offline: refunds, voids (with or
 * without a manager), holding and resuming held orders, a KHQR, a new customer with credit. A card
 * is recorded by hand with its terminal's transaction id (no terminal is driven from here): a card
 * sale is kept offline like a cash one.
 */

const NEEDS = {
  en: 'Needs a connection: try again once this device is online.',
  kh: 'ត្រូវការអ៊ីនធឺណិត៖ សូមព្យាយាមម្ដងទៀត នៅពេលមានអ៊ីនធឺណិតវិញ។',
};

afterEach(online);

const paid = orderRow(9);

/** The orders screen opened on order 9 (`order`), signed in with `permissions`. */
function openOrder(order: typeof paid, permissions: string[], path: string) {
  const { calls } = mockFetch({
    ...tillLookups(),
    'GET orders': () => ({ body: listAnswer([order]) }),
    'GET orders/9': () => ({ body: { data: order } }),
  });
  signedIn({ permissions });
  return { calls, ...renderApp(path) };
}

describe('offline, what needs the server says so', { timeout: 60_000 }, () => {
  it('a refund: the return dialog says it needs a connection and sends nothing', async () => {
    const { calls, user } = openOrder(paid, [...SELLING, 'orders.approve'], '/en/orders?view=9');
    await user.click(await screen.findByTestId('order-return', {}, { timeout: 30_000 }));
    const form = await screen.findByTestId('return-form');
    await user.type(within(form).getByTestId('return-301'), '1');
    offline();
    await user.click(screen.getByRole('button', { name: 'Return items' }));
    expect((await within(form).findByTestId('return-problem')).textContent).toBe(NEEDS.en);
    expect(calls('POST orders/9/returns')).toHaveLength(0);
  });

  it('a void: the manager’s says it needs a connection (kh)', async () => {
    const { calls, user } = openOrder(paid, [...SELLING, 'orders.approve'], '/orders?view=9');
    const button = await screen.findByTestId('order-cancel', {}, { timeout: 30_000 });
    offline();
    await user.click(button);
    const confirm = popoverWith(await screen.findByText(/ស្តុក/));
    await user.click(within(confirm).getAllByRole('button').at(-1) as HTMLElement);
    expect((await screen.findByTestId('order-error')).textContent).toContain(NEEDS.kh);
    expect(calls('POST orders/9/cancel')).toHaveLength(0);
  });

  it('a cashier’s void asks for no manager’s approval it could not send (kh)', async () => {
    const asCashier = seenBy(paid, { as: 'cashier' });
    const { calls, user } = openOrder(asCashier, SELLING, '/orders?view=9');
    const cancel = await screen.findByTestId('order-cancel', {}, { timeout: 30_000 });
    offline();
    await user.click(cancel);
    expect((await screen.findByTestId('order-error')).textContent).toContain(NEEDS.kh);
    expect(screen.queryByTestId('approval-dialog')).toBeNull();
    expect(calls('POST orders/9/cancel')).toHaveLength(0);
  });

  it('holding a cart, and the held orders: the server’s, so they say so', async () => {
    const held = orderRow(7, { status: 'held', payment_status: 'onhold', paid_cents: 0 });
    const { calls } = mockFetch({
      ...tillLookups(),
      'GET orders': () => ({ body: listAnswer([held]) }),
      'GET orders/7': () => ({ body: { data: held } }),
    });
    signedIn({ permissions: SELLING });
    const { user } = renderApp('/en/pos');
    await user.click(await screen.findByTestId('tile-1', {}, { timeout: 15_000 }));
    offline();
    await user.click(screen.getByTestId('pos-hold'));
    expect((await screen.findByTestId('pos-problem')).textContent).toContain(NEEDS.en);
    expect(calls('POST orders')).toHaveLength(0);
    // the drawer lists what it last read, and resumes none
    await user.click(screen.getByTestId('open-held'));
    expect((await screen.findByTestId('held-offline')).textContent).toContain(NEEDS.en);
    expect((await screen.findByTestId('resume-7')).hasAttribute('disabled')).toBe(true);
  });

  it('a held order resumed online, sold once the connection dropped: says so, keeps nothing', async () => {
    const held = orderRow(7, { status: 'held', payment_status: 'onhold', paid_cents: 0 });
    const { calls } = mockFetch({
      ...tillLookups(),
      'GET orders': () => ({ body: listAnswer([held]) }),
      'GET orders/7': () => ({ body: { data: held } }),
    });
    signedIn({ permissions: SELLING });
    const { user, path } = renderApp('/en/pos');
    await user.click(await screen.findByTestId('open-held', {}, { timeout: 15_000 }));
    await user.click(await screen.findByTestId('resume-7'));
    await waitFor(() => expect(screen.getByTestId('cart-line-0').textContent).toContain('Angkor Beer 330ml'));
    await user.click(screen.getByTestId('pos-pay'));
    await waitFor(() => expect(path()).toBe('/en/orders/review'));
    await user.click(await screen.findByTestId('exact-usd'));
    offline();
    await user.click(screen.getByTestId('complete-sale'));
    expect((await screen.findByTestId('pay-problem')).textContent).toBe(NEEDS.en);
    expect(calls('PUT orders/7')).toHaveLength(0);
    expect(await queuedSales()).toHaveLength(0);
  });

  it('a KHQR says so and keeps nothing; a card (its terminal’s id typed) is kept like cash', async () => {
    const { calls } = mockFetch({ ...tillLookups() });
    signedIn({ permissions: SELLING });
    const user = userEvent.setup();
    const { user: appUser, path } = renderApp('/en/pos');
    await appUser.click(await screen.findByTestId('tile-1', {}, { timeout: 15_000 }));
    await appUser.click(screen.getByTestId('pos-pay'));
    await waitFor(() => expect(path()).toBe('/en/orders/review'));
    await screen.findByTestId('tenders');
    offline();
    await user.click(screen.getByTestId('pay-khqr'));
    expect((await screen.findByTestId('pay-problem')).textContent).toBe(NEEDS.en);
    expect(screen.queryByTestId('pay-retry')).toBeNull();
    expect(await queuedSales()).toHaveLength(0);

    await user.type(screen.getByTestId('tender-card'), '1.39');
    await user.type(screen.getByTestId('txn-card'), 'T-0042');
    await user.click(screen.getByTestId('complete-sale'));
    await screen.findByTestId('kept-unsynced');
    const [kept] = await queuedSales();
    expect((kept.body as { payments: unknown[] }).payments).toEqual([
      { method: 'card', amount: 139, transaction_id: 'T-0042' },
    ]);
    expect(calls('POST orders')).toHaveLength(0);
  });

  it('a KHQR for what an order still owes: the QR is the server’s, so it says so', async () => {
    const owing = orderRow(8, { payment_status: 'partially_paid', paid_cents: 300, due_cents: 254 });
    mockFetch({
      ...tillLookups(),
      'GET orders': () => ({ body: listAnswer([owing]) }),
      'GET orders/8': () => ({ body: { data: owing } }),
      'GET orders/8/khqr': () => ({ body: { data: null } }),
      'POST orders/8/khqr': () => ({ networkError: true }),
    });
    signedIn({ permissions: SELLING });
    const { user } = renderApp('/en/orders?view=8');
    const button = await screen.findByTestId('order-khqr', {}, { timeout: 30_000 });
    offline();
    await user.click(button);
    expect((await screen.findByTestId('khqr-problem')).textContent).toBe(NEEDS.en);
  });

  it('a new customer with credit: the form says so and sends nothing', async () => {
    const { calls } = mockFetch({ 'GET customers': () => ({ body: listAnswer([]) }) });
    signedIn({
      permissions: ['customers.list', 'customers.view', 'customers.create', 'customers.update', 'credit.update'],
    });
    const { user } = renderApp('/en/customers/create');
    await user.type(await screen.findByLabelText('Name'), 'Chan Sopheap', {});
    await user.type(screen.getByTestId('credit-limit-input'), '500');
    offline();
    await user.click(screen.getByTestId('save'));
    expect(await screen.findByText(NEEDS.en)).toBeTruthy();
    expect(calls('POST customers')).toHaveLength(0);
  });
});
