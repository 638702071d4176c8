import { DEFAULT_SHIFT_SETTINGS } from '@depot/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fieldOf, listAnswer, STORES } from '../../test/inventory.ts';
import { mockFetch, renderApp, signedIn } from '../../test/render.tsx';

const SHIFTS = ['list', 'view', 'create', 'update'].map((action) => `shifts.${action}`);
/** The largest dollar note the settings count: the first line of the dollars. */
const top = Math.max(...DEFAULT_SHIFT_SETTINGS.usd_denominations);

describe('opening a shift', { timeout: 30_000 }, () => {
  it('sends the till and the float counted, and shows a refusal on the fields it names', async () => {
    const { calls } = mockFetch({
      'GET shifts': () => ({ body: listAnswer([]) }),
      'GET shifts/settings': () => ({ body: { data: DEFAULT_SHIFT_SETTINGS } }),
      'GET stores': () => ({ body: listAnswer(STORES) }),
      'POST shifts': () => ({
        status: 422,
        body: {
          message: 'The given data was invalid.',
          errors: {
            till: ['This till already has an open shift.'],
            'float.usd.0.value': ['This note is not counted in the settings.'],
            'float.khr': ['Count the riel.'],
          },
        },
      }),
    });
    signedIn({ permissions: [...SHIFTS, 'stores.list'] });
    const { user } = renderApp('/en/shifts?open=1');
    const till = await screen.findByTestId('shift-till');
    await user.type(till, 'Till 1');
    const notes = await screen.findByTestId(`float-usd-${top}`);
    await user.clear(notes);
    await user.type(notes, '2');
    await user.click(screen.getByTestId('open-shift-submit'));
    await waitFor(() => expect(calls('POST shifts')).toHaveLength(1));
    const body = calls('POST shifts')[0].body as { till: string; float: { usd: { value: number; count: number }[] } };
    expect(body.till).toBe('Till 1');
    expect(body.float.usd[0]).toEqual({ value: top, count: 2 });
    expect(await within(fieldOf(till)).findByText('This till already has an open shift.')).toBeTruthy();
    expect(await within(fieldOf(notes)).findByText('This note is not counted in the settings.')).toBeTruthy();
    // a message for no field on screen: above the form
    expect(await screen.findByText('Count the riel.')).toBeTruthy();
    await user.type(till, 'b');
    await waitFor(() => expect(fieldOf(till).className).not.toContain('ant-form-item-has-error'));
  });
});
