import { DEFAULT_SHIFT_SETTINGS, type ShiftDetail } from '@depot/contracts';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, renderApp, signedIn } from '../../test/render.tsx';
import { OPEN_SHIFT, SELLING, tillLookups } from '../../test/sales.ts';

function till(current: ShiftDetail | null, require_shift: boolean) {
  mockFetch({
    ...tillLookups(),
    'GET shifts/current': () => ({ body: { data: current } }),
    'GET shifts/settings': () => ({ body: { data: { ...DEFAULT_SHIFT_SETTINGS, require_shift } } }),
  });
  signedIn({ permissions: [...SELLING, 'shifts.list', 'shifts.create', 'shifts.update'] });
}

describe('the till’s shift', { timeout: 40_000 }, () => {
  it('shows the open shift, since when, the drawer, and a link to close it', async () => {
    till(OPEN_SHIFT, true);
    renderApp('/en/pos');
    const bar = await screen.findByTestId('pos-shift', {}, { timeout: 30_000 });
    expect(bar.dataset.state).toBe('open');
    expect(bar.textContent).toContain('Shift open at Till 1 since');
    expect(screen.getByTestId('pos-shift-drawer').textContent).toBe('Drawer: $50.00 · 40,000៛');
    expect(screen.getByTestId('pos-shift-close').getAttribute('href')).toBe('/en/shifts?view=4');
  });

  it('says before any cart that sales need an open shift, with a link to open one (Khmer)', async () => {
    till(null, true);
    renderApp('/pos');
    const bar = await screen.findByTestId('pos-shift', {}, { timeout: 30_000 });
    expect(bar.dataset.state).toBe('required');
    expect(bar.textContent).toContain('ការលក់ត្រូវការវេនកំពុងបើក');
    expect(screen.getByTestId('pos-shift-open').getAttribute('href')).toBe('/shifts?open=1');
  });

  it('without the setting, says only that no shift is open', async () => {
    till(null, false);
    renderApp('/en/pos');
    const bar = await screen.findByTestId('pos-shift', {}, { timeout: 30_000 });
    expect(bar.dataset.state).toBe('none');
    expect(bar.textContent).toContain('No open shift');
  });
});
