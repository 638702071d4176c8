import { DEFAULT_ROLES, PERMISSIONS, type Permission } from '@depot/contracts';
import type { InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, bearer, createStore, createUser, type TestContext, useTestApp } from '../test/harness.ts';

/**
 * Authority never grows by itself: whatever a user may do to users and roles, no
 * sequence of those calls ends with them — or anyone whose password they know — holding a
 * permission or a store they did not hold before. The rules: policies/users.ts, policies/roles.ts.
 */

const KNOWN = 'Tonle-Sap-river-2031';
const LATER = 'Mekong-delta-lantern-77';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (ctx: TestContext, token: string, method: Method, url: string, payload?: object) =>
  ctx.app.inject({
    method: method as InjectOptions['method'],
    url,
    payload,
    headers: { ...bearer(token), 'x-localization': 'en' },
  });

async function signIn(ctx: TestContext, name: string, password: string) {
  const res = await ctx.app.inject({ method: 'POST', url: '/api/login', payload: { name, password } });
  return res.statusCode === 200 ? (res.json() as { token: string; must_change_password?: boolean }) : null;
}

describe('the reproduced escalation: an HR clerk resets the administrator’s password', () => {
  const ctx = useTestApp();
  let admin: string;
  beforeAll(async () => {
    admin = (await signIn(ctx, 'admin', ADMIN_PASSWORD))?.token as string;
  });

  it('is refused (403), and the administrator’s password still works', async () => {
    // the administrator makes the role "HR clerk" and gives it to a user
    const role = await call(ctx, admin, 'POST', '/api/roles', {
      name: 'hr_clerk',
      group: 'staff',
      label_en: 'HR clerk',
      label_kh: 'បុគ្គលិកធនធានមនុស្ស',
      permissions: ['users.update', 'users.list', 'users.view'],
    });
    expect(role.statusCode, role.body).toBe(201);
    const clerk = await createUser(ctx.db, { roles: ['hr_clerk'] });
    const token = (await signIn(ctx, clerk.name, clerk.password))?.token as string;
    const reset = await call(ctx, token, 'POST', '/api/users/1/password', {
      password: KNOWN,
      password_confirmation: KNOWN,
    });
    expect(reset.statusCode, reset.body).toBe(403);
    expect(reset.json().message).toBe('Only an administrator can change an administrator.');
    expect(await signIn(ctx, 'admin', KNOWN)).toBeNull();
    expect(await signIn(ctx, 'admin', ADMIN_PASSWORD)).not.toBeNull();
    // the administrator's record offers the clerk nothing
    const shown = await call(ctx, token, 'GET', '/api/users/1');
    expect(shown.json().data.abilities).toEqual({
      update: false,
      delete: false,
      disable: false,
      reset_password: false,
      assign: false,
      roles: false,
    });
    // a cashier of their store holds permissions the clerk does not: not theirs to reset either
    const cashier = await createUser(ctx.db, { roles: ['cashier'] });
    const other = await call(ctx, token, 'POST', `/api/users/${cashier.id}/password`, {
      password: KNOWN,
      password_confirmation: KNOWN,
    });
    expect(other.statusCode).toBe(403);
    expect(other.json().message).toBe(
      'You can only manage users who hold no permission you do not hold yourself and who work only in your stores.',
    );
    // a user holding less than the clerk, in the clerk's store: theirs
    const junior = await createUser(ctx.db, { permissions: ['users.list'] });
    const ok = await call(ctx, token, 'POST', `/api/users/${junior.id}/password`, {
      password: KNOWN,
      password_confirmation: KNOWN,
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('a role is created, edited, given or taken only by one who holds every permission in it', async () => {
    const editor = await createUser(ctx.db, {
      permissions: [
        'roles.create',
        'roles.update',
        'roles.list',
        'roles.view',
        'roles.assign',
        'users.list',
        'permissions.list',
      ],
    });
    const token = (await signIn(ctx, editor.name, editor.password))?.token as string;
    const stronger = await call(ctx, token, 'POST', '/api/roles', {
      name: 'stronger',
      group: 'x1',
      label_en: 'Stronger',
      label_kh: 'ខ្លាំងជាង',
      permissions: ['roles.list', 'users.update'],
    });
    expect(stronger.statusCode).toBe(422);
    expect(stronger.json().errors.permissions).toEqual(['You can only give permissions you hold yourself.']);
    const roles = (await call(ctx, token, 'GET', '/api/roles')).json().data as {
      id: number;
      name: string;
      permissions: string[];
      abilities: Record<string, boolean>;
    }[];
    const cashier = roles.find((r) => r.name === 'cashier');
    expect(cashier?.abilities).toEqual({ update: false, delete: false, reset: false, assign: false });
    // editing the cashier role (to give it the editor's permissions) is refused: the editor lacks the cashier's
    const edit = await call(ctx, token, 'PUT', `/api/roles/${cashier?.id}`, {
      name: 'cashier',
      group: 'sales',
      label_en: 'Cashier',
      label_kh: 'អ្នកគិតលុយ',
      permissions: [...(cashier?.permissions ?? []), 'roles.update'],
    });
    expect(edit.statusCode).toBe(403);
    expect(edit.json().message).toBe(
      'You can only change, give or take a role whose every permission you hold yourself.',
    );
    const members = await call(ctx, token, 'PUT', `/api/roles/${cashier?.id}/members`, { user_ids: [editor.id] });
    expect(members.statusCode).toBe(403);
    // a role within the editor's own: made, and its landing and labels edited
    const mine = await call(ctx, token, 'POST', '/api/roles', {
      name: 'lister',
      group: 'x1',
      label_en: 'Lister',
      label_kh: 'អ្នកមើល',
      permissions: ['roles.list', 'users.list'],
    });
    expect(mine.statusCode, mine.body).toBe(201);
    expect(mine.json().data.abilities).toEqual({ update: true, delete: false, reset: false, assign: true });
    // the matrix tells the editor which permissions it may give
    const matrix = (await call(ctx, token, 'GET', '/api/permissions')).json().data;
    expect([...matrix.grantable].sort()).toEqual(
      [
        'roles.create',
        'roles.update',
        'roles.list',
        'roles.view',
        'roles.assign',
        'users.list',
        'permissions.list',
      ].sort(),
    );
  });
});

/** The actors of the walk: every default role and some custom ones, each working in store 1. */
const ACTORS: { name: string; roles?: string[]; permissions?: Permission[] }[] = [
  ...DEFAULT_ROLES.map((r) => ({ name: r.name, roles: [r.name] })),
  { name: 'HR clerk', permissions: ['users.update', 'users.list', 'users.view'] },
  {
    name: 'role editor',
    permissions: [
      'roles.create',
      'roles.update',
      'roles.list',
      'roles.view',
      'roles.assign',
      'users.list',
      'users.view',
    ],
  },
  { name: 'user creator', permissions: ['users.create', 'users.list', 'users.view', 'roles.assign', 'roles.list'] },
  {
    name: 'coverage clerk',
    permissions: ['coverage.assign', 'coverage.view', 'users.list', 'users.view', 'users.update'],
  },
  {
    name: 'store HR manager',
    permissions: [
      ...(DEFAULT_ROLES.find((r) => r.name === 'manager')?.permissions ?? []),
      'users.create',
      'users.update',
      'users.delete',
      'roles.assign',
      'roles.update',
      'coverage.assign',
      'coverage.view',
    ],
  },
];

describe('no escalation: no sequence of allowed calls yields a permission or a store the actor lacked', () => {
  for (const actor of ACTORS) {
    describe(actor.name, () => {
      const ctx = useTestApp();

      it('walks every write on users and roles, as the actor and as everyone they can then sign in as', {
        timeout: 120_000,
      }, async () => {
        const home = (await ctx.db.selectFrom('stores').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
        const away = await createStore(ctx.db, 'AWAY');
        const me = await createUser(ctx.db, { roles: actor.roles, permissions: actor.permissions, store: home });
        // people in the depot: the administrator (user 1), managers of either store, a cashier, a newcomer
        await createUser(ctx.db, { roles: ['manager'], store: away });
        await createUser(ctx.db, { roles: ['manager'], store: home });
        await createUser(ctx.db, { roles: ['cashier'], store: home });
        await createUser(ctx.db, { roles: [], store: home });

        const first = await signIn(ctx, me.name, me.password);
        const before = (await call(ctx, first?.token as string, 'GET', '/api/me')).json().data as {
          permissions: string[];
          coverage: { all: boolean; store_ids: number[] };
        };
        const held = new Set(before.permissions);

        // the accounts the attacker can sign in as, with the password they know
        const known = new Map<number, { name: string; password: string }>([
          [me.id, { name: me.name, password: me.password }],
        ]);
        const queue = [me.id];
        const walked = new Set<number>();
        let serial = 0;

        const tokenOf = async (id: number): Promise<string | null> => {
          const account = known.get(id);
          if (!account) return null;
          const session = await signIn(ctx, account.name, account.password);
          if (!session) return null;
          if (!session.must_change_password) return session.token;
          // a temporary password: the attacker chooses one of their own first
          const password = account.password === KNOWN ? LATER : KNOWN;
          const changed = await call(ctx, session.token, 'POST', '/api/me/password', {
            current_password: account.password,
            password,
            password_confirmation: password,
          });
          expect(changed.statusCode, changed.body).toBe(200);
          known.set(id, { ...account, password });
          return session.token;
        };
        const learn = (id: number, name: string, password: string) => {
          if (!known.has(id)) queue.push(id);
          known.set(id, { name, password });
        };

        while (queue.length && walked.size < 6) {
          const id = queue.shift() as number;
          if (walked.has(id)) continue;
          walked.add(id);
          const token = await tokenOf(id);
          if (!token) continue;
          const as = (method: Method, url: string, payload?: object) => call(ctx, token, method, url, payload);

          const everything = [...PERMISSIONS];
          const stores = (await ctx.db.selectFrom('stores').select('id').execute()).map((s) => s.id);
          // a role of every permission, made and taken
          serial += 1;
          await as('POST', '/api/roles', {
            name: `evil_${serial}`,
            group: 'evil',
            label_en: `Evil ${serial}`,
            label_kh: `អាក្រក់ ${serial}`,
            permissions: everything,
          });
          const roles = await ctx.db.selectFrom('roles').selectAll().where('deleted_at', 'is', null).execute();
          const roleIds = roles.map((r) => r.id);
          for (const role of roles) {
            const body = {
              name: role.name,
              group: role.group_name,
              label_en: role.label_en,
              label_kh: role.label_kh,
            };
            // every role made all-powerful, or given what the attacker holds, or reset to its defaults
            await as('PUT', `/api/roles/${role.id}`, { ...body, permissions: everything });
            await as('PUT', `/api/roles/${role.id}`, { ...body, permissions: [...held] });
            await as('POST', `/api/roles/${role.id}/reset`);
            const members = (
              await ctx.db.selectFrom('user_roles').select('user_id').where('role_id', '=', role.id).execute()
            ).map((m) => m.user_id);
            await as('PUT', `/api/roles/${role.id}/members`, { user_ids: [...new Set([...members, ...known.keys()])] });
          }
          // an accomplice with every role and store, and a plain one raised afterwards
          for (const [index, roleIdsGiven] of [roleIds, []].entries()) {
            const name = `accomplice_${serial}_${index}`;
            const made = await as('POST', '/api/users', {
              name,
              password: KNOWN,
              password_confirmation: KNOWN,
              store_id: home,
              store_ids: index === 0 ? stores : [home],
              role_ids: roleIdsGiven,
            });
            if (made.statusCode === 201) learn(made.json().data.id, name, KNOWN);
          }
          // every user: raised, moved to every store, given a password the attacker knows
          const users = await ctx.db.selectFrom('users').selectAll().where('deleted_at', 'is', null).execute();
          for (const user of users) {
            const body = {
              name: user.name,
              full_name: user.full_name,
              status: 'active',
              store_id: user.store_id,
              store_ids: (
                await ctx.db.selectFrom('user_stores').select('store_id').where('user_id', '=', user.id).execute()
              ).map((s) => s.store_id),
              role_ids: (
                await ctx.db.selectFrom('user_roles').select('role_id').where('user_id', '=', user.id).execute()
              ).map((r) => r.role_id),
            };
            await as('PUT', `/api/users/${user.id}`, { ...body, role_ids: roleIds });
            await as('PUT', `/api/users/${user.id}`, { ...body, store_ids: stores });
            await as('PUT', `/api/users/${user.id}/coverage`, {
              store_ids: stores,
              operational_district_ids: [],
              health_facility_ids: [],
            });
            // their own password they know already (and a new one would end this session)
            if (user.id === id) continue;
            const edited = await as('PUT', `/api/users/${user.id}`, {
              ...body,
              password: KNOWN,
              password_confirmation: KNOWN,
            });
            if (edited.statusCode === 200) learn(user.id, user.name, KNOWN);
            const reset = await as('POST', `/api/users/${user.id}/password`, {
              password: KNOWN,
              password_confirmation: KNOWN,
            });
            if (reset.statusCode === 200) learn(user.id, user.name, KNOWN);
          }
        }

        // everyone the attacker can now be holds nothing and works nowhere the attacker did not
        for (const [id, account] of known) {
          const token = await tokenOf(id);
          if (!token) continue;
          const now = (await call(ctx, token, 'GET', '/api/me')).json().data as typeof before;
          const label = `${actor.name} as ${account.name}`;
          expect(
            now.permissions.filter((p) => !held.has(p)),
            label,
          ).toEqual([]);
          if (!before.coverage.all) {
            expect(now.coverage.all, label).toBe(false);
            expect(
              now.coverage.store_ids.filter((s) => !before.coverage.store_ids.includes(s)),
              label,
            ).toEqual([]);
          }
        }
        if (!held.has('all_stores.view'))
          expect(known.has(1), `${actor.name} knows the administrator's password`).toBe(false);
        // the walk did reach accounts where the rules allow it: it is not a walk of refusals only
        if (actor.name === 'administrator' || actor.name === 'store HR manager') {
          expect(known.size, actor.name).toBeGreaterThan(3);
        }
      });
    });
  }
});
