import { loginResponse, meResponse, SESSION_LIFETIME_SECONDS } from '@depot/contracts';
import { describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, bearer, createStore, createUser, login, useTestApp } from '../../test/harness.ts';

const ctx = useTestApp();

const post = (url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'POST', url, payload: payload as object, headers });
const me = (token: string) => ctx.app.inject({ method: 'GET', url: '/api/me', headers: bearer(token) });

describe('POST /api/login', () => {
  it('signs the administrator in and answers the session the web app stores', async () => {
    const res = await post('/api/login', { name: 'admin', password: ADMIN_PASSWORD });
    expect(res.statusCode).toBe(200);
    const body = loginResponse.parse(res.json());
    expect(body.status).toBe('success');
    expect(body.expires_in).toBe(SESSION_LIFETIME_SECONDS);
    expect(body.token).not.toBe(body.refresh_token);
    expect(body.user_info).toMatchObject({ name: 'admin', full_name: 'Administrator', media: [] });
    expect(body.roles).toEqual(['administrator']);
    expect(body.permissions).toContain('dashboards.view');
    expect(body.permissions).toContain('users.create');
    expect(body.store).toMatchObject({ name: 'Main store', code: 'MAIN' });
  });

  it('matches the name without regard to case', async () => {
    const res = await post('/api/login', { name: 'ADMIN', password: ADMIN_PASSWORD });
    expect(res.statusCode).toBe(200);
  });

  it('refuses a wrong password and an unknown name with the same localized message', async () => {
    const en = await post('/api/login', { name: 'admin', password: 'wrong-password' }, { 'x-localization': 'en' });
    expect(en.statusCode).toBe(401);
    expect(en.json()).toEqual({ status: 'error', message: 'Username or password is incorrect.' });

    const kh = await post('/api/login', { name: 'nobody-here', password: 'whatever1' }, { 'x-localization': 'kh' });
    expect(kh.statusCode).toBe(401);
    expect(kh.json()).toEqual({ status: 'error', message: 'ឈ្មោះអ្នកប្រើប្រាស់ ឬពាក្យសម្ងាត់មិនត្រឹមត្រូវ។' });
  });

  it('answers 422 with the required message on each empty field, in the requested language', async () => {
    const en = await post('/api/login', { name: '  ' }, { 'x-localization': 'en' });
    expect(en.statusCode).toBe(422);
    expect(en.json()).toEqual({
      message: 'The given data was invalid.',
      errors: { name: ['This field is required!'], password: ['This field is required!'] },
    });
    const kh = await post('/api/login', {}, { 'x-localization': 'kh' });
    expect(kh.json().errors.name).toEqual(['ប្រអប់នេះត្រូវតែបំពេញ!']);
  });

  it('refuses a disabled user, and a user disabled while signed in loses access at once', async () => {
    const user = await createUser(ctx.db, { roles: ['cashier'] });
    const { token } = await login(ctx.app, user.name, user.password);
    expect((await me(token)).statusCode).toBe(200);

    await ctx.db.updateTable('users').set({ status: 'inactive' }).where('id', '=', user.id).execute();
    expect((await me(token)).statusCode).toBe(401);
    const res = await post('/api/login', { name: user.name, password: user.password }, { 'x-localization': 'en' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ status: 'error', message: 'This account is disabled. Ask an administrator.' });
  });

  it('does not sign in a deleted user', async () => {
    const user = await createUser(ctx.db, { roles: ['cashier'] });
    await ctx.db.updateTable('users').set({ deleted_at: new Date().toISOString() }).where('id', '=', user.id).execute();
    expect((await post('/api/login', { name: user.name, password: user.password })).statusCode).toBe(401);
  });
});

describe('GET /api/me', () => {
  it('returns the user with role and permission names', async () => {
    const user = await createUser(ctx.db, { roles: ['stock_keeper'] });
    const { token } = await login(ctx.app, user.name, user.password);
    const res = await me(token);
    expect(res.statusCode).toBe(200);
    const { data } = meResponse.parse(res.json());
    expect(data.name).toBe(user.name);
    expect(data.roles).toEqual(['stock_keeper']);
    expect(data.role_details[0]).toMatchObject({ label_en: 'Stock keeper', label_kh: 'អ្នកថែរក្សាស្តុក' });
    expect(data.permissions).toContain('stocks.update');
    expect(data.permissions).not.toContain('users.create');
  });

  it('tells the web which stores the user covers (sign-in and /api/me), and the server still refuses the others', async () => {
    const main = (await ctx.db.selectFrom('stores').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    const covered = await createStore(ctx.db, 'COV-IN');
    const other = await createStore(ctx.db, 'COV-OUT');
    const keeper = await createUser(ctx.db, { roles: ['stock_keeper'], covers: [covered] });
    const signedIn = await post('/api/login', { name: keeper.name, password: keeper.password });
    const answer = loginResponse.parse(signedIn.json());
    // the home store is among them, in id order; never a store they do not cover
    expect(answer.coverage).toEqual({ all: false, store_ids: [main, covered].sort((a, b) => a - b) });
    expect(meResponse.parse((await me(answer.token)).json()).data.coverage).toEqual(answer.coverage);
    // an administrator (all_stores.view) covers every store, present and future
    const admin = await login(ctx.app, 'admin', ADMIN_PASSWORD);
    expect(meResponse.parse((await me(admin.token)).json()).data.coverage).toEqual({ all: true, store_ids: [] });
    // offered or not, a store outside the list is refused on its field
    const refused = await ctx.app.inject({
      method: 'POST',
      url: '/api/stocks/adjustments',
      headers: { ...bearer(answer.token), 'x-localization': 'en' },
      payload: { store_id: other, reason: 'found', items: [{ product_id: 1, quantity: 1 }] },
    });
    expect(refused.statusCode).toBe(422);
    expect(Object.keys(refused.json().errors)).toContain('store_id');
  });

  it('answers /api/me anew on the next request after the user, their store or their stores change', async () => {
    const user = await createUser(ctx.db, { roles: ['stock_keeper'] });
    const { token } = await login(ctx.app, user.name, user.password);
    const read = async () => meResponse.parse((await me(token)).json()).data;
    const first = await read();
    expect(await read()).toEqual(first);
    await ctx.db.updateTable('users').set({ full_name: 'Sok Dara' }).where('id', '=', user.id).execute();
    expect((await read()).full_name).toBe('Sok Dara');
    const store = first.store?.id as number;
    await ctx.db.updateTable('stores').set({ name: 'Psar Thmei' }).where('id', '=', store).execute();
    expect((await read()).store).toMatchObject({ id: store, name: 'Psar Thmei' });
    await ctx.db
      .updateTable('stores')
      .set({ name: first.store?.name as string })
      .where('id', '=', store)
      .execute();
    // a store covered besides (what changes a user's stores touches the user)
    const added = await createStore(ctx.db, 'ME-COV');
    await ctx.db.insertInto('user_stores').values({ user_id: user.id, store_id: added }).execute();
    await ctx.db
      .updateTable('users')
      .set({ updated_at: new Date(Date.now() + 1000).toISOString() })
      .where('id', '=', user.id)
      .execute();
    expect((await read()).coverage.store_ids).toContain(added);
    // signed out: refused on the next request
    expect((await post('/api/logout', undefined, bearer(token))).statusCode).toBe(200);
    expect((await me(token)).statusCode).toBe(401);
  });

  it('follows a change of the stores a user works in on the next request, without signing in again', async () => {
    // a store's sales report answers 200 in a covered store, 422 on its field in another
    const day = new Date().toISOString().slice(0, 10);
    const opens = async (token: string, store: number) =>
      (
        await ctx.app.inject({
          method: 'GET',
          url: `/api/reports/sales?from=${day}&to=${day}&store_id=${store}`,
          headers: bearer(token),
        })
      ).statusCode;
    const admin = await login(ctx.app, 'admin', ADMIN_PASSWORD);
    const user = await createUser(ctx.db, { roles: ['manager'] });
    const { token } = await login(ctx.app, user.name, user.password);
    const other = await createStore(ctx.db, 'COVER');
    expect(await opens(token, other)).toBe(422);
    expect(await opens(admin.token, other)).toBe(200);
    // what changes a user's stores touches the user: it versions the coverage remembered
    await ctx.db.insertInto('user_stores').values({ user_id: user.id, store_id: other }).execute();
    await ctx.db
      .updateTable('users')
      .set({ updated_at: new Date(Date.now() + 1000).toISOString() })
      .where('id', '=', user.id)
      .execute();
    expect(await opens(token, other)).toBe(200);
  });

  it('answers 401 "Unauthenticated." without a token, with an unknown one, or with an expired one', async () => {
    const none = await ctx.app.inject({ method: 'GET', url: '/api/me', headers: { 'x-localization': 'en' } });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ message: 'Unauthenticated.' });
    expect((await me('dpt_not-a-real-token')).statusCode).toBe(401);

    const { token } = await login(ctx.app, 'admin', ADMIN_PASSWORD);
    await ctx.db
      .updateTable('auth_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('kind', '=', 'access')
      .execute();
    expect((await me(token)).statusCode).toBe(401);
  });
});

describe('POST /api/refresh', () => {
  it('rotates the pair: the new access token works and the old refresh token cannot be used again', async () => {
    const first = await login(ctx.app, 'admin', ADMIN_PASSWORD);
    const res = await post('/api/refresh', { refresh_token: first.refresh_token });
    expect(res.statusCode).toBe(200);
    const second = res.json();
    expect(second).toMatchObject({ status: 'success', expires_in: SESSION_LIFETIME_SECONDS });
    expect(second.token).not.toBe(first.token);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await me(second.token)).statusCode).toBe(200);
  });

  it('answers the same client’s retry at once with a new pair: the first answer was lost on the way', async () => {
    const first = await login(ctx.app, 'admin', ADMIN_PASSWORD);
    const lost = (await post('/api/refresh', { refresh_token: first.refresh_token })).json();
    const retry = await post('/api/refresh', { refresh_token: first.refresh_token });
    expect(retry.statusCode).toBe(200);
    expect(retry.json().token).not.toBe(lost.token);
    expect((await me(retry.json().token)).statusCode).toBe(200);
  });

  it('treats a refresh token reused after the retry window as theft and revokes the whole sign-in', async () => {
    const first = await login(ctx.app, 'admin', ADMIN_PASSWORD);
    const second = (await post('/api/refresh', { refresh_token: first.refresh_token })).json();
    // the rotation happened two minutes ago
    await ctx.db
      .updateTable('auth_tokens')
      .set({ used_at: new Date(Date.now() - 120_000).toISOString() })
      .where('used_at', 'is not', null)
      .execute();

    const reuse = await post('/api/refresh', { refresh_token: first.refresh_token }, { 'x-localization': 'en' });
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json()).toEqual({ status: 'error', message: 'Your session has ended. Please sign in again.' });
    expect((await me(second.token)).statusCode).toBe(401);
    expect((await post('/api/refresh', { refresh_token: second.refresh_token })).statusCode).toBe(401);
  });

  it('revokes the whole sign-in when another client presents a used refresh token, even at once', async () => {
    const first = await login(ctx.app, 'admin', ADMIN_PASSWORD);
    const second = (await post('/api/refresh', { refresh_token: first.refresh_token })).json();
    const thief = await ctx.app.inject({
      method: 'POST',
      url: '/api/refresh',
      remoteAddress: '10.7.0.3',
      headers: { 'user-agent': 'curl/8.5' },
      payload: { refresh_token: first.refresh_token },
    });
    expect(thief.statusCode).toBe(401);
    expect((await me(second.token)).statusCode).toBe(401);
    expect((await post('/api/refresh', { refresh_token: second.refresh_token })).statusCode).toBe(401);
  });

  it('tolerates the same client’s retry for a few seconds only', async () => {
    const first = await login(ctx.app, 'admin', ADMIN_PASSWORD);
    const second = (await post('/api/refresh', { refresh_token: first.refresh_token })).json();
    // the rotation happened half a minute ago: no lost answer is retried that late
    await ctx.db
      .updateTable('auth_tokens')
      .set({ used_at: new Date(Date.now() - 30_000).toISOString() })
      .where('used_at', 'is not', null)
      .execute();
    expect((await post('/api/refresh', { refresh_token: first.refresh_token })).statusCode).toBe(401);
    expect((await me(second.token)).statusCode).toBe(401);
  });

  it('ends a sign-in at its absolute lifetime (30 days) however often it was refreshed', async () => {
    const first = await login(ctx.app, 'admin', ADMIN_PASSWORD);
    const old = new Date(Date.now() - 30 * 86_400_000 - 60_000).toISOString();
    // signed in 30 days and a minute ago, refreshed a moment ago
    await ctx.db
      .updateTable('auth_sessions')
      .set({ created_at: old })
      .where('id', 'in', (q) =>
        q.selectFrom('auth_tokens').select('session_id').where('kind', '=', 'access').orderBy('id', 'desc').limit(1),
      )
      .execute();
    expect((await me(first.token)).statusCode).toBe(401);
    expect((await post('/api/refresh', { refresh_token: first.refresh_token })).statusCode).toBe(401);
  });

  it('refuses an unknown refresh token and an empty body', async () => {
    expect((await post('/api/refresh', { refresh_token: 'dpt_nope' })).statusCode).toBe(401);
    expect((await post('/api/refresh', {})).statusCode).toBe(422);
  });
});

describe('POST /api/logout', () => {
  it('revokes the access and refresh tokens of that sign-in only', async () => {
    const a = await login(ctx.app, 'admin', ADMIN_PASSWORD);
    const b = await login(ctx.app, 'admin', ADMIN_PASSWORD);
    // the web app sends its JSON headers even without a body
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { ...bearer(a.token), 'content-type': 'application/json', 'x-localization': 'en' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'You have been signed out.' });
    expect((await me(a.token)).statusCode).toBe(401);
    expect((await post('/api/refresh', { refresh_token: a.refresh_token })).statusCode).toBe(401);
    expect((await me(b.token)).statusCode).toBe(200);
  });

  it('needs a signed-in user', async () => {
    expect((await post('/api/logout')).statusCode).toBe(401);
  });
});
