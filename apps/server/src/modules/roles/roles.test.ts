import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, bearer, createUser, login, useTestApp } from '../../test/harness.ts';

const ctx = useTestApp();

describe('a role’s landing screen', () => {
  let admin: string;
  const as = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, locale = 'en') =>
    ctx.app.inject({ method, url, payload, headers: { ...bearer(admin), 'x-localization': locale } });
  const roleInput = (name: string, permissions: string[], landing?: string | null) => ({
    name,
    group: 'test',
    label_en: `Role ${name}`,
    label_kh: `តួនាទី ${name}`,
    permissions,
    ...(landing === undefined ? {} : { landing }),
  });

  beforeAll(async () => {
    admin = (await login(ctx.app, 'admin', ADMIN_PASSWORD)).token;
  });

  it('is saved with the role, only a screen of the list the role itself can open', async () => {
    const made = await as(
      'POST',
      '/api/roles',
      roleInput('landing_stock', ['stocks.list', 'dashboards.view'], 'stock'),
    );
    expect(made.statusCode).toBe(201);
    expect(made.json().data.landing).toBe('stock');
    expect((await as('GET', `/api/roles/${made.json().data.id}`)).json().data.landing).toBe('stock');

    const cannot = await as('POST', '/api/roles', roleInput('landing_pos', ['stocks.list'], 'pos'), 'kh');
    expect(cannot.statusCode).toBe(422);
    expect(cannot.json().errors.landing).toEqual(['តួនាទីនេះមិនអាចបើកអេក្រង់នោះបានទេ៖ សូមផ្ដល់សិទ្ធិជាមុនសិន ឬជ្រើសរើសអេក្រង់ផ្សេង។']);

    const unknown = await as('POST', '/api/roles', roleInput('landing_nowhere', ['stocks.list'], 'settings'));
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors.landing).toBeDefined();

    // the permission taken away while the landing stays: refused; the landing cleared with it: saved
    const id = made.json().data.id;
    const orphan = await as('PUT', `/api/roles/${id}`, roleInput('landing_stock', ['dashboards.view'], 'stock'));
    expect(orphan.statusCode).toBe(422);
    expect(orphan.json().errors.landing).toEqual([
      'This role cannot open that screen: give it the permission first, or choose another.',
    ]);
    const cleared = await as('PUT', `/api/roles/${id}`, roleInput('landing_stock', ['dashboards.view'], null));
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json().data.landing).toBeNull();
  });

  it('reaches the session: the first role (by name) with a landing; none set: null (the web’s default rule)', async () => {
    const ids: Record<string, number> = {};
    for (const [name, permissions, landing] of [
      ['la_plain', ['orders.create'], null],
      ['lb_purchases', ['purchases.list'], 'purchases'],
      ['lc_reports', ['reports.view'], 'reports'],
    ] as const) {
      const res = await as('POST', '/api/roles', roleInput(name, [...permissions], landing));
      expect(res.statusCode).toBe(201);
      ids[name] = res.json().data.id;
      expect(res.json().data.landing).toBe(landing);
    }
    const both = await createUser(ctx.db, { name: 'landing_both', roles: ['lc_reports', 'la_plain', 'lb_purchases'] });
    const signedIn = await login(ctx.app, 'landing_both', 'password-123');
    expect((signedIn as unknown as { landing: string | null }).landing).toBe('purchases');
    const me = await ctx.app.inject({ url: '/api/me', headers: bearer(signedIn.token) });
    // the session is that user's, holding all three roles: the first by name (la_plain) has no
    // landing, so the next one's (lb_purchases) is where they land, not the reports of lc_reports
    expect(me.json().data).toMatchObject({ id: both.id, name: 'landing_both', landing: 'purchases' });
    expect([...me.json().data.roles].sort()).toEqual(['la_plain', 'lb_purchases', 'lc_reports']);

    await createUser(ctx.db, { name: 'landing_none', roles: ['la_plain'] });
    expect((await login(ctx.app, 'landing_none', 'password-123')) as unknown as { landing: unknown }).toMatchObject({
      landing: null,
    });
  });
});

describe('a custom role deleted', () => {
  let admin: string;
  const as = (token: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    ctx.app.inject({ method, url, payload, headers: { ...bearer(token), 'x-localization': 'en' } });
  const auditOf = async (action: string, id: number) =>
    (await as(admin, 'GET', `/api/audit?filter[action]=${action}&filter[subject_id]=${id}`)).json().data;

  beforeAll(async () => {
    admin = (await login(ctx.app, 'admin', ADMIN_PASSWORD)).token;
  });

  it('is taken from its members at once; the audit trail keeps who held it', async () => {
    const made = await as(admin, 'POST', '/api/roles', {
      name: 'temp_lister',
      group: 'test',
      label_en: 'Temporary lister',
      label_kh: 'អ្នកមើលបណ្ដោះអាសន្ន',
      permissions: ['users.list'],
    });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().data.id;
    const member = await createUser(ctx.db, { name: 'temp_member', roles: ['temp_lister'] });
    const token = (await login(ctx.app, member.name, member.password)).token;
    expect((await as(token, 'GET', '/api/users')).statusCode).toBe(200);

    const gone = await as(admin, 'DELETE', `/api/roles/${id}`);
    expect(gone.statusCode, gone.body).toBe(200);
    expect(gone.json().message).toBe('Role deleted.');
    expect(gone.json().data.deleted_at).not.toBeNull();
    expect((await as(token, 'GET', '/api/users')).statusCode).toBe(403);
    expect((await as(admin, 'GET', `/api/roles/${id}`)).statusCode).toBe(404);
    expect((await as(admin, 'DELETE', `/api/roles/${id}`)).statusCode).toBe(404);
    const [line] = await auditOf('role.deleted', id);
    expect(line.before).toEqual({ name: 'temp_lister', permissions: ['users.list'], member_ids: [member.id] });
  });
});
