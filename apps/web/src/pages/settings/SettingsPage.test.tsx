import { DEFAULT_SETTINGS } from '@depot/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, renderApp, signedIn } from '../../test/render.tsx';

const admin = { permissions: ['dashboards.view', 'settings.view', 'settings.update'] };

describe('system settings', { timeout: 60_000 }, () => {
  it('saves the titles and the header follows at once, with the Khmer title on Khmer pages', async () => {
    let stored = { ...DEFAULT_SETTINGS };
    const { calls } = mockFetch({
      'GET settings/public': () => ({ body: { data: stored } }),
      'GET settings': () => ({ body: { data: stored } }),
      'PUT settings': ({ body }) => {
        stored = { ...stored, ...(body as object) };
        return { body: { message: 'System settings saved.', data: stored } };
      },
    });
    signedIn(admin);
    const { user } = renderApp('/en/settings');
    const english = await screen.findByTestId('system_title');
    expect(screen.getAllByTestId('app-title')[0].textContent).toBe('Sales Management System');
    fireEvent.change(english, { target: { value: 'Corner Depot' } });
    fireEvent.change(screen.getByTestId('system_title_kh'), { target: { value: 'ឃ្លាំងកែងផ្លូវ' } });
    fireEvent.change(screen.getByTestId('vat_number'), { target: { value: 'K001-901234567' } });
    // the preview follows the form before it is saved
    await waitFor(() => expect(screen.getByTestId('preview-light').textContent).toContain('Corner Depot'));
    await user.click(screen.getByTestId('settings-save'));

    await waitFor(() => expect(screen.getAllByTestId('app-title')[0].textContent).toBe('Corner Depot'));
    expect(document.title).toBe('Corner Depot');
    const [put] = calls('PUT settings');
    expect(put.body).toMatchObject({
      system_title: 'Corner Depot',
      system_title_kh: 'ឃ្លាំងកែងផ្លូវ',
      vat_number: 'K001-901234567',
      primary_color: '#15803d',
    });
    expect(put.body).not.toHaveProperty('logo_url');
  });

  it('shows the Khmer title on Khmer pages', async () => {
    mockFetch({ 'GET settings': { body: { data: DEFAULT_SETTINGS } } });
    signedIn(admin);
    renderApp('/settings');
    await screen.findByTestId('settings-form');
    expect(screen.getAllByTestId('app-title')[0].textContent).toBe('ប្រព័ន្ធគ្រប់គ្រងការលក់');
  });

  it('warns when a chosen colour reads below 4.5:1, and not for the default colours', async () => {
    mockFetch({ 'GET settings': { body: { data: { ...DEFAULT_SETTINGS, primary_color: '#facc15' } } } });
    signedIn(admin);
    renderApp('/en/settings');
    const warning = await screen.findByTestId('contrast-primary_color');
    expect(warning.textContent).toMatch(/^Primary colour reads at 1\.\d\d:1 .*below the 4\.5:1 people need/);
    expect(screen.queryByTestId('contrast-secondary_color')).toBeNull();
    expect(screen.queryByTestId('contrast-background_color')).toBeNull();
  });

  it('puts a refused value on its field and keeps the rest', async () => {
    mockFetch({
      'GET settings': { body: { data: DEFAULT_SETTINGS } },
      'PUT settings': {
        status: 422,
        body: { message: 'The given data was invalid.', errors: { store_phone: ['Too long for a phone.'] } },
      },
    });
    signedIn(admin);
    const { user } = renderApp('/en/settings');
    fireEvent.change(await screen.findByTestId('store_phone'), { target: { value: '012' } });
    await user.click(screen.getByTestId('settings-save'));
    expect(await screen.findByText('Too long for a phone.')).toBeTruthy();
    expect(screen.getAllByTestId('app-title')[0].textContent).toBe('Sales Management System');
  });

  it('says the settings failed to load and tries again', async () => {
    let failing = true;
    mockFetch({
      'GET settings': () =>
        failing ? { status: 500, body: { message: 'Oops', request_id: 'r' } } : { body: { data: DEFAULT_SETTINGS } },
    });
    signedIn(admin);
    const { user } = renderApp('/en/settings');
    expect(await screen.findByText('Failed to load system settings')).toBeTruthy();
    failing = false;
    await user.click(screen.getByTestId('retry'));
    expect(await screen.findByTestId('settings-form')).toBeTruthy();
  });

  it('a failed save says so in the server’s words', async () => {
    mockFetch({
      'GET settings': { body: { data: DEFAULT_SETTINGS } },
      'PUT settings': { status: 500, body: { message: 'An error occurred.', request_id: 'r' } },
    });
    signedIn(admin);
    renderApp('/en/settings');
    fireEvent.click(await screen.findByTestId('settings-save'));
    expect(await screen.findByText('Failed to update settings: An error occurred.')).toBeTruthy();
  });
});
