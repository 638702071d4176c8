import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { dashboardData, mockFetch, renderApp, signedIn } from '../test/render.tsx';

describe('dashboard', () => {
  it('shows a manager today against yesterday, what is waiting, with links to the reports behind', async () => {
    mockFetch();
    signedIn();
    renderApp('/en/dashboards');
    expect((await screen.findByTestId('dashboard-user', {}, { timeout: 10_000 })).textContent).toContain('Sok Dara');
    const today = screen.getByTestId('dashboard-today');
    const net = within(today).getByTestId('figure-net_cents');
    expect(net.textContent).toContain('Net sales');
    expect(net.textContent).toContain('$1,450.00');
    expect(net.textContent).toContain('Before: $1,000.00');
    expect(net.textContent).toContain('▲ 45.0%');
    expect(net.closest('a')?.getAttribute('href')).toBe('/en/reports/sales?from=2026-03-12&to=2026-03-12');
    expect(within(today).getByTestId('figure-profit_cents').textContent).toContain('Gross profit');
    expect(within(screen.getByTestId('dashboard-week')).getByTestId('figure-net_cents').textContent).toContain(
      '▼ 10.0%',
    );
    const low = screen.getByTestId('alert-low_stock');
    expect(low.textContent).toContain('Low stock');
    expect(low.closest('a')?.getAttribute('href')).toBe('/en/stocks/low');
    expect(screen.getByTestId('section-by_payment').textContent).toContain('Cash (riel)');
    expect(screen.getByTestId('dashboard-hours').querySelector('svg')).toBeTruthy();
  });

  it('shows a cashier their own sales of today only, in Khmer', async () => {
    mockFetch({
      'GET dashboard': {
        body: {
          data: {
            ...dashboardData,
            kind: 'cashier',
            costs: false,
            today_figures: dashboardData.today_figures.slice(0, 3),
            week_figures: null,
            alerts: [],
            sections: dashboardData.sections.slice(0, 1),
          },
        },
      },
    });
    signedIn();
    renderApp('/dashboards');
    expect(await screen.findByText('ការលក់របស់អ្នកថ្ងៃនេះ')).toBeTruthy();
    expect(screen.getByText('បង្ហាញតែការលក់របស់អ្នកផ្ទាល់ក្នុងថ្ងៃនេះប៉ុណ្ណោះ។')).toBeTruthy();
    expect(screen.queryByTestId('figure-profit_cents')).toBeNull();
    expect(screen.queryByTestId('dashboard-week')).toBeNull();
    expect(screen.queryByTestId('dashboard-alerts')).toBeNull();
    expect(screen.getByTestId('figure-net_cents').textContent).toContain('ការលក់សុទ្ធ');
  });

  it('shows an administrator the system: users, sign-ins, live screens, the latest audit entries', async () => {
    const count = (key: string, value: number, previous: number | null, link?: string) => ({
      key,
      kind: 'count' as const,
      value,
      previous,
      ...(link ? { link } : {}),
    });
    mockFetch({
      'GET dashboard': {
        body: {
          data: {
            ...dashboardData,
            admin: {
              figures: [
                count('users_active', 7, null, '/users'),
                count('failed_sign_ins', 3, 0, '/audit'),
                count('connections', 4, null),
              ],
              recent: [{ id: 9, action: 'auth.login', user_name: 'dara', created_at: '2026-03-12T02:00:00.000Z' }],
              database: { kind: 'postgres', migration: '0024_notification_marks' },
            },
          },
        },
      },
    });
    signedIn();
    renderApp('/en/dashboards');
    const admin = await screen.findByTestId('dashboard-admin', {}, { timeout: 10_000 });
    const users = within(admin).getByTestId('admin-users_active');
    expect(users.textContent).toContain('Active users');
    expect(users.textContent).toContain('7');
    expect(users.closest('a')?.getAttribute('href')).toBe('/en/users');
    expect(within(admin).getByTestId('admin-failed_sign_ins').closest('a')?.getAttribute('href')).toBe('/en/audit');
    const recent = within(admin).getByTestId('admin-recent');
    expect(recent.textContent).toContain('dara');
    expect(recent.textContent).toContain('Signed in');
    expect(within(admin).getByTestId('admin-database').textContent).toBe(
      'PostgreSQL, migration 0024_notification_marks',
    );
  });

  it('says the data failed to load and tries again on request', async () => {
    let failing = true;
    mockFetch({
      'GET dashboard': () =>
        failing ? { status: 500, body: { message: 'Oops', request_id: 'r1' } } : { body: { data: dashboardData } },
    });
    signedIn();
    const { user } = renderApp('/en/dashboards');
    expect(await screen.findByText('Failed to load data')).toBeTruthy();
    failing = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('dashboard-today', {}, { timeout: 10_000 })).toBeTruthy();
  });
});
