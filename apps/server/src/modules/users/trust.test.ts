import { translate } from '@depot/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
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
    expect(made.statusCode, made.body).toBe(200);
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
