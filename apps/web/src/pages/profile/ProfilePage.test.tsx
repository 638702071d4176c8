import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, renderApp, signedIn } from '../../test/render.tsx';

const me = {
  id: 1,
  name: 'admin',
  full_name: 'Sok Dara',
  email: null,
  phone: null,
  status: 'active',
  position: 'Cashier',
  date_of_birth: null,
  join_date: '2024-01-15',
  profile_image: null,
  gender: null,
  nationality: null,
  address: null,
  bio: null,
  skills: null,
  emergency_contact_name: null,
  emergency_contact_relationship: null,
  emergency_contact_phone: null,
  emergency_contact_email: null,
  timezone: null,
  location: null,
  store: { id: 1, name: 'Main store', code: 'MAIN' },
  roles: [{ name: 'cashier', group: 'sales', label_en: 'Cashier', label_kh: 'អ្នកគិតលុយ' }],
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
};
const user = { permissions: ['dashboards.view', 'profiles.view', 'profiles.update'] };

describe('profile', { timeout: 60_000 }, () => {
  it('the user menu opens the profile', async () => {
    mockFetch({ 'GET profile': { body: { data: me } } });
    signedIn(user);
    const view = renderApp('/en/dashboards');
    await view.user.click(await screen.findByTestId('user-menu'));
    await view.user.click(await screen.findByTestId('open-profile'));
    await waitFor(() => expect(view.path()).toBe('/en/profiles'));
    expect((await screen.findByTestId('profile-title')).textContent).toBe('Sok Dara');
    expect(screen.getByText('Cashier', { selector: '.ant-tag' })).toBeTruthy();
  });

  it('saves the profile extras', async () => {
    const { calls } = mockFetch({
      'GET profile': { body: { data: me } },
      'PUT profile': ({ body }) => ({ body: { message: 'Profile saved.', data: { ...me, ...(body as object) } } }),
    });
    signedIn(user);
    const view = renderApp('/en/profiles');
    fireEvent.change(await screen.findByTestId('profile-nationality'), { target: { value: 'Cambodian' } });
    fireEvent.change(screen.getByTestId('profile-emergency_contact_name'), { target: { value: 'Sok' } });
    await view.user.click(screen.getByTestId('profile-save'));
    await waitFor(() => expect(calls('PUT profile')).toHaveLength(1));
    expect(calls('PUT profile')[0].body).toMatchObject({
      full_name: 'Sok Dara',
      nationality: 'Cambodian',
      emergency_contact_name: 'Sok',
      email: null,
    });
    expect(calls('PUT profile')[0].body).not.toHaveProperty('roles');
  });

  it('checks the new password twice in the browser, then shows the server’s refusal on its field', async () => {
    const { calls } = mockFetch({
      'GET profile': { body: { data: me } },
      'POST me/password': {
        status: 422,
        body: { message: 'Invalid.', errors: { current_password: ['The current password is not correct.'] } },
      },
    });
    signedIn(user);
    const view = renderApp('/en/profiles');
    fireEvent.change(await screen.findByTestId('password-current_password'), { target: { value: 'old-password' } });
    fireEvent.change(screen.getByTestId('password-password'), { target: { value: 'new-password-1' } });
    fireEvent.change(screen.getByTestId('password-password_confirmation'), { target: { value: 'other-password' } });
    await view.user.click(screen.getByTestId('password-save'));
    expect(await screen.findByText('The password confirmation does not match.')).toBeTruthy();
    expect(calls('POST me/password')).toHaveLength(0);

    fireEvent.change(screen.getByTestId('password-password_confirmation'), { target: { value: 'new-password-1' } });
    await view.user.click(screen.getByTestId('password-save'));
    expect(await screen.findByText('The current password is not correct.')).toBeTruthy();
  });

  it('says the profile failed to load, in Khmer', async () => {
    mockFetch({ 'GET profile': { status: 500, body: { message: 'មានបញ្ហា', request_id: 'r' } } });
    signedIn(user);
    renderApp('/profiles');
    expect(await screen.findByText('បរាជ័យក្នុងការផ្ទុកព័ត៌មានប្រវត្តិរូប')).toBeTruthy();
  });
});
