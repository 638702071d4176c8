import { DEFAULT_SHIFT_SETTINGS, type KhqrUnchecked } from '@depot/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { listAnswer } from '../../test/inventory.ts';
import { mockFetch, renderApp, signedIn } from '../../test/render.tsx';
import { OPEN_SHIFT, SELLING, tillLookups } from '../../test/sales.ts';

const row = (n: number, extra: Partial<KhqrUnchecked> = {}): KhqrUnchecked => ({
  order_id: n,
  order_number: `SO-PP01-00000${n}`,
  md5: String(n).repeat(32).slice(0, 32),
  currency: 'USD',
  amount: 1250,
  offline: false,
  checked_at: null,
  result: null,
  hash: null,
  ...extra,
});

describe('closing a shift with KHQR sales Bakong has not confirmed', { timeout: 90_000 }, () => {
  it('lists them and checks them with Bakong in one call (Khmer)', async () => {
    const { calls } = mockFetch({
      ...tillLookups(),
      'GET shifts': () => ({ body: listAnswer([OPEN_SHIFT]) }),
      'GET shifts/4': () => ({ body: { data: OPEN_SHIFT } }),
      'GET shifts/settings': () => ({ body: { data: DEFAULT_SHIFT_SETTINGS } }),
      'GET shifts/4/khqr': () => ({ body: { data: [row(1), row(2, { offline: true })] } }),
      'POST shifts/4/khqr/check': () => ({
        body: {
          message: 'បានពិនិត្យជាមួយបាគង៖ បានបញ្ជាក់ 1 មិនបានរកឃើញ 1។',
          data: [row(1, { result: 'confirmed', hash: 'a'.repeat(64) }), row(2, { offline: true, result: 'not_found' })],
        },
      }),
    });
    signedIn({ permissions: [...SELLING, 'shifts.list', 'shifts.view', 'shifts.create', 'shifts.update'] });
    const { user } = renderApp('/shifts?view=4');
    await user.click(await screen.findByTestId('shift-close', {}, { timeout: 30_000 }));
    const part = await screen.findByTestId('khqr-unchecked', {}, { timeout: 10_000 });
    expect(within(part).getByTestId('khqr-unchecked-note').textContent).toContain(
      'ការលក់តាម KHQR ចំនួន 2 មិនទាន់បានបញ្ជាក់ដោយបាគង',
    );
    expect(part.textContent).toContain('SO-PP01-000001');
    expect(part.textContent).toContain('គ្មានអ៊ីនធឺណិត');
    await user.click(within(part).getByTestId('khqr-sweep'));
    await waitFor(() => expect(calls('POST shifts/4/khqr/check')).toHaveLength(1));
    expect(await within(part).findByText('បានពិនិត្យជាមួយបាគង៖ បានបញ្ជាក់ 1 មិនបានរកឃើញ 1។')).toBeTruthy();
    expect(part.textContent).toContain('បានបញ្ជាក់');
    expect(part.textContent).toContain('រកមិនឃើញ');
  });

  it('shows nothing when every KHQR sale was confirmed by Bakong', async () => {
    const { calls } = mockFetch({
      ...tillLookups(),
      'GET shifts': () => ({ body: listAnswer([OPEN_SHIFT]) }),
      'GET shifts/4': () => ({ body: { data: OPEN_SHIFT } }),
      'GET shifts/settings': () => ({ body: { data: DEFAULT_SHIFT_SETTINGS } }),
      'GET shifts/4/khqr': () => ({ body: { data: [] } }),
    });
    signedIn({ permissions: [...SELLING, 'shifts.list', 'shifts.view', 'shifts.create', 'shifts.update'] });
    const { user } = renderApp('/en/shifts?view=4');
    await user.click(await screen.findByTestId('shift-close', {}, { timeout: 30_000 }));
    await screen.findByTestId('close-note');
    await waitFor(() => expect(calls('GET shifts/4/khqr')).toHaveLength(1));
    expect(screen.queryByTestId('khqr-unchecked')).toBeNull();
  });
});
