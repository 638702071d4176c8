import { describe, expect, it } from 'vitest';
import { covers, landingPath } from './access.tsx';
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
  coverage: null,
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

describe('the stores a user covers', () => {
  it('as the server said: theirs only, every store with all of them, every store when not told', () => {
    const theirs = { ...base, coverage: { all: false, store_ids: [1, 3] } };
    expect([1, 2, 3].map((id) => covers(id, theirs))).toEqual([true, false, true]);
    expect(covers(2, { ...base, coverage: { all: true, store_ids: [] } })).toBe(true);
    expect(covers(2, base)).toBe(true);
  });
});
