import {
  type CurrentRates,
  currentRates,
  DEFAULT_SALE_SETTINGS,
  type Discount,
  discount,
  discountActiveOn,
  formatKhr,
  formatUsd,
  type Rates,
  type RielRates,
  rielOf,
  type SaleSettings,
  saleSettings,
  single,
  todayInCambodia,
} from '@depot/contracts';
import { useQuery } from '@tanstack/react-query';
import { Flex, Typography } from 'antd';
import type { CSSProperties } from 'react';
import { resourceKey, usePage } from '../../kit/queries.ts';
import { useCan } from '../../lib/access.tsx';
import { api, NetworkError } from '../../lib/http.ts';
import { loadLocalLists, localListsState, saveRates, useLocalLists } from '../../lib/offline/localLists.ts';

/**
 * What a sale is priced and settled with, as the server has it now: the rate (and the rates for
 * riel received and given), the riel step and VAT; the sale settings (receipt texts); today's
 * discounts. Under the resources' root, so a rate entered here refreshes the till at once.
 */

export const RATES_KEY = resourceKey('exchange-rates', 'current');

export function useCurrentRates() {
  return useQuery({
    queryKey: RATES_KEY,
    queryFn: async ({ signal }) => {
      try {
        const { data } = await api('exchange-rates/current', { signal, schema: single(currentRates) });
        void saveRates(data).catch(() => undefined);
        return data;
      } catch (error) {
        // no connection: the rates last told, kept on the device
        if (!(error instanceof NetworkError)) throw error;
        await loadLocalLists();
        const known = localListsState().rates;
        if (!known) throw error;
        return known;
      }
    },
    // A rate changed at another till reaches this one within minutes, even without a reload.
    refetchInterval: 5 * 60 * 1000,
    staleTime: 60 * 1000,
  });
}

/** The rates `settle` takes, from the current rates. */
export function ratesOf(current: CurrentRates): Rates {
  return {
    rate_khr: current.rate_khr,
    rate_in_khr: current.rate_in_khr,
    rate_out_khr: current.rate_out_khr,
    khr_step: current.khr_step,
  };
}

/** The sale settings (receipt title and footer); the defaults for who may not read the settings. */
export function useSaleSettings(): { data: SaleSettings; query: ReturnType<typeof useSaleSettingsQuery> } {
  const query = useSaleSettingsQuery(useCan('settings.view'));
  return { data: query.data ?? DEFAULT_SALE_SETTINGS, query };
}

function useSaleSettingsQuery(enabled: boolean) {
  return useQuery({
    queryKey: resourceKey('settings', 'sale'),
    queryFn: async ({ signal }) => (await api('settings/sale', { signal, schema: single(saleSettings) })).data,
    enabled,
    staleTime: 5 * 60 * 1000,
  });
}

/**
 * The discounts that can be used today (the server checks a sale against the same day): the ones
 * kept on the device once they are (localLists.ts), else the server's.
 */
export function useTodayDiscounts() {
  const today = todayInCambodia();
  const local = useLocalLists().discounts;
  const query = new URLSearchParams({ per_page: '100', 'filter[active_on]': today, 'filter[status]': 'active' });
  const page = usePage('discounts', discount, query.toString(), useCan('discounts.list') && !local);
  const rows: Discount[] = local
    ? local.filter((row) => discountActiveOn(row, today)).sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id)
    : (page.data?.data ?? []);
  return { rows, query: page };
}

/**
 * "$12.50" over "51,300៛": an amount in both currencies, the dollars first; the riel is the
 * amount's riel figure (money.ts `rielOf`), shown only with `rates`, for what is paid at once.
 */
export function Money({
  cents,
  rates,
  size = 'normal',
  testId,
  danger,
  style,
}: {
  cents: number;
  rates?: RielRates;
  size?: 'normal' | 'large' | 'small';
  testId?: string;
  danger?: boolean;
  style?: CSSProperties;
}) {
  const fontSize = size === 'large' ? 28 : size === 'small' ? 13 : undefined;
  return (
    <Flex vertical align="flex-end" style={style}>
      <Typography.Text
        strong={size !== 'small'}
        type={danger ? 'danger' : undefined}
        style={{ fontSize, lineHeight: 1.3, whiteSpace: 'nowrap' }}
        data-testid={testId ? `${testId}-usd` : undefined}
      >
        {formatUsd(cents)}
      </Typography.Text>
      {rates ? (
        <Typography.Text
          type={danger ? 'danger' : 'secondary'}
          style={{ fontSize: size === 'large' ? 18 : 12 }}
          data-testid={testId ? `${testId}-khr` : undefined}
        >
          {formatKhr(rielOf(cents, rates))}
        </Typography.Text>
      ) : null}
    </Flex>
  );
}
