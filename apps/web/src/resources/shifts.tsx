import { EyeOutlined } from '@ant-design/icons';
import {
  formatKhr,
  formatUsd,
  SHIFT_STATUSES,
  type Shift,
  type ShiftStatus,
  shift,
  shiftOpenInput,
} from '@depot/contracts';
import { Flex, Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { DetailLink } from '../kit/detail.tsx';
import { defineResource } from '../kit/resource.ts';
import { selectFilter } from '../kit/resourceParts.tsx';
import { formatDateTime } from '../lib/dates.ts';
import { StoreSelect } from './parties.tsx';

/** Cash drawer shifts: open (taking sales) → closed (counted). */

export function ShiftStatusTag({ row, t }: { row: Pick<Shift, 'status' | 'overnight'>; t: TFunction }) {
  return (
    <Flex gap={4} wrap>
      <Tag color={row.status === 'open' ? 'blue' : 'default'} data-testid="shift-status">
        {row.status === 'open' ? t('shifts.status.open') : t('shifts.status.closed')}
      </Tag>
      {row.overnight && (
        <Tag color="red" data-testid="shift-overnight">
          {t('shifts.overnight')}
        </Tag>
      )}
    </Flex>
  );
}

/** A difference as the cashier reads it: −$3.00 short, +$1.00 over, a dash for none yet. */
export function differenceText(value: number | null, currency: 'usd' | 'khr'): string {
  if (value === null) return '—';
  const text = currency === 'usd' ? formatUsd(Math.abs(value)) : formatKhr(Math.abs(value));
  return value < 0 ? `−${text}` : value > 0 ? `+${text}` : text;
}

/** `/shifts`: the kit's list; opening a shift, its details and actions are the page's own. */
export const shifts = defineResource<Shift>({
  screen: '/shifts',
  api: 'shifts',
  resource: 'shifts',
  row: shift,
  input: shiftOpenInput,
  texts: (t) => ({ title: t('menu.shifts'), create: t('shifts.open'), edit: t('shifts.open') }),
  label: (row) => row.number,
  creatable: false,
  trashable: false,
  editable: () => false,
  deletable: () => false,
  defaultSort: () => '-opened_at',
  searchHint: (t) => t('shifts.searchHint'),
  columns: ({ t, locale }) => [
    {
      key: 'number',
      title: t('shifts.number'),
      sort: 'number',
      render: (row) => (
        <DetailLink id={row.id} testId={`open-${row.id}`}>
          {row.number}
        </DetailLink>
      ),
    },
    {
      key: 'till',
      title: t('shifts.till'),
      width: 160,
      wrap: true,
      render: (row) => (
        <Flex vertical>
          <span>{row.till}</span>
          <Typography.Text type="secondary">{row.store_name}</Typography.Text>
        </Flex>
      ),
    },
    { key: 'user', title: t('shifts.cashier'), width: 140, wrap: true, render: (row) => row.user_name ?? '—' },
    { key: 'status', title: t('fields.status'), sort: 'status', render: (row) => <ShiftStatusTag row={row} t={t} /> },
    {
      key: 'opened_at',
      title: t('shifts.openedAt'),
      sort: 'opened_at',
      width: 150,
      wrap: true,
      render: (row) => (
        <Flex vertical>
          <span>{formatDateTime(row.opened_at, locale)}</span>
          {row.closed_at && (
            <Typography.Text type="secondary">
              {t('shifts.closedOn', { date: formatDateTime(row.closed_at, locale) })}
            </Typography.Text>
          )}
        </Flex>
      ),
    },
    {
      key: 'difference',
      title: t('shifts.difference'),
      render: (row) => (
        <Flex vertical align="flex-end">
          <span>{differenceText(row.difference_usd_cents, 'usd')}</span>
          <span>{differenceText(row.difference_khr, 'khr')}</span>
        </Flex>
      ),
    },
  ],
  filters: (ctx) => [
    {
      name: 'status',
      label: ctx.t('fields.status'),
      options: SHIFT_STATUSES.map((value: ShiftStatus) => ({
        value,
        label: value === 'open' ? ctx.t('shifts.status.open') : ctx.t('shifts.status.closed'),
      })),
    },
    selectFilter('store_id', ctx.t('shifts.store'), StoreSelect),
  ],
  fields: () => [],
  rowActions: (row, { t }) => (
    <DetailLink id={row.id} testId={`details-${row.id}`} label={t('shifts.details')}>
      <EyeOutlined />
    </DetailLink>
  ),
});
