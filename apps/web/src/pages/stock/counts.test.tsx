import type { CountDetail, StockCountLine } from '@depot/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { listAnswer, popoverWith, STORES, stamp } from '../../test/inventory.ts';
import { mockFetch, renderApp, signedIn } from '../../test/render.tsx';
import { GONE_AFTER, sightings } from './CameraScanner.tsx';

const no = false;

function line(extra: Partial<StockCountLine> = {}): StockCountLine {
  return {
    id: 1,
    product_id: 5,
    product_name_en: 'Palm sugar',
    product_name_kh: 'ស្ករត្នោត',
    sku: 'SUGAR-1',
    barcode: '8840248531629',
    counted: 6,
    scanned_at: stamp.created_at,
    updated_at: stamp.created_at,
    ...extra,
  };
}

function countOf(extra: Partial<CountDetail> = {}): CountDetail {
  return {
    ...stamp,
    id: 7,
    number: 'SC-2026-000007',
    store_id: 1,
    store_name: 'Phnom Penh Depot',
    zone: 'Aisle 3',
    note: null,
    status: 'open',
    lines_count: 1,
    created_by_name: 'Sok Dara',
    submitted_at: null,
    approved_at: null,
    approved_by_name: null,
    cancelled_at: null,
    adjustment_id: null,
    abilities: { scan: true, submit: true, reopen: false, approve: false, cancel: false },
    lines: [line()],
    ...extra,
  } as CountDetail;
}

describe('a stock count', { timeout: 30_000 }, () => {
  it('a counter scans blind: a typed code is posted with a key, the answer shows the line and its message', async () => {
    const after = countOf({ lines: [line({ counted: 12 })] });
    const { calls } = mockFetch({
      'GET stock-counts/7': { body: { data: countOf() } },
      'POST stock-counts/7/scans': { body: { message: 'Palm sugar: 12 counted.', data: after } },
    });
    signedIn({ permissions: ['stock_counts.list', 'stock_counts.view', 'stock_counts.update'] });
    const { user } = renderApp('/en/stocks/counts/7');
    const row = await screen.findByTestId('count-line-5');
    expect(within(row).getByTestId('count-line-counted').textContent).toBe('6');
    // blind: nothing on the screen says what the store expected
    expect(screen.queryByTestId('count-line-expected')).toBeNull();
    expect(screen.queryByText(/Expected/)).toBeNull();
    expect(screen.queryByTestId('count-approve')).toBeNull();

    const quantity = screen.getByTestId('count-quantity');
    await user.clear(quantity);
    await user.type(quantity, '6');
    await user.type(screen.getByPlaceholderText('Scan or type a barcode'), '8840248531629{Enter}');
    await waitFor(() => expect(calls('POST stock-counts/7/scans')).toHaveLength(1));
    const sent = calls('POST stock-counts/7/scans')[0];
    expect(sent.body).toEqual({ code: '8840248531629', quantity: 6 });
    expect(sent.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(await screen.findByText('Palm sugar: 12 counted.')).toBeTruthy();
    expect(within(screen.getByTestId('count-line-5')).getByTestId('count-line-counted').textContent).toBe('12');

    // a miscount corrected: the line is set, not added to
    const counted = screen.getByTestId('count-line-5');
    await user.click(within(counted).getByRole('button', { name: 'Correct' }));
    const field = within(counted).getByRole('spinbutton');
    await user.clear(field);
    await user.type(field, '10');
    await user.click(within(counted).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls('POST stock-counts/7/scans')).toHaveLength(2));
    expect(calls('POST stock-counts/7/scans')[1].body).toEqual({ product_id: 5, quantity: 10, mode: 'set' });
  });

  it('a scan the server refuses says why, in its words, and counts nothing', async () => {
    mockFetch({
      'GET stock-counts/7': { body: { data: countOf() } },
      'POST stock-counts/7/scans': {
        status: 422,
        body: { message: 'The given data was invalid.', errors: { code: ['No product has the barcode or SKU “X1”.'] } },
      },
    });
    signedIn({ permissions: ['stock_counts.view', 'stock_counts.update'] });
    const { user } = renderApp('/en/stocks/counts/7');
    await screen.findByTestId('count-line-5');
    await user.type(screen.getByPlaceholderText('Scan or type a barcode'), 'X1{Enter}');
    expect(await screen.findByText(/No product has the barcode or SKU “X1”\./)).toBeTruthy();
    expect(within(screen.getByTestId('count-line-5')).getByTestId('count-line-counted').textContent).toBe('6');
  });

  it('a manager sees each difference and its value at cost, and approves', async () => {
    const submitted = countOf({
      status: 'submitted',
      abilities: { scan: no, submit: no, reopen: true, approve: true, cancel: true },
      lines: [line({ expected: 10, difference: -4, difference_value_cents: -600 })],
      difference_value_cents: -600,
    } as Partial<CountDetail>);
    const { calls } = mockFetch({
      'GET stock-counts/7': { body: { data: submitted } },
      'POST stock-counts/7/approve': {
        body: {
          message: 'Count approved: the differences are posted to the stock.',
          data: { ...submitted, status: 'approved', abilities: { ...submitted.abilities, approve: no } },
        },
      },
    });
    signedIn({ permissions: ['stock_counts.view', 'stock_counts.approve', 'costs.view'] });
    const { user } = renderApp('/en/stocks/counts/7');
    const expected = await screen.findByTestId('count-line-expected');
    expect(expected.textContent).toBe('Expected 10 · −4 · -$6.00');
    expect(screen.getByTestId('count-value').textContent).toBe('Differences at cost: -$6.00');
    expect(screen.queryByTestId('count-scan')).toBeNull();
    expect(screen.getByTestId('count-status').textContent).toBe('To approve');

    await user.click(screen.getByTestId('count-approve'));
    const ask = popoverWith(await screen.findByText('Post every difference to the stock as a count adjustment?'));
    await user.click(within(ask).getByRole('button', { name: 'Approve and post' }));
    await waitFor(() => expect(calls('POST stock-counts/7/approve')).toHaveLength(1));
    expect(calls('POST stock-counts/7/approve')[0].headers['idempotency-key']).toBeTruthy();
  });
});

describe('the counts', { timeout: 30_000 }, () => {
  it('starts a count in the user’s store and zone, with a key, and opens it to scan', async () => {
    const made = countOf({ lines: [], lines_count: 0 });
    const { calls } = mockFetch({
      'GET stores': { body: listAnswer(STORES) },
      'GET stock-counts': { body: listAnswer([]) },
      'POST stock-counts': { status: 201, body: { message: 'Stock count created.', data: made } },
      'GET stock-counts/7': { body: { data: made } },
    });
    signedIn({
      permissions: [
        'stock_counts.list',
        'stock_counts.view',
        'stock_counts.create',
        'stock_counts.update',
        'stores.list',
      ],
    });
    const { user, path } = renderApp('/en/stocks/counts');
    await user.click(await screen.findByTestId('create'));
    const form = await screen.findByTestId('count-form');
    await waitFor(() => expect(within(form).getByText('Phnom Penh Depot (PP01)')).toBeTruthy());
    await user.type(within(form).getByTestId('count-zone'), 'Aisle 3');
    await user.click(screen.getByRole('button', { name: 'Start counting' }));
    await waitFor(() => expect(path()).toBe('/en/stocks/counts/7'));
    const sent = calls('POST stock-counts')[0];
    expect(sent.body).toEqual({ store_id: 1, zone: 'Aisle 3', note: null });
    expect(sent.headers['idempotency-key']).toBeTruthy();
    expect(await screen.findByText('Nothing counted yet: scan the first item.')).toBeTruthy();
  });
});

describe('the camera', () => {
  it('counts a code once while it stays in the picture, and again once it has left', () => {
    const seen = sightings();
    expect(seen(['884'])).toBe('884');
    // held in front of the camera: not counted again, even with a frame or two missed
    for (let i = 0; i < 10; i++) expect(seen(['884'])).toBeNull();
    expect(seen([])).toBeNull();
    expect(seen(['884'])).toBeNull();
    // put down: gone from enough looks in a row, the next one held up counts
    for (let i = 0; i < GONE_AFTER - 1; i++) expect(seen([])).toBeNull();
    expect(seen([])).toBeNull();
    expect(seen(['884'])).toBe('884');
    // another product shown while the first is held counts once it is the one seen
    expect(seen(['885'])).toBeNull();
  });
});
