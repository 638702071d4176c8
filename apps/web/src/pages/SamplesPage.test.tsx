import type { SampleState } from '@depot/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, renderApp, signedIn } from '../test/render.tsx';

const none: SampleState = {
  status: 'none',
  started_at: null,
  loaded_at: null,
  loaded_by_name: null,
  counts: {},
  abilities: { load: true, remove: false },
};
const loaded: SampleState = {
  status: 'loaded',
  started_at: '2026-03-01T02:30:00.000Z',
  loaded_at: '2026-03-01T02:30:05.000Z',
  loaded_by_name: 'Sok Dara',
  counts: {
    products: 20,
    brands: 6,
    categories: 6,
    units: 6,
    suppliers: 3,
    customers: 6,
    stores: 1,
    users: 1,
    purchases: 6,
    orders: 125,
    invoices: 125,
  },
  abilities: { load: false, remove: true },
};

const admin = () =>
  signedIn({ permissions: ['dashboards.view', 'samples.view', 'samples.generate', 'samples.delete'] });

describe('the sample data screen', { timeout: 30_000 }, () => {
  it('says what will be loaded, loads it and shows the state, in English', async () => {
    let state = none;
    const { calls } = mockFetch({
      'GET samples': () => ({ body: { data: state } }),
      'POST samples': () => {
        state = loaded;
        return { body: { message: 'Sample data loaded: 20 products, 6 purchases and 125 sales.', data: loaded } };
      },
    });
    admin();
    const { user } = renderApp('/en/samples');
    const plan = await screen.findByTestId('samples-plan');
    expect(within(plan).getByText('20 products in Khmer and English, each with a picture')).toBeTruthy();
    expect(
      within(plan).getByText('125 sales over the past 21 days, paid in dollars, in riel or both, with their invoices'),
    ).toBeTruthy();
    expect((await screen.findByTestId('samples-status')).textContent).toBe('Not loaded');
    expect(screen.queryByTestId('samples-remove')).toBeNull();

    await user.click(screen.getByTestId('samples-load'));
    expect((await screen.findByTestId('samples-result')).textContent).toContain(
      'Sample data loaded: 20 products, 6 purchases and 125 sales.',
    );
    expect(calls('POST samples')).toHaveLength(1);
    expect(screen.getByTestId('samples-status').textContent).toBe('Loaded');
    expect(screen.getByText('Sok Dara')).toBeTruthy();
    expect(within(screen.getByTestId('samples-counts')).getByText('Sales')).toBeTruthy();
    expect(screen.queryByTestId('samples-load')).toBeNull();
  });

  it('asks before removing, and tells why the server refused, in Khmer', async () => {
    const message = 'មិនអាចលុបទិន្នន័យគំរូបានទេ៖ កំណត់ត្រារបស់អ្នកផ្ទាល់កំពុងប្រើវា (ការបញ្ជាទិញ: 1)';
    const { calls } = mockFetch({
      'GET samples': { body: { data: loaded } },
      'DELETE samples': { status: 409, body: { message } },
    });
    admin();
    const { user } = renderApp('/samples');
    expect((await screen.findByTestId('samples-status')).textContent).toBe('បានផ្ទុក');
    await user.click(screen.getByTestId('samples-remove'));
    const popup = (await screen.findByText('លុបទិន្នន័យគំរូឬ?')).closest('.ant-popover') as HTMLElement;
    expect(calls('DELETE samples')).toHaveLength(0);
    await user.click(within(popup).getByRole('button', { name: 'លុប' }));
    await waitFor(() => expect(calls('DELETE samples')).toHaveLength(1));
    expect((await screen.findByTestId('samples-result')).textContent).toContain(message);
  });

  it('shows no buttons to who may only look', async () => {
    mockFetch({ 'GET samples': { body: { data: { ...loaded, abilities: { load: false, remove: false } } } } });
    signedIn({ permissions: ['dashboards.view', 'samples.view'] });
    renderApp('/en/samples');
    await screen.findByTestId('samples-status');
    expect(screen.queryByTestId('samples-load')).toBeNull();
    expect(screen.queryByTestId('samples-remove')).toBeNull();
  });
});
