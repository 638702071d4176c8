import { translate } from '@depot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBus } from '../../events/bus.ts';
import type { DomainEvent } from '../../events/events.ts';
import { ADMIN_PASSWORD, bearer, createStore, createUser, login, useTestApp } from '../../test/harness.ts';

/**
 * Issue 26: a temporary password opens nothing but the way to a new one; staff data stays inside
 * the reader's coverage; guessable passwords are refused wherever a password is chosen.
 */
const ctx = useTestApp();

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const as = (token: string, method: Method, url: string, payload?: object, locale = 'en') =>
  ctx.app.inject({ method, url, payload, headers: { ...bearer(token), 'x-localization': locale } });

let admin: string;
let home: number;
let away: number;
beforeAll(async () => {
  admin = (await login(ctx.app, 'admin', ADMIN_PASSWORD)).token;
  home = (await ctx.db.selectFrom('stores').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
  away = await createStore(ctx.db, 'AWAY');
});

describe('after an administrator resets a password', () => {
  it('the session reaches only /api/me, the password change and sign-out until a new password is chosen', async () => {
    const cashier = await createUser(ctx.db, { roles: ['cashier'] });
    const temporary = 'Kep-crab-market-19';
    const reset = await as(admin, 'POST', `/api/users/${cashier.id}/password`, {
      password: temporary,
      password_confirmation: temporary,
    });
    expect(reset.statusCode, reset.body).toBe(200);
    const session = await login(ctx.app, cashier.name, temporary);
    const refused = await as(session.token, 'GET', '/api/products');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      code: 'password_change_required',
      message: translate('auth.password_change_required', 'en'),
    });
    const kh = await as(session.token, 'POST', '/api/orders', {}, 'kh');
    expect(kh.statusCode).toBe(403);
    expect(kh.json().message).toBe(translate('auth.password_change_required', 'kh'));
    expect((await as(session.token, 'GET', '/api/notifications/unread-count')).statusCode).toBe(403);
    const me = await as(session.token, 'GET', '/api/me');
    expect(me.statusCode).toBe(200);
    expect(me.json().data.must_change_password).toBe(true);
    // another sign-in with the temporary password can sign out
    const other = await login(ctx.app, cashier.name, temporary);
    expect((await as(other.token, 'POST', '/api/logout')).statusCode).toBe(200);
    const changed = await as(session.token, 'POST', '/api/me/password', {
      current_password: temporary,
      password: 'Battambang-bamboo-train-8',
      password_confirmation: 'Battambang-bamboo-train-8',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    // the same session, now with a password of the user's own
    expect((await as(session.token, 'GET', '/api/products')).statusCode).toBe(200);
  });
});

describe("users' lists and records stay inside the reader's coverage", () => {
  it('a manager of one store sees its staff, not another store’s (404), nor users of no store', async () => {
    const manager = await createUser(ctx.db, { roles: ['manager'], store: home });
    const mine = await createUser(ctx.db, { roles: ['cashier'], store: home });
    const both = await createUser(ctx.db, { roles: ['cashier'], store: away, covers: [home] });
    const theirs = await createUser(ctx.db, { roles: ['cashier'], store: away });
    const nowhere = await createUser(ctx.db, { roles: [] });
    await ctx.db.deleteFrom('user_stores').where('user_id', '=', nowhere.id).execute();
    await ctx.db.updateTable('users').set({ store_id: null }).where('id', '=', nowhere.id).execute();
    const token = (await login(ctx.app, manager.name, manager.password)).token;

    const listed = (await as(token, 'GET', '/api/users?per_page=100')).json();
    const ids = listed.data.map((u: { id: number }) => u.id);
    expect(ids).toEqual(expect.arrayContaining([manager.id, mine.id, both.id]));
    expect(ids).not.toContain(theirs.id);
    expect(ids).not.toContain(nowhere.id);
    expect(listed.meta.total).toBe(ids.length);
    const away2 = await as(token, 'GET', `/api/users?filter[store_id]=${away}`);
    expect(away2.json().data.map((u: { id: number }) => u.id)).toEqual([both.id]);

    expect((await as(token, 'GET', `/api/users/${theirs.id}`)).statusCode).toBe(404);
    expect((await as(token, 'GET', `/api/users/${nowhere.id}`)).statusCode).toBe(404);
    expect((await as(token, 'GET', `/api/users/${mine.id}`)).statusCode).toBe(200);
    expect((await as(token, 'GET', `/api/users/${theirs.id}/coverage`)).statusCode).toBe(403); // no coverage.view

    // one who may read coverage reads it only inside their own
    const reader = await createUser(ctx.db, { permissions: ['coverage.view', 'users.list'], store: home });
    const readerToken = (await login(ctx.app, reader.name, reader.password)).token;
    expect((await as(readerToken, 'GET', `/api/users/${theirs.id}/coverage`)).statusCode).toBe(404);
    expect((await as(readerToken, 'GET', `/api/users/${mine.id}/coverage`)).statusCode).toBe(200);

    // the administrator sees everyone, users of no store too
    const all = (await as(admin, 'GET', '/api/users?per_page=100')).json().data.map((u: { id: number }) => u.id);
    expect(all).toEqual(expect.arrayContaining([theirs.id, nowhere.id, mine.id]));
  });
});

describe('guessable passwords are refused', () => {
  const weak = translate('validation.password_weak', 'en');

  it('on create, reset and change, in Khmer and English, by the common dictionary and the user’s own name', async () => {
    const role = (await as(admin, 'GET', '/api/roles')).json().data.find((r: { name: string }) => r.name === 'cashier');
    const input = (name: string, password: string) => ({
      name,
      full_name: 'Chan Thou',
      password,
      password_confirmation: password,
      store_id: home,
      store_ids: [home],
      role_ids: [role.id],
    });
    const common = await as(admin, 'POST', '/api/users', input('chanthou', 'password123'));
    expect(common.statusCode).toBe(422);
    expect(common.json().errors).toEqual({ password: [weak] });
    const named = await as(admin, 'POST', '/api/users', input('chanthou', 'chanthou2026'), 'kh');
    expect(named.statusCode).toBe(422);
    expect(named.json().errors).toEqual({ password: [translate('validation.password_weak', 'kh')] });
    expect(await ctx.db.selectFrom('users').select('id').where('name', '=', 'chanthou').executeTakeFirst()).toBe(
      undefined,
    );
    const made = await as(admin, 'POST', '/api/users', input('chanthou', 'Siem-Reap-lotus-pond'));
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().data.id;

    const reset = await as(admin, 'POST', `/api/users/${id}/password`, {
      password: 'qwerty123',
      password_confirmation: 'qwerty123',
    });
    expect(reset.statusCode).toBe(422);
    expect(reset.json().errors).toEqual({ password: [weak] });
    const edited = await as(admin, 'PUT', `/api/users/${id}`, {
      ...input('chanthou', 'chanthou123'),
    });
    expect(edited.statusCode).toBe(422);
    expect(edited.json().errors).toEqual({ password: [weak] });

    const token = (await login(ctx.app, 'chanthou', 'Siem-Reap-lotus-pond')).token;
    const change = await as(token, 'POST', '/api/me/password', {
      current_password: 'Siem-Reap-lotus-pond',
      password: 'iloveyou1',
      password_confirmation: 'iloveyou1',
    });
    expect(change.statusCode).toBe(422);
    expect(change.json().errors).toEqual({ password: [weak] });
    // nothing changed: the old password still signs in
    expect((await login(ctx.app, 'chanthou', 'Siem-Reap-lotus-pond')).token).toBeTruthy();
  });
});

describe('areas: one whose areas are limited gives only areas of their own', () => {
  it('refuses no areas (every area) and another district; allows their own', async () => {
    const province = await as(admin, 'POST', '/api/provinces', {
      code: '98',
      name_en: 'Trust',
      name_kh: 'ទំនុកចិត្ត',
      type: 'province',
    });
    expect(province.statusCode, province.body).toBe(201);
    const od = async (code: string) =>
      (
        await as(admin, 'POST', '/api/operational-districts', {
          code,
          name_en: `OD ${code}`,
          name_kh: `OD ${code}`,
          province_id: province.json().data.id,
        })
      ).json().data.id as number;
    const [od1, od2] = [await od('9801'), await od('9802')];
    const clerk = await createUser(ctx.db, {
      permissions: ['coverage.assign', 'coverage.view', 'users.list', 'users.view'],
    });
    const target = await createUser(ctx.db, { permissions: ['users.list'] });
    for (const id of [clerk.id, target.id]) {
      const set = await as(admin, 'PUT', `/api/users/${id}/coverage`, {
        store_ids: [home],
        operational_district_ids: [od1],
        health_facility_ids: [],
      });
      expect(set.statusCode, set.body).toBe(200);
    }
    const token = (await login(ctx.app, clerk.name, clerk.password)).token;
    const give = (districts: number[]) =>
      as(token, 'PUT', `/api/users/${target.id}/coverage`, {
        store_ids: [home],
        operational_district_ids: districts,
        health_facility_ids: [],
      });
    const none = await give([]);
    expect(none.statusCode).toBe(422);
    expect(none.json().errors.operational_district_ids).toEqual([translate('validation.areas_not_held', 'en')]);
    expect((await give([od2])).statusCode).toBe(422);
    expect((await give([od1])).statusCode).toBe(200);
    // nor another store
    const away2 = await as(token, 'PUT', `/api/users/${target.id}/coverage`, {
      store_ids: [home, away],
      operational_district_ids: [od1],
      health_facility_ids: [],
    });
    expect(away2.statusCode).toBe(422);
  });
});

describe('the real-time layer hears when a user’s access shrinks', () => {
  const events: DomainEvent[] = [];
  let stop: () => void;
  beforeAll(() => {
    stop = eventBus(ctx.db).subscribe((event) => {
      events.push(event);
    });
  });
  afterAll(() => stop?.());

  it('UserAccessRevoked on disable, a reset, a store taken away and delete', async () => {
    const user = await createUser(ctx.db, { roles: ['cashier'], store: home, covers: [away] });
    const revoked = () =>
      events.filter((e) => e.name === 'UserAccessRevoked' && e.payload.user_id === user.id).map((e) => e.payload);
    await as(admin, 'PUT', `/api/users/${user.id}/status`, { status: 'inactive' });
    await as(admin, 'PUT', `/api/users/${user.id}/status`, { status: 'active' });
    await as(admin, 'POST', `/api/users/${user.id}/password`, {
      password: 'Koh-Kong-mangrove-3',
      password_confirmation: 'Koh-Kong-mangrove-3',
    });
    const covered = await as(admin, 'PUT', `/api/users/${user.id}/coverage`, {
      store_ids: [home],
      operational_district_ids: [],
      health_facility_ids: [],
    });
    expect(covered.statusCode, covered.body).toBe(200);
    await as(admin, 'DELETE', `/api/users/${user.id}`);
    expect(revoked()).toEqual([
      { user_id: user.id, reason: 'disabled', store_ids: [] },
      { user_id: user.id, reason: 'sessions_ended', store_ids: [] },
      { user_id: user.id, reason: 'stores_removed', store_ids: [away] },
      { user_id: user.id, reason: 'deleted', store_ids: [] },
    ]);
  });
});
