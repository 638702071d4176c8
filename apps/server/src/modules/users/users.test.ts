import { translate } from '@depot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBus } from '../../events/bus.ts';
import type { DomainEvent } from '../../events/events.ts';
import { ADMIN_PASSWORD, bearer, createStore, createUser, login, useTestApp } from '../../test/harness.ts';

const ctx = useTestApp();

describe('users, roles, coverage and the audit trail', () => {
  let admin: string;
  let store2: number;
  let cashierRole: number;
  let adminRole: number;
  const events: DomainEvent[] = [];
  let stop: () => void;
  const as = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    ctx.app.inject({ method, url, payload, headers: { ...bearer(token), 'x-localization': 'en' } });

  beforeAll(async () => {
    admin = (await login(ctx.app, 'admin', ADMIN_PASSWORD)).token;
    store2 = await createStore(ctx.db, 'ST2');
    const roles = (await as(admin, 'GET', '/api/roles')).json().data as { id: number; name: string }[];
    cashierRole = roles.find((r) => r.name === 'cashier')?.id as number;
    adminRole = roles.find((r) => r.name === 'administrator')?.id as number;
    stop = eventBus(ctx.db).subscribe((event) => {
      events.push(event);
    });
  });
  afterAll(() => stop?.());

  const cashierInput = (name: string) => ({
    name,
    full_name: 'Chan Sophea',
    email: '',
    phone: '012 345 678',
    password: 'cashier-pass-1',
    password_confirmation: 'cashier-pass-1',
    status: 'active',
    date_of_birth: '1995-03-01',
    join_date: '2026-01-15',
    position: 'Cashier',
    store_id: store2,
    store_ids: [store2],
    role_ids: [cashierRole],
  });

  it("refuses a short or unconfirmed password on its field, in the reader's language", async () => {
    const short = await as(admin, 'POST', '/api/users', {
      ...cashierInput('short1'),
      password: 'abc',
      password_confirmation: 'abc',
    });
    expect(short.statusCode).toBe(422);
    expect(short.json().errors.password).toBeDefined();
    const mismatch = await ctx.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { ...bearer(admin), 'x-localization': 'kh' },
      payload: { ...cashierInput('mismatch1'), password_confirmation: 'different-1' },
    });
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json().errors.password_confirmation).toEqual([translate('validation.password_mismatch', 'kh')]);
    const missing = await as(admin, 'POST', '/api/users', {
      ...cashierInput('nopass1'),
      password: '',
      password_confirmation: '',
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors.password).toBeDefined();
  });

  it('an administrator creates a cashier for store 2, who signs in and sees only store 2', async () => {
    const created = await as(admin, 'POST', '/api/users', cashierInput('sophea'));
    expect(created.statusCode, created.body).toBe(201);
    const user = created.json().data;
    expect(user).toMatchObject({
      name: 'sophea',
      store_id: store2,
      store_ids: [store2],
      roles: [{ name: 'cashier' }],
      must_change_password: false,
    });
    const cashier = await login(ctx.app, 'sophea', 'cashier-pass-1');
    const me = (await as(cashier.token, 'GET', '/api/me')).json().data;
    expect(me.store).toMatchObject({ id: store2 });
    // the stores they work in: store 2 only (the first store is another's)
    const first = (await ctx.db.selectFrom('stores').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    expect((await as(cashier.token, 'GET', `/api/products?stock_store=${store2}`)).statusCode).toBe(200);
    expect((await as(cashier.token, 'GET', `/api/products?stock_store=${first}`)).statusCode).toBe(422);
    expect((await as(admin, 'GET', `/api/products?stock_store=${first}`)).statusCode).toBe(200);
    // the list finds them by name, and shows when and from where they last signed in
    const found = (await as(admin, 'GET', `/api/users?search=sophea&filter[store_id]=${store2}`)).json();
    expect(found.data).toHaveLength(1);
    expect(found.data[0].last_login_at).not.toBeNull();
    expect(found.data[0].last_login_ip).toBe('127.0.0.1');
    expect(found.data[0].abilities).toMatchObject({ update: true, delete: true, disable: true });
    // the same name twice is refused on its field
    const again = await as(admin, 'POST', '/api/users', cashierInput('Sophea'));
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.name).toBeDefined();
  });

  it('a reset password must be changed at the next sign-in, and ends the sessions', async () => {
    const { id } = (await as(admin, 'POST', '/api/users', cashierInput('reset1'))).json().data;
    const before = await login(ctx.app, 'reset1', 'cashier-pass-1');
    const reset = await as(admin, 'POST', `/api/users/${id}/password`, {
      password: 'Kampot-pepper-41',
      password_confirmation: 'Kampot-pepper-41',
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await as(before.token, 'GET', '/api/me')).statusCode).toBe(401);
    const signIn = await ctx.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { name: 'reset1', password: 'Kampot-pepper-41' },
    });
    expect(signIn.json().must_change_password).toBe(true);
    const token = signIn.json().token as string;
    const wrong = await as(token, 'POST', '/api/me/password', {
      current_password: 'nope',
      password: 'my-own-pass-1',
      password_confirmation: 'my-own-pass-1',
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.current_password).toEqual(['The current password is incorrect.']);
    const changed = await as(token, 'POST', '/api/me/password', {
      current_password: 'Kampot-pepper-41',
      password: 'my-own-pass-1',
      password_confirmation: 'my-own-pass-1',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await as(token, 'GET', '/api/me')).json().data.must_change_password).toBe(false);
    expect((await login(ctx.app, 'reset1', 'my-own-pass-1')).token).toBeTruthy();
  });

  it('disabling a user ends their sessions at once; enabling lets them sign in again', async () => {
    const { id } = (await as(admin, 'POST', '/api/users', cashierInput('disable1'))).json().data;
    const session = await login(ctx.app, 'disable1', 'cashier-pass-1');
    const disabled = await as(admin, 'PUT', `/api/users/${id}/status`, { status: 'inactive' });
    expect(disabled.statusCode).toBe(200);
    expect(disabled.json().message).toBe('User disabled. Their sessions have ended.');
    expect((await as(session.token, 'GET', '/api/me')).statusCode).toBe(401);
    const refused = await ctx.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { name: 'disable1', password: 'cashier-pass-1' },
    });
    expect(refused.statusCode).toBe(403);
    await as(admin, 'PUT', `/api/users/${id}/status`, { status: 'active' });
    expect((await login(ctx.app, 'disable1', 'cashier-pass-1')).token).toBeTruthy();
  });

  it('nobody can lock the depot out: the last active administrator stays (422)', async () => {
    const me = (await as(admin, 'GET', '/api/me')).json().data;
    // an HR clerk may update and delete users, but is no administrator (no roles.update): the
    // administrator is not theirs to touch at all (issue 26)
    const clerk = await createUser(ctx.db, { permissions: ['users.list', 'users.update', 'users.delete'] });
    const token = (await login(ctx.app, clerk.name, clerk.password)).token;
    const disable = await as(token, 'PUT', `/api/users/${me.id}/status`, { status: 'inactive' });
    expect(disable.statusCode).toBe(403);
    expect(disable.json().message).toBe(translate('users.administrator_only', 'en'));
    expect((await as(token, 'DELETE', `/api/users/${me.id}`)).statusCode).toBe(403);
    // the administrator cannot disable themselves (422), and no other administrator remains
    const self = await as(admin, 'PUT', `/api/users/${me.id}/status`, { status: 'inactive' });
    expect(self.statusCode).toBe(422);
    // demoted: out of the administrator role's members, or the role losing its rights
    const demote = await as(admin, 'PUT', `/api/roles/${adminRole}/members`, { user_ids: [] });
    expect(demote.statusCode).toBe(422);
    const role = (await as(admin, 'GET', `/api/roles/${adminRole}`)).json().data;
    const stripped = await as(admin, 'PUT', `/api/roles/${adminRole}`, {
      name: role.name,
      group: role.group,
      label_en: role.label_en,
      label_kh: role.label_kh,
      permissions: role.permissions.filter((p: string) => p !== 'roles.update'),
    });
    expect(stripped.statusCode).toBe(422);
    // in Khmer too
    const kh = await ctx.app.inject({
      method: 'PUT',
      url: `/api/roles/${adminRole}/members`,
      headers: { ...bearer(admin), 'x-localization': 'kh' },
      payload: { user_ids: [] },
    });
    expect(kh.json().message).toBe(translate('users.last_admin', 'kh'));
    // nothing changed
    expect((await as(admin, 'GET', '/api/me')).statusCode).toBe(200);
    expect((await as(admin, 'GET', `/api/users/${me.id}`)).json().data.abilities).toMatchObject({
      disable: false,
      delete: false,
    });
  });

  it("a role's permissions change on the next request of its members, who are told", async () => {
    const cashier = await login(ctx.app, 'sophea', 'cashier-pass-1');
    const sophea = (await as(cashier.token, 'GET', '/api/me')).json().data;
    expect((await as(cashier.token, 'GET', '/api/customers')).statusCode).toBe(200);
    const role = (await as(admin, 'GET', `/api/roles/${cashierRole}`)).json().data;
    events.length = 0;
    const saved = await as(admin, 'PUT', `/api/roles/${cashierRole}`, {
      name: role.name,
      group: role.group,
      label_en: role.label_en,
      label_kh: role.label_kh,
      permissions: role.permissions.filter((p: string) => !p.startsWith('customers.')),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await as(cashier.token, 'GET', '/api/customers')).statusCode).toBe(403);
    expect((await as(cashier.token, 'GET', '/api/me')).json().data.permissions).not.toContain('customers.list');
    const told = events.filter((e) => e.name === 'PermissionsChanged');
    expect(told.flatMap((e) => (e.payload as { user_ids: number[] }).user_ids)).toContain(sophea.id);
    // reset to its defaults: the permission is back
    const reset = await as(admin, 'POST', `/api/roles/${cashierRole}/reset`);
    expect(reset.statusCode).toBe(200);
    expect((await as(cashier.token, 'GET', '/api/customers')).statusCode).toBe(200);
    // a default role cannot be deleted
    expect((await as(admin, 'DELETE', `/api/roles/${cashierRole}`)).statusCode).toBe(422);
  });

  it("a role's members are added and removed, who are told", async () => {
    const created = await as(admin, 'POST', '/api/roles', {
      name: 'auditor',
      group: 'management',
      label_en: 'Auditor',
      label_kh: 'សវនករ',
      permissions: ['audit.list', 'dashboards.view'],
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.id;
    const sophea = (await as(admin, 'GET', '/api/users?search=sophea'))
      .json()
      .data.find((u: { name: string }) => u.name === 'sophea');
    const token = (await login(ctx.app, 'sophea', 'cashier-pass-1')).token;
    expect((await as(token, 'GET', '/api/audit')).statusCode).toBe(403);
    events.length = 0;
    const added = await as(admin, 'PUT', `/api/roles/${id}/members`, { user_ids: [sophea.id] });
    expect(added.json().data.member_ids).toEqual([sophea.id]);
    expect(events.some((e) => e.name === 'PermissionsChanged')).toBe(true);
    expect((await as(token, 'GET', '/api/audit')).statusCode).toBe(200);
    await as(admin, 'PUT', `/api/roles/${id}/members`, { user_ids: [] });
    expect((await as(token, 'GET', '/api/audit')).statusCode).toBe(403);
    const bad = await as(admin, 'POST', '/api/roles', {
      name: 'odd',
      group: 'x1',
      label_en: 'Odd',
      label_kh: 'ចម្លែក',
      permissions: ['nothing.really'],
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.permissions).toEqual(['Unknown permission.']);
  });

  it('coverage: stores and areas given to a user limit what they see on their next request', async () => {
    const store3 = await createStore(ctx.db, 'ST3');
    const sophea = (await as(admin, 'GET', '/api/users?search=sophea'))
      .json()
      .data.find((u: { name: string }) => u.name === 'sophea');
    const token = (await login(ctx.app, 'sophea', 'cashier-pass-1')).token;
    const province = await as(admin, 'POST', '/api/provinces', {
      code: '99',
      name_en: 'Testing',
      name_kh: 'សាកល្បង',
      type: 'province',
    });
    expect(province.statusCode, province.body).toBe(201);
    const od = (name: string, code: string) =>
      as(admin, 'POST', '/api/operational-districts', {
        code,
        name_en: name,
        name_kh: name,
        province_id: province.json().data.id,
      });
    const od1 = (await od('OD One', '9901')).json().data;
    const od2 = (await od('OD Two', '9902')).json().data;
    const saved = await as(admin, 'PUT', `/api/users/${sophea.id}/coverage`, {
      store_ids: [store2, store3],
      operational_district_ids: [od1.id],
      health_facility_ids: [],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toMatchObject({ store_ids: [store2, store3], operational_district_ids: [od1.id] });
    const first = (await ctx.db.selectFrom('stores').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    expect((await as(token, 'GET', `/api/products?stock_store=${store3}`)).statusCode).toBe(200);
    expect((await as(token, 'GET', `/api/products?stock_store=${first}`)).statusCode).toBe(422);
    const tree = (await as(admin, 'GET', '/api/coverage/areas')).json().data as { code: string }[];
    expect(tree.some((p) => p.code === '99')).toBe(true);
    // the areas' lists: only the district covered (for who may list them)
    const reader = await createUser(ctx.db, { permissions: ['operational_districts.list'] });
    await as(admin, 'PUT', `/api/users/${reader.id}/coverage`, {
      store_ids: [],
      operational_district_ids: [od2.id],
      health_facility_ids: [],
    });
    const readerToken = (await login(ctx.app, reader.name, reader.password)).token;
    const seen = (await as(readerToken, 'GET', '/api/operational-districts?per_page=100')).json().data as {
      id: number;
    }[];
    expect(seen.map((d) => d.id)).toEqual([od2.id]);
    const unknown = await as(admin, 'PUT', `/api/users/${sophea.id}/coverage`, {
      store_ids: [999_999],
      operational_district_ids: [],
      health_facility_ids: [],
    });
    expect(unknown.statusCode).toBe(422);
  });

  it('the audit trail records sign-ins, failures and changes; read only, for administrators', async () => {
    await ctx.app.inject({ method: 'POST', url: '/api/login', payload: { name: 'sophea', password: 'wrong-pass' } });
    const failed = (await as(admin, 'GET', '/api/audit?filter[action]=auth.login_failed')).json();
    expect(failed.data[0]).toMatchObject({ user_name: 'sophea', ip: '127.0.0.1', after: { reason: 'failed' } });
    const created = (await as(admin, 'GET', '/api/audit?filter[action]=user.created&search=admin')).json();
    expect(created.meta.total).toBeGreaterThan(0);
    expect(created.data[0].after).toMatchObject({ name: expect.any(String) });
    expect(JSON.stringify(created.data)).not.toContain('cashier-pass-1');
    const roleChanges = (await as(admin, 'GET', '/api/audit?filter[subject_type]=role')).json();
    expect(roleChanges.data.map((e: { action: string }) => e.action)).toEqual(
      expect.arrayContaining(['role.updated', 'role.reset', 'role.members', 'role.created']),
    );
    const rate = await as(admin, 'POST', '/api/exchange-rates', { rate_khr: 4125 });
    expect(rate.statusCode, rate.body).toBeLessThan(300);
    const rates = (await as(admin, 'GET', '/api/audit?filter[action]=exchange_rate.changed')).json();
    expect(rates.data[0]).toMatchObject({ user_name: 'admin', after: { rate_khr: 4125 } });
    const routes = ctx.app.accessTable.filter((r) => r.url.startsWith('/api/audit'));
    expect(routes.map((r) => r.method)).toEqual(['GET']);
  });
});

describe('a user deleted', () => {
  let admin: string;
  const as = (token: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    ctx.app.inject({ method, url, payload, headers: { ...bearer(token), 'x-localization': 'en' } });
  const auditOf = async (action: string, id: number) =>
    (await as(admin, 'GET', `/api/audit?filter[action]=${action}&filter[subject_id]=${id}`)).json().data;

  beforeAll(async () => {
    admin = (await login(ctx.app, 'admin', ADMIN_PASSWORD)).token;
  });

  it('ends their sessions and is in the audit trail; never oneself', async () => {
    const made = await as(admin, 'POST', '/api/users', {
      name: 'leaving_clerk',
      full_name: 'Leaving Clerk',
      password: 'Tonle-Sap-river-2031',
      password_confirmation: 'Tonle-Sap-river-2031',
      store_id: 1,
      store_ids: [1],
    });
    expect(made.statusCode, made.body).toBe(201);
    const { id, abilities } = made.json().data;
    expect(abilities).toMatchObject({ update: true, delete: true });
    const token = (await login(ctx.app, 'leaving_clerk', 'Tonle-Sap-river-2031')).token;
    expect((await as(token, 'GET', '/api/me')).statusCode).toBe(200);

    const gone = await as(admin, 'DELETE', `/api/users/${id}`);
    expect(gone.statusCode, gone.body).toBe(200);
    expect(gone.json().message).toBe('User deleted.');
    expect((await as(token, 'GET', '/api/me')).statusCode).toBe(401);
    const [line] = await auditOf('user.deleted', id);
    expect(line.before).toEqual({ name: 'leaving_clerk', full_name: 'Leaving Clerk', status: 'active' });

    const self = await as(admin, 'DELETE', '/api/users/1');
    expect(self.statusCode).toBe(422);
    expect(self.json().message).toBe((await import('@depot/contracts')).translate('users.self', 'en'));
  });
});
