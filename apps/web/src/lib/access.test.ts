import { describe, expect, it } from 'vitest';
import { landingPath } from './access.tsx';
import type { Session } from './session.ts';

const base: Session = {
  token: 't',
  refreshToken: 'r',
  expiresAt: Date.now() + 60_000,
  userName: 'sophea',
  userId: 2,
  store: null,
  avatar: null,
  permissions: [],
  roles: [],
  landing: null,
  signedOut: false,
  mustChangePassword: false,
};

describe('where a user lands', () => {
  it('on the landing of their roles (the role editor’s choice)', () => {
    expect(landingPath({ ...base, permissions: ['stocks.list', 'orders.create'], landing: 'stock' })).toBe(
      '/stocks/manage',
    );
    expect(landingPath({ ...base, permissions: ['reports.view'], landing: 'reports' })).toBe('/reports/sales');
  });

  it('by the default rule when none is set: a cashier on the till, everyone else on the dashboard', () => {
    expect(landingPath({ ...base, permissions: ['orders.create'] })).toBe('/pos');
    expect(landingPath({ ...base, permissions: ['orders.create', 'reports.view'] })).toBe('/dashboards');
  });

  it('by the default rule when the landing’s screen is no longer theirs to open', () => {
    expect(landingPath({ ...base, permissions: ['orders.create'], landing: 'purchases' })).toBe('/pos');
  });
});
