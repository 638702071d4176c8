import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { dashboardData, mockFetch, renderApp, signedIn } from '../test/render.tsx';

describe('dashboard', () => {
  it('shows who is signed in, their store, roles and the record counts', async () => {
    mockFetch();
    signedIn();
    renderApp('/en/dashboards');
    const user = await screen.findByTestId('dashboard-user');
    expect(user.textContent).toContain('Sok Dara');
    expect(user.textContent).toContain('admin');
    expect(screen.getByTestId('dashboard-store').textContent).toContain('Phnom Penh Depot');
    expect(screen.getByTestId('dashboard-roles').textContent).toBe('Administrator');
    expect(screen.getByTestId('dashboard-permissions').textContent).toBe('137');

    const counts = screen.getByTestId('dashboard-counts');
    for (const [label, value] of [
      ['Users', '12'],
      ['Active users', '9'],
      ['Roles', '4'],
      ['Stores', '3'],
      ['Permissions', '137'],
    ]) {
      const card = within(counts).getByText(label).closest('.ant-card') as HTMLElement;
      expect(card.textContent).toContain(value);
    }

    const signIns = screen.getByTestId('dashboard-sign-ins');
    expect(signIns.textContent).toContain('cashier1');
    expect(signIns.textContent).toContain('10.0.0.7');
    expect(signIns.textContent).toMatch(/March 1, 2026/);
  });

  it('labels roles in Khmer on Khmer pages', async () => {
    mockFetch();
    signedIn();
    renderApp('/dashboards');
    expect((await screen.findByTestId('dashboard-roles')).textContent).toBe('អ្នកគ្រប់គ្រងប្រព័ន្ធ');
    expect(screen.getByText('អ្នកប្រើប្រាស់សកម្ម')).toBeTruthy();
  });

  it('leaves out recent sign-ins when the server sends none', async () => {
    mockFetch({ 'GET dashboard': { body: { data: { ...dashboardData, recent_sign_ins: null, store: null } } } });
    signedIn();
    renderApp('/en/dashboards');
    expect((await screen.findByTestId('dashboard-store')).textContent).toBe('Not assigned to a store');
    expect(screen.queryByTestId('dashboard-sign-ins')).toBeNull();
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
    await waitFor(() => expect(screen.getByTestId('dashboard-user').textContent).toContain('Sok Dara'));
  });
});
