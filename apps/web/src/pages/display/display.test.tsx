import { DEFAULT_SETTINGS, type DisplayState, IDLE_DISPLAY } from '@depot/contracts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { closeTillChannel, DISPLAY_CHANNEL, publishDisplay } from '../../lib/customerDisplay.ts';
import { mockFetch, renderApp, signedIn } from '../../test/render.tsx';

/** A sale of two lines as the till sends it: $3.50 + $1.20 − $0.20 off the order = $4.50, 18,500 riel at 4,100 (rounded to 100). */
const sale: DisplayState = {
  ...IDLE_DISPLAY,
  phase: 'cart',
  lines: [
    {
      name_kh: 'អង្ករ',
      name_en: 'Rice',
      quantity: 2,
      unit_kh: 'គីឡូ',
      unit_en: 'kg',
      unit_price_cents: 175,
      amount_cents: 350,
    },
    {
      name_kh: 'ស្ករ',
      name_en: 'Sugar',
      quantity: 1,
      unit_kh: '',
      unit_en: '',
      unit_price_cents: 120,
      amount_cents: 120,
    },
  ],
  discount_cents: 20,
  total_cents: 450,
  total_khr: 18_500,
  due_cents: 450,
  due_khr: 18_500,
};

const khqr = {
  payload: '00020101021229180014khqr@bakong5204599953038405405450.005802KH5909Depot Shop6010Phnom Penh63041234',
  merchant_name: 'Depot Shop',
  currency: 'USD' as const,
  amount: 450,
  expires_at: '2030-01-01T00:00:00Z',
};

afterEach(() => {
  publishDisplay(IDLE_DISPLAY);
  closeTillChannel();
  localStorage.clear();
});

/** What a till in another window posts (the same channel, another instance of it). */
function postRaw(message: unknown) {
  const other = new BroadcastChannel(DISPLAY_CHANNEL);
  other.postMessage(message);
  other.close();
}

describe('the customer display', () => {
  it('welcomes with the shop title when idle, signed out, and asks the server for nothing but the public settings', async () => {
    const { seen } = mockFetch();
    renderApp('/display');
    const idle = await screen.findByTestId('display-idle');
    expect(idle.textContent).toContain(DEFAULT_SETTINGS.system_title_kh);
    expect(idle.textContent).toContain('សូមស្វាគមន៍');
    // no menu, no sign-in page: the display alone
    expect(screen.queryByTestId('side-menu')).toBeNull();
    // (a path under /api/ is seen without it; `/builds/latest.json` is the app's version check)
    const asked = new Set(seen.filter((r) => !r.path.startsWith('/')).map((r) => `${r.method} ${r.path}`));
    expect([...asked]).toEqual(['GET settings/public']);
  });

  it('follows the till: the lines, the totals in dollars and riel, the KHQR, then the change', async () => {
    mockFetch();
    signedIn();
    renderApp('/en/display');
    await screen.findByTestId('display-idle');

    act(() => publishDisplay(sale));
    const lines = await screen.findAllByTestId('display-line');
    expect(lines.map((line) => line.textContent)).toEqual([
      expect.stringContaining('Rice'),
      expect.stringContaining('Sugar'),
    ]);
    // the other language under the name, the quantity in its unit
    expect(lines[0].textContent).toContain('អង្ករ');
    expect(within(lines[0]).getByTestId('display-line-quantity').textContent).toBe('2 kg × $1.75');
    expect(screen.getByTestId('display-total-usd').textContent).toBe('$4.50');
    expect(screen.getByTestId('display-total-khr').textContent).toBe('18,500៛');
    expect(screen.getByTestId('display-discount').textContent).toBe('−$0.20');
    // no menu around it even for a signed-in browser (the till's second window)
    expect(screen.queryByTestId('side-menu')).toBeNull();

    act(() => publishDisplay({ ...sale, phase: 'paying', khqr }));
    const card = await screen.findByTestId('display-khqr');
    expect(within(card).getByTestId('khqr-symbol').getAttribute('data-payload')).toBe(khqr.payload);
    expect(within(card).getByTestId('khqr-amount').textContent).toContain('$4.50');

    act(() =>
      publishDisplay({
        ...sale,
        phase: 'done',
        tendered_cents: 1000,
        due_cents: 0,
        change_cents: 550,
        change_khr: 22_600,
      }),
    );
    expect(await screen.findByTestId('display-thanks')).toBeTruthy();
    expect(screen.queryByTestId('display-khqr')).toBeNull();
    expect(screen.getByTestId('display-change-usd').textContent).toBe('$5.50');
    expect(screen.getByTestId('display-change-khr').textContent).toBe('22,600៛');

    act(() => publishDisplay(IDLE_DISPLAY));
    expect(await screen.findByTestId('display-idle')).toBeTruthy();
    // the till's second window: no pairing to offer
    expect(screen.queryByTestId('display-pair')).toBeNull();
  });

  it('opened after the till published, shows the sale at once; what does not fit the schema is dropped', async () => {
    mockFetch();
    publishDisplay(sale);
    renderApp('/display');
    expect((await screen.findAllByTestId('display-line')).map((line) => line.textContent)).toEqual([
      expect.stringContaining('អង្ករ'),
      expect.stringContaining('ស្ករ'),
    ]);

    postRaw({ type: 'state', state: { ...sale, total_cents: -1 } });
    postRaw({ type: 'state', state: { ...sale, lines: [{ name_en: '<img src=x>' }] } });
    postRaw({ type: 'state', state: { ...sale, khqr: { ...khqr, payload: 'x'.repeat(5000) } } });
    // a message that fits, after them: by the time it shows, the others were read and dropped
    postRaw({ type: 'state', state: { ...sale, total_cents: 999, total_khr: 41_000 } });
    await waitFor(() => expect(screen.getByTestId('display-total-usd').textContent).toBe('$9.99'));
    expect(screen.getAllByTestId('display-line')).toHaveLength(2);
    expect(screen.queryByTestId('display-khqr')).toBeNull();
  });

  it('pairs a tablet with the code from the till: a wrong code is said under the field, the right one is kept', async () => {
    const token = `dpd_${'a'.repeat(43)}`;
    const { calls } = mockFetch({
      'POST display/pair': ({ body }) =>
        (body as { code: string }).code === 'ABC234'
          ? { body: { data: { token, channel: 'private-display.7', pairing_id: 7 } } }
          : {
              status: 422,
              body: {
                message: 'លេខកូដនេះមិនត្រឹមត្រូវ ឬផុតកំណត់ហើយ។',
                errors: { code: ['លេខកូដនេះមិនត្រឹមត្រូវ ឬផុតកំណត់ហើយ។ សូមសុំលេខកូដថ្មីពីអ្នកគិតលុយ។'] },
              },
            },
    });
    renderApp('/display');
    fireEvent.click(await screen.findByTestId('display-pair'));
    const field = await screen.findByTestId('display-pair-code');
    fireEvent.change(field, { target: { value: 'zzz999' } });
    fireEvent.click(screen.getByTestId('display-pair-submit'));
    expect(await screen.findByText('លេខកូដនេះមិនត្រឹមត្រូវ ឬផុតកំណត់ហើយ។ សូមសុំលេខកូដថ្មីពីអ្នកគិតលុយ។')).toBeTruthy();
    expect(calls('POST display/pair').map((r) => r.body)).toEqual([{ code: 'ZZZ999' }]);

    fireEvent.change(field, { target: { value: 'abc234' } });
    fireEvent.click(screen.getByTestId('display-pair-submit'));
    expect(await screen.findByTestId('display-linked')).toBeTruthy();
    expect(JSON.parse(localStorage.getItem('depot.display_pairing') ?? 'null')).toEqual({
      token,
      channel: 'private-display.7',
      pairing_id: 7,
    });
  });
});
