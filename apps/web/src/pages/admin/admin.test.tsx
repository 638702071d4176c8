import type { Role, User } from '@depot/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { session } from '../../lib/session.ts';
import { listAnswer } from '../../test/inventory.ts';
import { mockFetch, renderApp, signedIn } from '../../test/render.tsx';

const at = '2026-03-01T02:30:00.000Z';
const cashierRole: Role = {
  id: 3,
  name: 'cashier',
  group: 'sales',
  label_en: 'Cashier',
  label_kh: 'អ្នកគិតលុយ',
  is_system: true,
  landing: null,
  permissions: ['orders.list', 'customers.list'],
  users_count: 1,
  member_ids: [7],
  created_at: at,
  updated_at: at,
  deleted_at: null,
};
const sophea: User = {
  id: 7,
  name: 'sophea',
  full_name: 'Chan Sophea',
  email: null,
  phone: null,
  status: 'active',
  date_of_birth: null,
  join_date: null,
  position: 'Cashier',
  profile_image: null,
  store_id: 2,
  store_name: 'Store 2',
  store_ids: [2],
  stores: [{ id: 2, name: 'Store 2', code: 'ST2' }],
  role_ids: [3],
  roles: [{ id: 3, name: 'cashier', label_en: 'Cashier', label_kh: 'អ្នកគិតលុយ' }],
  must_change_password: false,
  last_login_at: at,
  last_login_ip: '10.0.0.7',
  abilities: { update: true, delete: true, disable: true, reset_password: true, assign: true, roles: true },
  created_at: at,
  updated_at: at,
  deleted_at: null,
};
const dara: User = { ...sophea, id: 8, name: 'dara', full_name: 'Sok Dara', role_ids: [], roles: [] };

const admin = [
  'roles.list',
  'roles.view',
  'roles.update',
  'roles.assign',
  'users.list',
  'users.update',
  'dashboards.view',
];

describe('roles screen', () => {
  it('ticks a permission in the matrix and saves it for the role', async () => {
    signedIn({ permissions: admin });
    const { seen } = mockFetch({
      'GET roles': { body: { data: [cashierRole] } },
      'GET permissions': {
        body: {
          data: {
            actions: ['list', 'view', 'create'],
            resources: [
              { resource: 'orders', actions: ['list', 'view', 'create'] },
              { resource: 'customers', actions: ['list', 'view'] },
            ],
          },
        },
      },
      'GET users': { body: listAnswer([sophea, dara]) },
      'PUT roles/3': ({ body }) => ({
        body: { message: 'Role updated.', data: { ...cashierRole, ...(body as object) } },
      }),
    });
    const { user } = renderApp('/en/roles');
    const box = await screen.findByRole('checkbox', { name: 'orders.create' });
    expect((box as HTMLInputElement).checked).toBe(false);
    expect((screen.getByRole('checkbox', { name: 'orders.list' }) as HTMLInputElement).checked).toBe(true);
    await user.click(box);
    await user.click(screen.getByTestId('role-save'));
    await waitFor(() => expect(seen.some((r) => r.method === 'PUT' && r.path === 'roles/3')).toBe(true));
    const sent = seen.find((r) => r.path === 'roles/3')?.body as { permissions: string[] };
    expect(sent.permissions.sort()).toEqual(['customers.list', 'orders.create', 'orders.list']);
    // the members list: Sophea in, Dara out
    const members = screen.getByTestId('members');
    expect(within(members).getByText('Chan Sophea (sophea)')).toBeTruthy();
    expect(within(members).getByText('Sok Dara (dara)')).toBeTruthy();
    // every checkbox of the lists is named, for a screen reader and for axe
    await waitFor(() => expect(within(members).getByRole('checkbox', { name: 'Chan Sophea (sophea)' })).toBeTruthy());
    expect(within(members).getByRole('checkbox', { name: 'Sok Dara (dara)' })).toBeTruthy();
    expect(within(members).getAllByRole('checkbox', { name: /^Select everyone in/ })).toHaveLength(2);
  });
});

describe('users list', () => {
  it('shows roles, stores and the last sign-in with the actions the server allows', async () => {
    signedIn({ permissions: admin });
    mockFetch({
      'GET users': {
        body: listAnswer([sophea, { ...dara, abilities: { ...sophea.abilities!, disable: false, delete: false } }]),
      },
    });
    renderApp('/en/users');
    expect(await screen.findByText('Chan Sophea')).toBeTruthy();
    expect(screen.getAllByText('Cashier').length).toBeGreaterThan(0);
    expect(screen.getAllByText(/10\.0\.0\.7/).length).toBe(2);
    expect(screen.getByTestId('status-7')).toBeTruthy();
    // the last administrator: no Disable
    expect(screen.queryByTestId('status-8')).toBeNull();
  });
});

describe('what the server says the reader may do to roles', () => {
  const matrix = {
    data: {
      actions: ['list', 'view', 'create', 'update'],
      resources: [
        { resource: 'orders', actions: ['list', 'view', 'create'] },
        { resource: 'users', actions: ['list', 'update'] },
      ],
      grantable: ['orders.list', 'orders.view'],
    },
  };

  it('a role holding permissions the reader lacks: no Save, no Reset, members unchanged', async () => {
    signedIn({ permissions: admin });
    mockFetch({
      'GET roles': {
        body: { data: [{ ...cashierRole, abilities: { update: false, delete: false, reset: false, assign: false } }] },
      },
      'GET permissions': { body: matrix },
      'GET users': { body: listAnswer([sophea, dara]) },
    });
    renderApp('/en/roles');
    await screen.findByRole('checkbox', { name: 'orders.create' });
    expect(screen.queryByTestId('role-save')).toBeNull();
    expect(screen.queryByTestId('role-reset')).toBeNull();
    expect(screen.queryByTestId('members-save')).toBeNull();
  });

  it('only the permissions the reader holds can be ticked; users the reader may not re-role are greyed', async () => {
    signedIn({ permissions: admin });
    mockFetch({
      'GET roles': {
        body: { data: [{ ...cashierRole, abilities: { update: true, delete: false, reset: true, assign: true } }] },
      },
      'GET permissions': { body: matrix },
      'GET users': {
        body: listAnswer([sophea, { ...dara, abilities: { ...sophea.abilities!, roles: false } }]),
      },
    });
    renderApp('/en/roles');
    const create = (await screen.findByRole('checkbox', { name: 'orders.create' })) as HTMLInputElement;
    expect(create.disabled).toBe(true);
    expect((screen.getByRole('checkbox', { name: 'orders.view' }) as HTMLInputElement).disabled).toBe(false);
    expect(screen.getByTestId('role-save')).toBeTruthy();
    const members = screen.getByTestId('members');
    const daraItem = within(members).getByText('Sok Dara (dara)').closest('li');
    expect(daraItem?.className).toContain('disabled');
    const sopheaItem = within(members).getByText('Chan Sophea (sophea)').closest('li');
    expect(sopheaItem?.className).not.toContain('disabled');
  });
});

describe('a session the server holds to a new password', () => {
  it('is sent to /password when any request answers 403 password_change_required', async () => {
    signedIn({ permissions: admin });
    mockFetch({
      'GET users': {
        status: 403,
        body: { message: 'Choose a new password before you go on.', code: 'password_change_required' },
      },
    });
    renderApp('/en/users');
    await waitFor(() => expect(session.get().mustChangePassword).toBe(true));
  });
});
