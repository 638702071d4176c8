import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { forgetCatalogue } from '../../lib/offline/localCatalogue.ts';
import { forgetLocalLists, localListsState } from '../../lib/offline/localLists.ts';
import { outboxDb } from '../../lib/offline/outbox.ts';
import { choose, listAnswer } from '../../test/inventory.ts';
import { mockFetch, renderApp, signedIn } from '../../test/render.tsx';
import {
  BEER,
  comboRow,
  DARA,
  DRINKS_10,
  ORDER_1_OFF,
  orderRow,
  previewOf,
  RATES,
  RICE,
  SELLING,
  tillLookups,
  WALK_IN,
} from '../../test/sales.ts';

const changes = (rows: { id: number; updated_at: string }[]) => () => ({
  body: { data: rows, next: `${rows.at(-1)?.updated_at}~${rows.at(-1)?.id}`, more: false },
});
const unreachable = () => ({ networkError: true });

describe('the till with its combos, discounts, customers and rates on the device', { timeout: 40_000 }, () => {
  it('sells with what the device kept when the server’s lists do not answer', async () => {
    // the rates as the server last told them, kept on an earlier day
    await outboxDb().rates.put({ ...RATES, name: 'current' });
    mockFetch({
      ...tillLookups(),
      'GET exchange-rates/current': unreachable,
      'GET discounts': unreachable,
      'GET customers': unreachable,
      'GET combos': unreachable,
      'GET discounts/changes': changes([DRINKS_10, ORDER_1_OFF]),
      'GET customers/changes': changes([WALK_IN, DARA]),
      'GET combos/changes': changes([comboRow(5)]),
      'GET combos/5': () => ({ body: { data: { ...comboRow(5), items: previewOf().items } } }),
    });
    signedIn({ permissions: SELLING });
    const { user } = renderApp('/en/pos');
    // the rate from the device
    await waitFor(() => expect(screen.getByTestId('pos-rate').textContent).toContain('1 $ = 4,100៛'), {
      timeout: 10_000,
    });
    await user.click(await screen.findByTestId('tile-1', {}, { timeout: 10_000 }));
    // the customers and today's discounts from the device (the server's lists did not answer)
    await waitFor(
      () => {
        const lists = localListsState();
        expect([lists.customers?.length, lists.discounts?.length, lists.combos?.size]).toEqual([2, 2, 1]);
      },
      { timeout: 10_000 },
    );
    await choose(user, await screen.findByRole('combobox', { name: 'Customer' }), 'Sok Dara · 012 345 678');
    await choose(user, screen.getByRole('combobox', { name: 'Discount on the whole order' }), 'Loyalty $1 (−$1.00)');
    expect(screen.getByTestId('cart-discount').textContent).toContain('$1.00');
    // the combos too, with their items
    await user.click(screen.getByTestId('chip-combos'));
    await user.click(await screen.findByTestId('combo-tile-5', {}, { timeout: 10_000 }));
    await waitFor(() => expect(screen.getAllByText('Party pack').length).toBeGreaterThan(1));
  });

  it('names a kept combo’s products as the device knows them now, not as the combo was kept', async () => {
    // the beer renamed after the combo's last change: the combo's kept items still say the old name
    await forgetCatalogue();
    await forgetLocalLists();
    const renamed = { ...BEER, name_en: 'Angkor Beer can', name_kh: 'ស្រាបៀរអង្គរកំប៉ុង' };
    await outboxDb().products.bulkPut([
      { ...renamed, stock: 5, stock_store: 1 },
      { ...RICE, stock: 40, stock_store: 1 },
    ]);
    mockFetch({
      ...tillLookups(),
      'GET combos': unreachable,
      'GET products/1': unreachable,
      'GET products/2': unreachable,
      'GET combos/changes': changes([comboRow(5)]),
      'GET combos/5': () => ({ body: { data: { ...comboRow(5), items: previewOf().items } } }),
    });
    signedIn({ permissions: SELLING });
    const { user } = renderApp('/en/pos');
    await waitFor(() => expect(localListsState().combos?.size).toBe(1), { timeout: 10_000 });
    await user.click(await screen.findByTestId('chip-combos'));
    // the combo takes 12 beers, the device knows of 5: the till says which product, by its name now
    await user.click(await screen.findByTestId('combo-tile-5', {}, { timeout: 10_000 }));
    expect(await screen.findByText('Not enough stock for the product “Angkor Beer can”.')).toBeTruthy();
    expect(screen.queryByText(/Angkor Beer 330ml/)).toBeNull();
  });

  it('starts a delivery at the customer’s address as the device keeps it when the server does not answer', async () => {
    await forgetLocalLists();
    mockFetch({
      ...tillLookups(),
      'GET customers': unreachable,
      'GET customers/2': unreachable,
      'GET customers/changes': changes([WALK_IN, DARA]),
    });
    signedIn({ permissions: SELLING });
    const { user } = renderApp('/en/pos');
    await waitFor(() => expect(localListsState().customers?.length).toBe(2), { timeout: 10_000 });
    await choose(user, await screen.findByRole('combobox', { name: 'Customer' }), 'Sok Dara · 012 345 678');
    await user.click(screen.getByTestId('pos-delivery'));
    expect((await screen.findByTestId('pos-address')).getAttribute('value')).toBe('St. 271, Phnom Penh');
  });

  it('resumes a held order’s combo from the device: its items and products, no combo asked of the server', async () => {
    await forgetCatalogue();
    await forgetLocalLists();
    const held = orderRow(7, { status: 'held', payment_status: 'onhold', paid_cents: 0 });
    const comboItem = {
      ...held.items[0],
      kind: 'combo' as const,
      product_id: null,
      combo_id: 5,
      name_en: 'Party pack',
      name_kh: 'កញ្ចប់ពិធីជប់លៀង',
      sku: 'PARTY-1',
      unit_id: null,
      quantity: 1,
    };
    const order = { ...held, items: [comboItem] };
    let stored = false;
    const { calls } = mockFetch({
      ...tillLookups(),
      'GET combos/changes': changes([comboRow(5)]),
      // kept once; afterwards the server does not answer for it
      'GET combos/5': () => (stored ? unreachable() : { body: { data: { ...comboRow(5), items: previewOf().items } } }),
      // the beer in the till's store: fewer than the combo takes
      'GET products/1': () => ({ body: { data: { ...BEER, stock: 5 } } }),
      'GET orders': ({ query }) => ({ body: listAnswer(query.get('filter[status]') === 'held' ? [order] : []) }),
      'GET orders/7': () => ({ body: { data: order } }),
    });
    signedIn({ permissions: SELLING });
    const { user } = renderApp('/en/pos');
    await waitFor(() => expect(localListsState().combos?.size).toBe(1), { timeout: 10_000 });
    stored = true;
    const asked = calls('GET combos/5').length;
    await user.click(screen.getByTestId('open-held'));
    await user.click(await screen.findByTestId('resume-7'));
    await waitFor(() => expect(screen.getByTestId('cart-line-0').textContent).toContain('Party pack'));
    // the combo's products came with it: what it takes of the beer is judged at once
    expect(await screen.findByText('Not enough stock for the product “Angkor Beer 330ml”.')).toBeTruthy();
    expect(calls('GET combos/5')).toHaveLength(asked);
    expect(within(screen.getByTestId('cart-lines')).getByText('Party pack')).toBeTruthy();
  });
});
