import { translate } from '@depot/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, renderApp, signedIn } from '../../test/render.tsx';

describe('the scale barcode layouts', { timeout: 60_000 }, () => {
  it('adds a common layout, shows how its label reads, saves it, and places a refusal on its field', async () => {
    const refusal = translate('validation.scale_prefix', 'kh');
    let refuse = false;
    const { calls } = mockFetch({
      'GET scale/settings': () => ({ body: { data: { layouts: [] } } }),
      'PUT scale/settings': ({ body }) =>
        refuse
          ? { status: 422, body: { message: refusal, errors: { 'layouts.0.prefix': [refusal] } } }
          : { body: { message: 'Scale barcode layouts saved.', data: body } },
    });
    signedIn({ permissions: ['exchange_rates.view', 'settings.view', 'settings.update', 'products.list'] });
    const { user } = renderApp('/en/exchange-rates');
    const card = await screen.findByTestId('scale-settings');
    await user.click(within(card).getByText('Add a layout'));
    // 20, a 5-digit code 00042, 1.250 kg, its check digit
    expect((await screen.findByTestId('scale-sample-0')).textContent).toBe('20 00042 01250 2');
    await user.click(screen.getByTestId('scale-settings-save'));
    await waitFor(() => expect(calls('PUT scale/settings')).toHaveLength(1));
    expect(calls('PUT scale/settings')[0].body).toEqual({
      layouts: [{ prefix: '20', code_length: 5, value_length: 5, decimals: 3, kind: 'weight' }],
    });

    refuse = true;
    await user.click(screen.getByTestId('scale-settings-save'));
    await waitFor(() => expect(within(screen.getByTestId('scale-layout-0')).getByText(refusal)).toBeTruthy());
  });
});
