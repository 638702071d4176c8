import { DEFAULT_ROLES, dashboardResponse } from '@depot/contracts';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { ADMIN_PASSWORD, bearer, createUser, login, useTestApp } from '../test/harness.ts';

const ctx = useTestApp();
const dashboard = (token: string, locale = 'en') =>
  ctx.app.inject({ method: 'GET', url: '/api/dashboard', headers: { ...bearer(token), 'x-localization': locale } });

describe('the global access hook', () => {
  it('answers 401 to a missing token and 403 to a user whose roles lack the permission', async () => {
    const anonymous = await ctx.app.inject({ method: 'GET', url: '/api/dashboard' });
    expect(anonymous.statusCode).toBe(401);

    const user = await createUser(ctx.db, { permissions: ['profiles.view'] });
    const { token } = await login(ctx.app, user.name, user.password);
    const en = await dashboard(token);
    expect(en.statusCode).toBe(403);
    expect(en.json()).toEqual({ message: 'You do not have permission to do this.' });
    expect((await dashboard(token, 'kh')).json()).toEqual({ message: 'អ្នកមិនមានសិទ្ធិធ្វើសកម្មភាពនេះទេ។' });
  });

  it('lets every default role open the dashboard, which each of them holds', async () => {
    for (const role of DEFAULT_ROLES) {
      const user = await createUser(ctx.db, { roles: [role.name] });
      const { token, permissions } = await login(ctx.app, user.name, user.password);
      expect(permissions).toEqual([...new Set(role.permissions)].sort());
      expect((await dashboard(token)).statusCode, role.name).toBe(200);
    }
  });

  it('follows a role change on the next request, without signing in again', async () => {
    const user = await createUser(ctx.db, { permissions: [] });
    const { token } = await login(ctx.app, user.name, user.password);
    expect((await dashboard(token)).statusCode).toBe(403);
    const cashier = await ctx.db
      .selectFrom('roles')
      .select('id')
      .where('name', '=', 'cashier')
      .executeTakeFirstOrThrow();
    await ctx.db.insertInto('user_roles').values({ user_id: user.id, role_id: cashier.id }).execute();
    expect((await dashboard(token)).statusCode).toBe(200);
  });

  it('refuses to start with an API route that declares no access', async () => {
    const app = await buildApp({ db: ctx.db, uploadsDir: ctx.uploadsDir });
    expect(() => app.get('/api/forgotten', async () => ({ secret: true }))).toThrow(/declares no access/);
    await app.close();
  });
});

describe('GET /api/dashboard', () => {
  it("gives a manager's dashboard to a user who may see reports, and a cashier their own day", async () => {
    const { token } = await login(ctx.app, 'admin', ADMIN_PASSWORD);
    const { data } = dashboardResponse.parse((await dashboard(token)).json());
    expect(data.kind).toBe('manager');
    expect(data.week_figures?.map((f) => f.key)).toEqual(['net_cents', 'orders', 'average_cents', 'profit_cents']);
    expect(data.alerts.map((a) => a.key)).toContain('low_stock');

    const user = await createUser(ctx.db, { roles: ['cashier'] });
    const cashier = dashboardResponse.parse(
      (await dashboard((await login(ctx.app, user.name, user.password)).token)).json(),
    );
    expect(cashier.data).toMatchObject({ kind: 'cashier', costs: false, week_figures: null, alerts: [] });
    expect(cashier.data.today_figures.map((f) => f.key)).toEqual(['net_cents', 'orders', 'average_cents']);
  });
});
