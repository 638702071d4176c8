import type { LoginResponse } from '@depot/contracts';
import { DEFAULT_SETTINGS } from '@depot/contracts';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { vi } from 'vitest';
import { App, createQueryClient } from '../app/App.tsx';
import { createAppRouter } from '../app/router.tsx';
import { session } from '../lib/session.ts';

export interface Reply {
  status?: number;
  body?: unknown;
  /** Simulates a dropped connection. */
  networkError?: boolean;
}

export type Handler = (request: {
  method: string;
  body: unknown;
  headers: Record<string, string>;
  query: URLSearchParams;
}) => Reply;

export interface SeenRequest {
  method: string;
  path: string;
  /** The query string, for list requests (`page`, `per_page`, `search`, `filter[…]`). */
  query: URLSearchParams;
  body: unknown;
  headers: Record<string, string>;
}

export const dashboardData = {
  user: { id: 1, name: 'admin', full_name: 'Sok Dara' },
  store: { id: 1, name: 'Phnom Penh Depot', code: 'PP01' },
  roles: [{ name: 'administrator', group: 'system', label_en: 'Administrator', label_kh: 'អ្នកគ្រប់គ្រងប្រព័ន្ធ' }],
  kind: 'manager' as 'manager' | 'cashier',
  today: '2026-03-12',
  costs: true,
  rate: { rate_khr: 4100, khr_step: 100 },
  today_figures: [
    {
      key: 'net_cents',
      kind: 'money',
      value: 145_000,
      previous: 100_000,
      link: '/reports/sales?from=2026-03-12&to=2026-03-12',
    },
    { key: 'orders', kind: 'count', value: 42, previous: 40, link: '/reports/sales?from=2026-03-12&to=2026-03-12' },
    { key: 'average_cents', kind: 'money', value: 3452, previous: 2500 },
    { key: 'profit_cents', kind: 'money', value: 40_000, previous: 30_000, link: '/reports/financial' },
  ],
  week_figures: [{ key: 'net_cents', kind: 'money', value: 900_000, previous: 1_000_000 }],
  by_hour: [{ hour: 9, net_cents: 50_000, orders: 10 }],
  sections: [
    {
      key: 'by_payment',
      columns: [
        { key: 'method', kind: 'text' },
        { key: 'orders', kind: 'count' },
        { key: 'amount_cents', kind: 'money' },
      ],
      rows: [{ method: 'report.method.cash_khr', orders: 3, amount_cents: 1500 }],
    },
    {
      key: 'top_products',
      columns: [
        { key: 'name', kind: 'text' },
        { key: 'quantity', kind: 'count' },
        { key: 'net_cents', kind: 'money' },
      ],
      rows: [{ name: 'Angkor beer', name_kh: 'ស្រាបៀរអង្គរ', quantity: 24, net_cents: 3000 }],
    },
  ],
  alerts: [{ key: 'low_stock', kind: 'count', value: 7, previous: null, link: '/stocks/low' }],
};

/**
 * Replaces fetch at the HTTP boundary. Keys are `METHOD path` relative to the API base (`GET dashboard`),
 * or an absolute path for other files (`GET /builds/latest.json`). Unlisted calls answer 404.
 */
export function mockFetch(handlers: Record<string, Handler | Reply> = {}) {
  const seen: SeenRequest[] = [];
  const defaults: Record<string, Handler | Reply> = {
    'GET settings/public': { body: { data: DEFAULT_SETTINGS } },
    'GET dashboard': { body: { data: dashboardData } },
    'GET /builds/latest.json': { status: 404, body: null },
  };
  const all = { ...defaults, ...handlers };
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init.method ?? 'GET').toUpperCase();
    const path = url.pathname.startsWith('/api/') ? url.pathname.slice(5) : url.pathname;
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    seen.push({ method, path, query: url.searchParams, body, headers });
    const handler = all[`${method} ${path}`];
    const reply =
      typeof handler === 'function'
        ? handler({ method, body, headers, query: url.searchParams })
        : (handler ?? { status: 404 });
    if (reply.networkError) throw new TypeError('Failed to fetch');
    return new Response(
      reply.body === undefined ? JSON.stringify({ message: 'Not found' }) : JSON.stringify(reply.body),
      {
        status: reply.status ?? 200,
        headers: { 'Content-Type': 'application/json' },
      },
    );
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, seen, calls: (key: string) => seen.filter((r) => `${r.method} ${r.path}` === key) };
}

export function loginAnswer(overrides: Partial<LoginResponse> = {}): LoginResponse {
  return {
    status: 'success',
    token: 'token-1',
    refresh_token: 'refresh-1',
    expires_in: 3600,
    user_info: { id: 1, name: 'admin', full_name: 'Sok Dara', media: [{ file_path: '/media/admin.png' }] },
    permissions: ['dashboards.view'],
    coverage: { all: true, store_ids: [] },
    roles: ['administrator'],
    store: { id: 1, name: 'Phnom Penh Depot', code: 'PP01' },
    must_change_password: false,
    ...overrides,
  };
}

/** Stores a session as a successful login would. */
export function signedIn(overrides: Partial<LoginResponse> = {}, now = Date.now()): void {
  session.signIn(loginAnswer(overrides), now);
}

export function renderApp(path: string) {
  const router = createAppRouter([path]);
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false } });
  const user = userEvent.setup();
  const view = render(<App router={router} queryClient={queryClient} />);
  return { ...view, router, user, path: () => router.state.location.pathname };
}
