import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { choose } from '../../test/inventory.ts';
import { mockFetch, renderApp, signedIn } from '../../test/render.tsx';
import {
  BEER,
  comboRow,
  DARA,
  DRINKS_10,
  ORDER_1_OFF,
  previewOf,
  RATES,
  RICE,
  SELLING,
  tillLookups,
  WALK_IN,
} from '../../test/sales.ts';
import { forgetCatalogue, forgetKept, keptState } from './localCatalogue.ts';
import { outboxDb } from './outbox.ts';

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
        const kept = keptState();
        expect([kept.customers?.length, kept.discounts?.length, kept.combos?.size]).toEqual([2, 2, 1]);
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
    await forgetKept();
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
    await waitFor(() => expect(keptState().combos?.size).toBe(1), { timeout: 10_000 });
    await user.click(await screen.findByTestId('chip-combos'));
    // the combo takes 12 beers, the device knows of 5: the till says which product, by its name now
    await user.click(await screen.findByTestId('combo-tile-5', {}, { timeout: 10_000 }));
    expect(await screen.findByText('Not enough stock for the product “Angkor Beer can”.')).toBeTruthy();
    expect(screen.queryByText(/Angkor Beer 330ml/)).toBeNull();
  });
});
