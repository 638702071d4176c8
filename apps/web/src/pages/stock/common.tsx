import {
  type AdjustmentReason,
  DEFAULT_EXPIRING_DAYS,
  formatCount,
  type Locale,
  type MovementType,
  store,
  todayInCambodia,
} from '@depot/contracts';
import { Card, Flex, Form, Input, Select, type TableColumnType, Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import type { CSSProperties, ReactNode } from 'react';
import { useList } from '../../kit/queries.ts';
import { khmerFirst } from '../../kit/resource.ts';
import { wrap } from '../../kit/table.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { useSession } from '../../lib/access.tsx';
import { formatDate } from '../../lib/dates.ts';

/** Pieces the stock and purchase screens share: names, quantities, expiry, the store picker. */

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

// 1,250: the one count formatter (contracts format.ts), in the page's numerals as money is
export { formatCount } from '@depot/contracts';

/** "24 cans": a quantity in its unit, named in the page's language. */
export function quantityText(value: number, unit: { unit_name_kh: string; unit_name_en: string }, locale: Locale) {
  return `${formatCount(value)} ${locale === 'kh' ? unit.unit_name_kh || unit.unit_name_en : unit.unit_name_en || unit.unit_name_kh}`;
}

/** Whole days from one `YYYY-MM-DD` to another (calendar dates, no time zone). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
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

export function movementTypeLabels(t: TFunction): Record<MovementType, string> {
  return {
    purchase_receipt: t('stock.movement.purchase_receipt'),
    sale: t('stock.movement.sale'),
    return: t('stock.movement.return'),
    adjustment: t('stock.movement.adjustment'),
    transfer_out: t('stock.movement.transfer_out'),
    transfer_in: t('stock.movement.transfer_in'),
    bundle_consumption: t('stock.movement.bundle_consumption'),
    expiry_write_off: t('stock.movement.expiry_write_off'),
  };
}

export function reasonLabels(t: TFunction): Record<AdjustmentReason, string> {
  return {
    count: t('stock.reason.count'),
    damage: t('stock.reason.damage'),
    loss: t('stock.reason.loss'),
    found: t('stock.reason.found'),
    expired: t('stock.reason.expired'),
    opening: t('stock.reason.opening'),
  };
}

/** What a movement's document is called: "Purchase #12". */
export function documentLabel(t: TFunction, type: string | null, id: number | null): string {
  if (!type) return '—';
  const names: Record<string, string> = {
    purchase: t('stock.document.purchase'),
    transfer: t('stock.document.transfer'),
    adjustment: t('stock.document.adjustment'),
    write_off: t('stock.document.write_off'),
    sale: t('stock.document.sale'),
    order: t('stock.document.sale'),
  };
  return `${names[type] ?? type}${id ? ` #${id}` : ''}`;
}

const STORES_QUERY = 'per_page=100';

/** The stores to pick from (the same request as the kit's store selects, so asked once). */
export function useStores() {
  return useList({ api: 'stores', row: store }, STORES_QUERY);
}

/**
 * The signed-in user's store, found by the name the session keeps (the session stores no id).
 * `ready` is false while the stores are loading; `id` is null without a store or a match.
 */
export function useSessionStore(): { ready: boolean; id: number | null } {
  const { store: name } = useSession();
  const stores = useStores();
  if (!name) return { ready: true, id: null };
  if (stores.isPending) return { ready: false, id: null };
  const match = stores.data?.data.find((row) => row.name === name && !row.deleted_at);
  return { ready: true, id: match?.id ?? null };
}

/**
 * A store filter of a list. With `all`, "All stores" is a choice of its own (the page's default is
 * the user's store); without, clearing it means every store.
 */
export function StoreFilter({
  value,
  onChange,
  all = false,
}: {
  value: string | undefined;
  onChange: (value: string | undefined) => void;
  all?: boolean;
}) {
  const { t } = useCtx();
  const stores = useStores();
  const options = (stores.data?.data ?? [])
    .filter((row) => !row.deleted_at)
    .map((row) => ({ value: String(row.id), label: `${row.name} (${row.code})` }));
  if (all) options.unshift({ value: 'all', label: t('stock.allStores') });
  return (
    <Select<string>
      data-testid="store-filter"
      aria-label={t('stock.store')}
      placeholder={t('stock.allStores')}
      value={value}
      onChange={(next) => onChange(next ?? undefined)}
      allowClear={!all}
      options={options}
      loading={stores.isFetching}
      showSearch={{ optionFilterProp: 'label' }}
      virtual={false}
      style={{ minWidth: 220 }}
    />
  );
}

/** The card every stock table sits in: the title, buttons on the right, filters above the table. */
export function TableCard({
  title,
  extra,
  filters,
  children,
}: {
  title: ReactNode;
  extra?: ReactNode;
  filters?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card
      title={
        <Typography.Title level={2} style={{ margin: 0, fontSize: 20 }}>
          {title}
        </Typography.Title>
      }
      extra={extra}
    >
      {filters && (
        <Flex wrap gap={12} align="center" style={{ marginBottom: 16 }}>
          {filters}
        </Flex>
      )}
      {children}
    </Card>
  );
}

/** The note of a document or an entry (an adjustment, a transfer, a payment), its message under it. */
export function NoteField({
  id,
  value,
  onChange,
  error,
  max = 255,
  style,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  error: { validateStatus?: 'error'; help?: string };
  max?: number;
  style?: CSSProperties;
}) {
  const { t } = useCtx();
  return (
    <Form.Item label={t('stock.note')} htmlFor={id} style={style} {...error}>
      <Input.TextArea
        id={id}
        rows={2}
        maxLength={max}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </Form.Item>
  );
}

/** A signed quantity: green in, red out (antd's text colours follow the dark theme). */
export function SignedQuantity({ value }: { value: number }) {
  return (
    <Typography.Text type={value > 0 ? 'success' : value < 0 ? 'danger' : undefined} strong>
      {value > 0 ? '+' : ''}
      {formatCount(value)}
    </Typography.Text>
  );
}
