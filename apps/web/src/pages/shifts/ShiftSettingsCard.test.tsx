import { DEFAULT_SHIFT_SETTINGS, translate } from '@depot/contracts';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, renderApp, signedIn } from '../../test/render.tsx';

const permissions = ['exchange_rates.view', 'settings.view', 'settings.update', 'shifts.list'];

/** The message under a field: its antd Form.Item's. */
function messageOf(testId: string): string {
  const item = screen.getByTestId(testId).closest('.ant-form-item');
  // a message taken away may linger while it fades out: only a field marked in error has one
  if (!item?.classList.contains('ant-form-item-has-error')) return '';
  return item.querySelector('.ant-form-item-explain-error')?.textContent ?? '';
}

describe('shift settings', { timeout: 60_000 }, () => {
  it('sends the thresholds in minor units and shows a refusal beside its field, in Khmer', async () => {
    const refusal = translate('validation.number_max', 'kh', { max: 100_000_000 });
    const { calls } = mockFetch({
      'GET shifts/settings': { body: { data: DEFAULT_SHIFT_SETTINGS } },
      'PUT shifts/settings': { status: 422, body: { message: refusal, errors: { threshold_khr: [refusal] } } },
    });
    signedIn({ permissions });
    const { user } = renderApp('/exchange-rates');
    const usd = await screen.findByTestId('shift-threshold-usd');
    await user.clear(usd);
    await user.type(usd, '7.50');
    await user.click(screen.getByTestId('shift-settings-save'));
    await waitFor(() => expect(calls('PUT shifts/settings')).toHaveLength(1));
    expect(calls('PUT shifts/settings')[0].body).toEqual({ ...DEFAULT_SHIFT_SETTINGS, threshold_usd_cents: 750 });
    await waitFor(() => expect(messageOf('shift-threshold-khr')).toBe(refusal));
    expect(messageOf('shift-threshold-usd')).toBe('');
  });

  it('checks an empty threshold in the browser before sending', async () => {
    const { calls } = mockFetch({ 'GET shifts/settings': { body: { data: DEFAULT_SHIFT_SETTINGS } } });
    signedIn({ permissions });
    const { user } = renderApp('/en/exchange-rates');
    await user.clear(await screen.findByTestId('shift-threshold-usd'));
    await user.click(screen.getByTestId('shift-settings-save'));
    await waitFor(() => expect(messageOf('shift-threshold-usd')).not.toBe(''));
    expect(calls('PUT shifts/settings')).toHaveLength(0);
  });
});
