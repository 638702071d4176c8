import { DEFAULT_ROLES } from '@depot/contracts';
import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { bearer, createUser, login, useTestApp } from '../test/harness.ts';

const ctx = useTestApp();

/**
 * Every API route, called by a user of every default role (and by nobody): a route's declared
 * access decides between 401, 403 and getting through. A new route is covered without a new test.
 */
describe('permission matrix', () => {
  it('lists the routes it walks', () => {
    expect(ctx.app.accessTable.map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining([
        'GET /api/me',
        'GET /api/dashboard',
        'POST /api/login',
        'GET /api/health',
        'GET /api/products/export',
        'POST /api/products/import',
        'GET /api/purchases',
        'GET /api/purchases/:id',
        'POST /api/purchases',
        'PUT /api/purchases/:id',
        'POST /api/purchases/:id/order',
        'POST /api/purchases/:id/receive',
        'POST /api/purchases/:id/payments',
        'POST /api/purchases/:id/cancel',
        'GET /api/discounts',
        'PUT /api/discounts/:id',
        'GET /api/combos',
        'GET /api/combos/:id',
        'POST /api/combos',
        'POST /api/combos/preview',
        'POST /api/combos/:id/restore',
        'GET /api/exchange-rates/current',
        'GET /api/exchange-rates',
        'POST /api/exchange-rates',
        'GET /api/settings/sale',
        'PUT /api/settings/sale',
        'GET /api/notifications',
        'GET /api/notifications/unread-count',
        'POST /api/notifications/read-all',
        'POST /api/notifications/:id/archive',
        'DELETE /api/notifications/:id',
      ]),
    );
  });

  it('answers each role as the route declares', { timeout: 60_000 }, async () => {
    // every default role, and a user who holds no role at all
    const roles = [...DEFAULT_ROLES, { name: 'no role', permissions: [] as readonly string[] }];
    const users = await Promise.all(
      roles.map((role) => createUser(ctx.db, { roles: role.permissions.length ? [role.name] : [] })),
    );
    const tokens: (string | undefined)[] = [];
    for (const route of ctx.app.accessTable) {
      const request: InjectOptions = {
        method: route.method as InjectOptions['method'],
        url: route.url.replace(/:(\w+)/g, '1'),
        payload: route.method === 'GET' ? undefined : {},
      };
      const anonymous = await ctx.app.inject(request);
      const label = `${route.method} ${route.url}`;
      if (route.access === 'public') {
        expect(anonymous.statusCode, label).not.toBe(403);
        continue;
      }
      expect(anonymous.statusCode, `${label} without a token`).toBe(401);

      for (const [i, role] of roles.entries()) {
        tokens[i] ??= (await login(ctx.app, users[i].name, users[i].password)).token;
        const res = await ctx.app.inject({ ...request, headers: bearer(tokens[i]) });
        if (route.url === '/api/logout') tokens[i] = undefined; // that sign-in has ended
        const allowed =
          route.access === 'authenticated' || (role.permissions as readonly string[]).includes(route.access);
        if (allowed) expect([401, 403], `${label} as ${role.name}`).not.toContain(res.statusCode);
        else expect(res.statusCode, `${label} as ${role.name}`).toBe(403);
      }
    }
  });
});
