import { EyeOutlined } from '@ant-design/icons';
import { COUNT_STATUSES, type CountStatus, countInput, type StockCount, stockCount } from '@depot/contracts';
import { Flex, Tag, Tooltip, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { Link } from 'react-router';
import { defineResource } from '../kit/resource.ts';
import { selectFilter } from '../kit/resourceParts.tsx';
import { formatDateTime } from '../lib/dates.ts';
import { localePath } from '../lib/locale.ts';
import { StoreSelect } from './parties.tsx';

/** Stock counts: open (counting) → submitted → approved (posted) or cancelled. */

export function countStatusLabels(t: TFunction): Record<CountStatus, string> {
  return {
    open: t('counts.status.open'),
    submitted: t('counts.status.submitted'),
    approved: t('counts.status.approved'),
    cancelled: t('counts.status.cancelled'),
  };
}

const COLOURS: Record<CountStatus, string> = { open: 'blue', submitted: 'gold', approved: 'green', cancelled: 'red' };

export function CountStatusTag({ status, t }: { status: CountStatus; t: TFunction }) {
  return (
    <Tag color={COLOURS[status]} data-testid="count-status">
      {countStatusLabels(t)[status]}
    </Tag>
  );
}

/** `/stocks/counts`: the kit's list; a new count is the page's own dialog, a count its own screen. */
export const counts = defineResource<StockCount>({
  screen: '/stocks/counts',
  api: 'stock-counts',
  resource: 'stock_counts',
  row: stockCount,
  input: countInput,
  texts: (t) => ({ title: t('menu.stock_counts'), create: t('counts.create'), edit: t('counts.create') }),
  label: (row) => row.number,
  creatable: false,
  trashable: false,
  editable: () => false,
  deletable: () => false,
  defaultSort: () => '-created_at',
  searchHint: (t) => t('counts.searchHint'),
  columns: ({ t, locale }) => [
    {
      key: 'number',
      title: t('counts.number'),
      sort: 'number',
      render: (row) => (
        <Link to={localePath(`/stocks/counts/${row.id}`, locale)} data-testid={`open-${row.id}`}>
          {row.number}
        </Link>
      ),
    },
    {
      key: 'where',
      title: t('counts.where'),
      width: 200,
      wrap: true,
      render: (row) => (
        <Flex vertical>
          <span>{row.store_name}</span>
          {row.zone && <Typography.Text type="secondary">{row.zone}</Typography.Text>}
        </Flex>
      ),
    },
    { key: 'status', title: t('fields.status'), render: (row) => <CountStatusTag status={row.status} t={t} /> },
    { key: 'lines_count', title: t('counts.lines'), render: (row) => row.lines_count },
    {
      key: 'created_at',
      title: t('counts.startedAt'),
      sort: 'created_at',
      width: 150,
      wrap: true,
      render: (row) => (
        <Flex vertical>
          <span>{formatDateTime(row.created_at, locale)}</span>
          {row.created_by_name && <Typography.Text type="secondary">{row.created_by_name}</Typography.Text>}
        </Flex>
      ),
    },
  ],
  filters: (ctx) => {
    const labels = countStatusLabels(ctx.t);
    return [
      {
        name: 'status',
        label: ctx.t('fields.status'),
        options: COUNT_STATUSES.map((value) => ({ value, label: labels[value] })),
      },
      selectFilter('store_id', ctx.t('counts.store'), StoreSelect),
    ];
  },
  fields: () => [],
  rowActions: (row, { t, locale }) => (
    <Tooltip title={t('counts.open')}>
      <Link
        to={localePath(`/stocks/counts/${row.id}`, locale)}
        aria-label={t('counts.open')}
        data-testid={`details-${row.id}`}
      >
        <EyeOutlined />
      </Link>
    </Tooltip>
  ),
});
