import { DEFAULT_EXPIRING_DAYS, type Locale, todayInCambodia } from '@depot/contracts';
import { Flex, type TableColumnType, Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { khmerFirst } from '../kit/resource.ts';
import { wrap } from '../kit/table.ts';
import { useCtx } from '../kit/useCtx.ts';
import { formatDate } from '../lib/dates.ts';
import { daysBetween } from '../lib/format.ts';

/** How the stock, purchase and sale screens show a product: its names, its SKU, its batches' expiry. */

/** A product's two names, the page's language first, and its SKU under them. */
export function ProductNames({ kh, en, sku, locale }: { kh: string; en: string | null; sku?: string; locale: Locale }) {
  const [first, second] = khmerFirst(locale, kh, en);
  return (
    <Flex vertical>
      <Typography.Text strong>{first || second}</Typography.Text>
      {first && second && <Typography.Text type="secondary">{second}</Typography.Text>}
      {sku && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {sku}
        </Typography.Text>
      )}
    </Flex>
  );
}

/** A row that names a product: a document's line, a stock level, a batch. */
interface NamesProduct {
  product_name_kh: string;
  product_name_en: string | null;
  sku: string;
}

/**
 * The product column of such rows: its names (wrapping within `width`) and SKU, and what `below`
 * adds under them (a purchase line's lot and expiry).
 */
export function productColumn<R extends NamesProduct>(
  t: TFunction,
  locale: Locale,
  { width = 220, below }: { width?: number; below?: (row: R) => ReactNode } = {},
): TableColumnType<R> {
  return {
    key: 'product',
    title: t('stock.product'),
    ...wrap(width),
    render: (_, row) => (
      <>
        <ProductNames kh={row.product_name_kh} en={row.product_name_en} sku={row.sku} locale={locale} />
        {below?.(row)}
      </>
    ),
  };
}

/**
 * An expiry date: red once passed, orange within the expiring window, with how long ago or how long
 * left. Colours are antd's presets, which the dark theme redraws.
 */
export function ExpiryTag({ date, daysLeft }: { date: string | null; daysLeft?: number | null }) {
  const { t, locale } = useCtx();
  if (!date) return <Typography.Text type="secondary">—</Typography.Text>;
  const days = daysLeft ?? daysBetween(todayInCambodia(), date);
  const shown = formatDate(date, locale);
  if (days < 0) {
    return (
      <Tag color="red" data-testid="expiry-expired">
        {shown} · {t('stock.expiredDaysAgo', { days: -days })}
      </Tag>
    );
  }
  if (days <= DEFAULT_EXPIRING_DAYS) {
    return (
      <Tag color="orange" data-testid="expiry-soon">
        {shown} · {days === 0 ? t('stock.expiresToday') : t('stock.daysLeft', { days })}
      </Tag>
    );
  }
  return <span>{shown}</span>;
}

/** A batch in one cell: its lot (or "No lot") above its expiry date. */
export function BatchCell({
  lot,
  date,
  daysLeft,
}: {
  lot: string | null;
  date: string | null;
  daysLeft?: number | null;
}) {
  const { t } = useCtx();
  return (
    <Flex vertical gap={4} align="start">
      <span>{lot ?? t('stock.noLot')}</span>
      <ExpiryTag date={date} daysLeft={daysLeft} />
    </Flex>
  );
}

/**
 * A purchase line's lot and expiry, when it has them, under its product's names ("Lot L-7 ·
 * 2026-09-30"); nothing when it has neither.
 */
export function LineBatch({ lot, date }: { lot: string | null; date: string | null }) {
  const { t } = useCtx();
  if (!lot && !date) return null;
  return (
    <Flex wrap gap={6} align="center" style={{ marginTop: 4 }}>
      {lot && (
        <Typography.Text type="secondary">
          {t('stock.lot')} {lot}
        </Typography.Text>
      )}
      {date && <ExpiryTag date={date} />}
    </Flex>
  );
}
