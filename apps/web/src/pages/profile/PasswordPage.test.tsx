import { translate } from '@depot/contracts';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { session } from '../../lib/session.ts';
import { mockFetch, renderApp, signedIn } from '../../test/render.tsx';

/** The field's message under it: antd's Form.Item that holds the input. */
function messageOf(testId: string): string {
  const item = screen.getByTestId(testId).closest('.ant-form-item');
  // a message taken away may linger while it fades out: only a field marked in error has one
  if (!item?.classList.contains('ant-form-item-has-error')) return '';
  return item.querySelector('.ant-form-item-explain-error')?.textContent ?? '';
}

describe('a password reset by an administrator', { timeout: 60_000 }, () => {
  it('sends the user to choose a new password before any other screen, then on', async () => {
    signedIn({ permissions: ['dashboards.view'], must_change_password: true });
    const { seen } = mockFetch({ 'POST me/password': { body: { message: 'Your password has been changed.' } } });
    const { user, path } = renderApp('/en/dashboards');
    await screen.findByTestId('password-save');
    expect(path()).toBe('/en/password');
    await user.type(screen.getByTestId('password-current_password'), 'temporary-1');
    await user.type(screen.getByTestId('password-password'), 'my-own-pass-1');
    await user.type(screen.getByTestId('password-password_confirmation'), 'my-own-pass-2');
    await user.click(screen.getByTestId('password-save'));
    expect(await screen.findByText('The password confirmation does not match.')).toBeTruthy();
    expect(seen.some((r) => r.path === 'me/password')).toBe(false);
    await user.clear(screen.getByTestId('password-password_confirmation'));
    await user.type(screen.getByTestId('password-password_confirmation'), 'my-own-pass-1');
    await user.click(screen.getByTestId('password-save'));
    await waitFor(() => expect(path()).toBe('/en/dashboards'));
    expect(seen.find((r) => r.path === 'me/password')?.body).toMatchObject({ password: 'my-own-pass-1' });
    expect(session.get().mustChangePassword).toBe(false);
  });

  it('a cashier goes on to the till', async () => {
    signedIn({ permissions: ['orders.create'], must_change_password: true });
    mockFetch({ 'POST me/password': { body: { message: 'Your password has been changed.' } } });
    const { user, path } = renderApp('/en/pos');
    await screen.findByTestId('password-save');
    await user.type(screen.getByTestId('password-current_password'), 'temporary-1');
    await user.type(screen.getByTestId('password-password'), 'my-own-pass-1');
    await user.type(screen.getByTestId('password-password_confirmation'), 'my-own-pass-1');
    await user.click(screen.getByTestId('password-save'));
    await waitFor(() => expect(path()).toBe('/en/pos'));
  });

  it('shows the server’s verdict on a guessable password beside the field, in Khmer, and stays', async () => {
    signedIn({ permissions: ['dashboards.view'], must_change_password: true });
    const weak = translate('validation.password_weak', 'kh');
    mockFetch({
      'POST me/password': {
        status: 422,
        body: { message: weak, errors: { password: [weak] } },
      },
    });
    const { user, path } = renderApp('/dashboards');
    await screen.findByTestId('password-save');
    expect(path()).toBe('/password');
    await user.type(screen.getByTestId('password-current_password'), 'temporary-1');
    await user.type(screen.getByTestId('password-password'), 'password123');
    await user.type(screen.getByTestId('password-password_confirmation'), 'password123');
    await user.click(screen.getByTestId('password-save'));
    await waitFor(() => expect(messageOf('password-password')).toBe(weak));
    expect(messageOf('password-current_password')).toBe('');
    expect(path()).toBe('/password');
    expect(session.get().mustChangePassword).toBe(true);
  });
});
