import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, renderApp, signedIn } from '../../test/render.tsx';

const report = {
  report: 'sales',
  from: '2026-03-01',
  to: '2026-03-12',
  previous_from: '2026-02-17',
  previous_to: '2026-02-28',
  group: 'day',
  store_id: null,
  costs: false,
  rate: { rate_khr: 4100, khr_step: 100 },
  summary: [
    { key: 'net_cents', kind: 'money', value: 1450, previous: 1000 },
    { key: 'net_khr', kind: 'riel', value: 59_500, previous: 41_000 },
    { key: 'orders', kind: 'count', value: 2, previous: null },
  ],
  series: {
    keys: ['net_cents', 'orders'],
    points: [
      { bucket: '2026-03-01', values: { net_cents: 1000, orders: 1 } },
      { bucket: '2026-03-02', values: { net_cents: 450, orders: 1 } },
    ],
    previous: null,
  },
  sections: [
    {
      key: 'by_product',
      columns: [
        { key: 'name', kind: 'text' },
        { key: 'kind', kind: 'text' },
        { key: 'net_cents', kind: 'money' },
      ],
      rows: [{ name: 'Angkor beer', name_kh: 'ស្រាបៀរអង្គរ', kind: 'report.value.product', net_cents: 450 }],
    },
  ],
  generated_at: '2026-03-12T03:00:00.000Z',
};

describe('reports', () => {
  it('shows the figures, the chart and the tables of the sales report, in Khmer', async () => {
    const { calls } = mockFetch({ 'GET reports/sales': { body: { data: report } } });
    signedIn({ permissions: ['dashboards.view', 'reports.view', 'stores.list', 'categories.list', 'brands.list'] });
    renderApp('/reports/sales?from=2026-03-01&to=2026-03-12');
    const net = await screen.findByTestId('figure-net_cents', {}, { timeout: 10_000 });
    expect(net.textContent).toContain('ការលក់សុទ្ធ');
    expect(net.textContent).toContain('$14.50');
    expect(screen.getByTestId('figure-net_khr').textContent).toContain('59,500៛');
    expect(screen.getByTestId('report-period').textContent).toContain('1 មីនា 2026 – 12 មីនា 2026');
    const table = screen.getByTestId('section-by_product');
    expect(within(table).getByText('ស្រាបៀរអង្គរ')).toBeTruthy();
    expect(within(table).getByText('ផលិតផល')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('report-chart').querySelector('svg')).toBeTruthy());
    const asked = calls('GET reports/sales')[0].query;
    expect(asked.get('from')).toBe('2026-03-01');
    expect(asked.get('group')).toBe('day');
    expect(asked.get('compare')).toBe('true');
  });

  it('asks again grouped by month when the grouping changes', async () => {
    const { calls } = mockFetch({ 'GET reports/sales': { body: { data: report } } });
    signedIn({ permissions: ['dashboards.view', 'reports.view', 'stores.list', 'categories.list', 'brands.list'] });
    const { user } = renderApp('/en/reports/sales?from=2026-03-01&to=2026-03-12');
    await screen.findByTestId('figure-net_cents', {}, { timeout: 10_000 });
    await user.click(within(screen.getByTestId('report-group')).getByText('Month'));
    await waitFor(() => expect(calls('GET reports/sales').some((c) => c.query.get('group') === 'month')).toBe(true));
  });
});
