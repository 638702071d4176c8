import { DEFAULT_SETTINGS } from '@depot/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { choose } from '../../test/inventory.ts';
import { mockFetch, renderApp, signedIn } from '../../test/render.tsx';

describe('label sheets in the settings', { timeout: 60_000 }, () => {
  it('shows the sheets in use and saves another', async () => {
    const { calls } = mockFetch({
      'GET settings': () => ({ body: { data: DEFAULT_SETTINGS } }),
      'GET labels/settings': () => ({ body: { data: { barcode_sheet: '3x8', tag_sheet: '2x5' } } }),
      'PUT labels/settings': ({ body }) => ({ body: { message: 'Label sheets saved.', data: body } }),
    });
    signedIn({ permissions: ['dashboards.view', 'settings.view', 'settings.update', 'products.generate'] });
    const { user } = renderApp('/en/settings');
    const card = await screen.findByTestId('label-settings');
    expect(card.textContent).toContain('3 × 8 · 24 a sheet · 70 × 37 mm');
    expect(card.textContent).toContain('2 × 5 · 10 a sheet · 105 × 57 mm');
    await choose(user, within(card).getByLabelText('Barcode labels'), '4 × 10 · 40 a sheet · 48.5 × 25.4 mm');
    await user.click(within(card).getByTestId('label-settings-save'));
    expect(await screen.findByText('Label sheets saved.')).toBeTruthy();
    await waitFor(() =>
      expect(calls('PUT labels/settings')[0]?.body).toEqual({ barcode_sheet: '4x10', tag_sheet: '2x5' }),
    );
  });
});
