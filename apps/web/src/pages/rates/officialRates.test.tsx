import { listQuery, type OfficialRate, todayInCambodia } from '@depot/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { listAnswer } from '../../test/inventory.ts';
import { mockFetch, renderApp, signedIn } from '../../test/render.tsx';
import { RATES } from '../../test/sales.ts';

const rate = (id: number, extra: Partial<OfficialRate>): OfficialRate => ({
  id,
  kind: 'nbc_daily',
  date: '2026-03-02',
  rate_khr: 4105,
  source: 'manual',
  created_by_name: 'Sok Dara',
  created_at: '2026-03-02T01:00:00.000Z',
  ...extra,
});
const OFFICIAL = [
  rate(2, { source: 'feed', created_by_name: null }),
  rate(1, { kind: 'gdt_monthly', date: '2026-02-01', rate_khr: 4098 }),
];
const SALE = {
  vat_rate_bp: 1000,
  khr_rounding_step: 100,
  stale_after_hours: 24,
  receipt_title: '',
  receipt_footer: 'Thank you!',
  tax_rate_policy: 'market',
};
const MANAGER = ['exchange_rates.view', 'exchange_rates.update', 'settings.view', 'settings.update'];

function ratesApi(extra: Record<string, unknown> = {}) {
  return mockFetch({
    'GET stocks/low/count': { body: { data: { count: 0 } } },
    'GET exchange-rates/current': { body: { data: RATES } },
    'GET exchange-rates': { body: listAnswer([]) },
    'GET settings/sale': { body: { data: SALE } },
    'GET official-rates': { body: listAnswer(OFFICIAL) },
    ...extra,
  } as Parameters<typeof mockFetch>[0]);
}

describe('the published rates and the invoices’ rate rule', { timeout: 90_000 }, () => {
  it('lists the NBC’s days and the GDT’s months, and enters a rate by hand', async () => {
    signedIn({ permissions: MANAGER });
    const { calls } = ratesApi({
      'POST official-rates': () => ({
        status: 201,
        body: { message: 'Rate 4,110៛ saved.', data: rate(3, { date: todayInCambodia(), rate_khr: 4110 }) },
      }),
    });
    const { user } = renderApp('/en/exchange-rates');
    const card = await screen.findByTestId('official-rates', {}, { timeout: 30_000 });
    await within(card).findByText('4,105៛');
    const rows = within(card).getAllByRole('row').slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((c) => c.textContent)
          .slice(0, 4),
      ),
    ).toEqual([
      ['National Bank, daily', '2026-03-02', '4,105៛', 'Feed'],
      ['Tax office, monthly', '2026-02', '4,098៛', 'By hand · Sok Dara'],
    ]);
    // a page the server serves
    const asked = Object.fromEntries(calls('GET official-rates')[0].query);
    expect(listQuery.safeParse(asked).success, JSON.stringify(asked)).toBe(true);

    await user.type(within(card).getByTestId('official-rate-input'), '4110');
    await user.click(within(card).getByRole('button', { name: /Save rate/ }));
    await waitFor(() => expect(calls('POST official-rates')).toHaveLength(1));
    expect(calls('POST official-rates')[0].body).toEqual({
      kind: 'nbc_daily',
      date: todayInCambodia(),
      rate_khr: 4110,
    });
    expect(await screen.findByText('Rate 4,110៛ saved.')).toBeTruthy();
  });

  it('puts the server’s refusal on its field', async () => {
    signedIn({ permissions: MANAGER });
    ratesApi({
      'POST official-rates': {
        status: 422,
        body: { message: 'The given data was invalid.', errors: { date: ['The date cannot be in the future.'] } },
      },
    });
    const { user } = renderApp('/en/exchange-rates');
    const card = await screen.findByTestId('official-rates', {}, { timeout: 30_000 });
    await user.type(within(card).getByTestId('official-rate-input'), '4110');
    await user.click(within(card).getByRole('button', { name: /Save rate/ }));
    expect(await within(card).findByText('The date cannot be in the future.')).toBeTruthy();
  });

  it('shows the rates without the form to a user who may not set them', async () => {
    signedIn({ permissions: ['exchange_rates.view'] });
    ratesApi();
    renderApp('/en/exchange-rates');
    const card = await screen.findByTestId('official-rates', {}, { timeout: 30_000 });
    await within(card).findByText('4,105៛');
    expect(within(card).queryByTestId('official-rate-input')).toBeNull();
    expect(within(card).queryByRole('button', { name: /Fetch/ })).toBeNull();
  });

  it('saves the rule of the invoices’ rate with the sale settings', async () => {
    signedIn({ permissions: MANAGER });
    const { calls } = ratesApi({
      'PUT settings/sale': ({ body }: { body: unknown }) => ({
        status: 200,
        body: { message: 'Sale settings saved.', data: { ...SALE, ...(body as object) } },
      }),
    });
    const { user } = renderApp('/en/exchange-rates');
    const form = await screen.findByTestId('sale-settings', {}, { timeout: 30_000 });
    expect(within(form).getByText('Market rate, not below the National Bank’s')).toBeTruthy();
    await user.click(within(form).getByLabelText('Rate of tax invoices'));
    await user.click(await screen.findByRole('option', { name: 'Tax office’s rate of the previous month' }));
    await user.click(within(form).getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(calls('PUT settings/sale')).toHaveLength(1));
    expect(calls('PUT settings/sale')[0].body).toMatchObject({ tax_rate_policy: 'gdt_monthly' });
  });
});
