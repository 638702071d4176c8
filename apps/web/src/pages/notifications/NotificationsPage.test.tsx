import type { Notification } from '@depot/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { listAnswer } from '../../test/inventory.ts';
import { mockFetch, renderApp, signedIn } from '../../test/render.tsx';

const LOW = '0190a1b2-0000-7000-8000-000000000001';
const EXPIRING = '0190a1b2-0000-7000-8000-000000000002';
const REFUND = '0190a1b2-0000-7000-8000-000000000003';

const items: Notification[] = [
  {
    id: LOW,
    type: 'low_stock',
    data: {
      product_id: 7,
      product_name_en: 'Angkor beer 330 ml',
      product_name_kh: 'ស្រាបៀរអង្គរ ៣៣០ មល',
      store_id: 1,
      store_name: 'Main store',
      quantity: 3,
      reorder_level: 24,
      link: '/stocks/low?filter[store_id]=1',
    },
    read_at: null,
    archived_at: null,
    created_at: '2026-03-01T02:30:00.000Z',
    updated_at: '2026-03-01T02:30:00.000Z',
  },
  {
    id: EXPIRING,
    type: 'batch_expiring',
    data: {
      product_id: 9,
      product_name_en: 'Fresh milk 1 l',
      product_name_kh: 'ទឹកដោះគោស្រស់ ១ លីត្រ',
      store_id: 1,
      store_name: 'Main store',
      batch_id: 4,
      lot: 'L-0425',
      expiry_date: '2026-03-12',
      quantity: 18,
      link: '/products/expired?tab=expiring',
    },
    read_at: '2026-03-01T03:00:00.000Z',
    archived_at: null,
    created_at: '2026-02-28T02:30:00.000Z',
    updated_at: '2026-03-01T03:00:00.000Z',
  },
  {
    id: REFUND,
    type: 'refund_awaiting_approval',
    data: {
      order_id: 31,
      number: 'ORD-2026-000031',
      store_id: 1,
      store_name: 'Main store',
      requested_by: 'Sok Dara',
      amount_usd_cents: 1250,
      link: '/orders?view=31',
    },
    read_at: null,
    archived_at: null,
    created_at: '2026-02-27T02:30:00.000Z',
    updated_at: '2026-02-27T02:30:00.000Z',
  },
];

function server() {
  return mockFetch({
    'GET notifications': ({ query }) => {
      const archived = query.get('filter[archived]') === '1';
      const status = query.get('filter[status]');
      const rows = archived
        ? []
        : items.filter((n) => (status === 'unread' ? !n.read_at : status === 'read' ? Boolean(n.read_at) : true));
      return { body: listAnswer(rows) };
    },
    'GET notifications/unread-count': { body: { data: { unread: 2 } } },
    [`POST notifications/${LOW}/read`]: { body: { message: 'Marked as read.', data: { ...items[0], read_at: 'x' } } },
    [`POST notifications/${LOW}/archive`]: {
      body: { message: 'Notification archived.', data: { ...items[0], archived_at: 'x' } },
    },
    'POST notifications/read-all': { body: { message: 'All notifications marked as read (2).', data: { updated: 2 } } },
    'GET stocks/low': { body: listAnswer([]) },
  });
}

const signIn = () =>
  signedIn({
    permissions: [
      'dashboards.view',
      'notifications.list',
      'notifications.update',
      'notifications.delete',
      'stocks.list',
    ],
  });

describe('the notifications inbox', { timeout: 30_000 }, () => {
  it('writes each notification from its type and data, in English and in Khmer', async () => {
    server();
    signIn();
    renderApp('/en/notifications');
    const table = await screen.findByTestId('notifications-table');
    await within(table).findByText('Angkor beer 330 ml is low at Main store: 3 left, reorder at 24.');
    expect(
      within(table).getByText('Fresh milk 1 l, lot L-0425, at Main store expires on March 12, 2026: 18 in stock.'),
    ).toBeTruthy();
    expect(
      within(table).getByText(
        'Sok Dara asks to refund $12.50 on order ORD-2026-000031 at Main store. It awaits your approval.',
      ),
    ).toBeTruthy();
    expect(screen.getByTestId(`notification-${LOW}`).getAttribute('aria-label')).toBe('Low stock (unread)');
    expect(screen.getByTestId(`notification-${EXPIRING}`).getAttribute('aria-label')).toBe('Batch expiring');
  });

  it('speaks Khmer on the Khmer page', async () => {
    server();
    signIn();
    renderApp('/notifications');
    const table = await screen.findByTestId('notifications-table');
    await within(table).findByText('ស្រាបៀរអង្គរ ៣៣០ មល នៅMain store ស្តុកជិតអស់៖ នៅសល់ 3, កម្រិតបញ្ជាទិញបន្ថែម 24។');
    expect(within(table).getByText('ស្តុកជិតអស់')).toBeTruthy();
  });

  it('filters unread / read / all and shows the archive, in the address and the request', async () => {
    const { calls } = server();
    signIn();
    const { user, router } = renderApp('/en/notifications');
    await screen.findByText('Angkor beer 330 ml is low at Main store: 3 left, reorder at 24.');

    await user.click(screen.getByTestId('status-read'));
    await waitFor(() => expect(calls('GET notifications').at(-1)?.query.get('filter[status]')).toBe('read'));
    await waitFor(() => expect(screen.queryByText(/Angkor beer/)).toBeNull());
    expect(screen.getByText(/Fresh milk 1 l/)).toBeTruthy();
    expect(router.state.location.search).toContain('filter%5Bstatus%5D=read');

    await user.click(screen.getByTestId('tab-archive'));
    await waitFor(() => expect(calls('GET notifications').at(-1)?.query.get('filter[archived]')).toBe('1'));
    expect(await screen.findByText('Nothing archived.')).toBeTruthy();
    // no "mark all read" in the archive
    expect(screen.queryByTestId('read-all')).toBeNull();
  });

  it('marks all read, and archives one', async () => {
    const { calls } = server();
    signIn();
    const { user } = renderApp('/en/notifications');
    await screen.findByText(/Angkor beer/);
    await user.click(screen.getByTestId('read-all'));
    expect(await screen.findByText('All notifications marked as read (2).')).toBeTruthy();
    expect(calls('POST notifications/read-all')).toHaveLength(1);

    await user.click(screen.getByTestId(`archive-${LOW}`));
    expect(await screen.findByText('Notification archived.')).toBeTruthy();
    expect(calls(`POST notifications/${LOW}/archive`)).toHaveLength(1);
  });

  it('opens the record a notification links to, and counts it read', async () => {
    const { calls } = server();
    signIn();
    const { user, path, router } = renderApp('/en/notifications');
    await user.click(await screen.findByTestId(`notification-${LOW}`));
    await waitFor(() => expect(path()).toBe('/en/stocks/low'));
    expect(router.state.location.search).toBe('?filter[store_id]=1');
    await waitFor(() => expect(calls(`POST notifications/${LOW}/read`)).toHaveLength(1));
  });
});
