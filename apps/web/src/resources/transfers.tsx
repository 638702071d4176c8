import { ArrowRightOutlined, EyeOutlined } from '@ant-design/icons';
import { TRANSFER_STATUSES, type Transfer, type TransferStatus, transfer, transferInput } from '@depot/contracts';
import { Flex, Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { DetailLink } from '../kit/detail.tsx';
import { defineResource } from '../kit/resource.ts';
import { selectFilter } from '../kit/resourceParts.tsx';
import { formatDateTime } from '../lib/dates.ts';
import { StoreSelect } from './parties.tsx';

/** Stock transfers between stores: draft → sent (stock leaves) → received (stock arrives), or cancelled. */

export function transferStatusLabels(t: TFunction): Record<TransferStatus, string> {
  return {
    draft: t('transfers.status.draft'),
    sent: t('transfers.status.sent'),
    received: t('transfers.status.received'),
    cancelled: t('transfers.status.cancelled'),
  };
}

const COLOURS: Record<TransferStatus, string> = { draft: 'default', sent: 'blue', received: 'green', cancelled: 'red' };

export function TransferStatusTag({ status, t }: { status: TransferStatus; t: TFunction }) {
  return (
    <Tag color={COLOURS[status]} data-testid="transfer-status">
      {transferStatusLabels(t)[status]}
    </Tag>
  );
}

/** `/stocks/transfer`: the kit's list; new transfers, details and their actions are the page's own. */
export const transfers = defineResource<Transfer>({
  screen: '/stocks/transfer',
  api: 'stock-transfers',
  resource: 'stocks',
  row: transfer,
  input: transferInput,
  texts: (t) => ({ title: t('menu.stock_transfer'), create: t('transfers.create'), edit: t('transfers.edit') }),
  label: (row) => row.number,
  creatable: false,
  trashable: false,
  // Edited in the page's own form, from the details (a draft only); never deleted, only cancelled.
  editable: () => false,
  deletable: () => false,
  defaultSort: () => '-created_at',
  searchHint: (t) => t('transfers.searchHint'),
  columns: ({ t, locale }) => [
    {
      key: 'number',
      title: t('transfers.number'),
      sort: 'number',
      render: (row) => (
        <DetailLink id={row.id} testId={`open-${row.id}`}>
          {row.number}
        </DetailLink>
      ),
    },
    {
      key: 'stores',
      title: t('transfers.route'),
      width: 200,
      wrap: true,
      render: (row) => (
        <Flex align="center" gap={8} wrap>
          <span>{row.from_store_name}</span>
          <ArrowRightOutlined style={{ opacity: 0.6 }} />
          <span>{row.to_store_name}</span>
        </Flex>
      ),
    },
    { key: 'status', title: t('fields.status'), render: (row) => <TransferStatusTag status={row.status} t={t} /> },
    { key: 'items_count', title: t('transfers.items'), render: (row) => row.items_count },
    {
      key: 'created_at',
      title: t('transfers.createdAt'),
      sort: 'created_at',
      width: 130,
      wrap: true,
      render: (row) => (
        <Flex vertical>
          <span>{formatDateTime(row.created_at, locale)}</span>
          {row.created_by_name && <Typography.Text type="secondary">{row.created_by_name}</Typography.Text>}
        </Flex>
      ),
    },
    {
      key: 'moved',
      title: t('transfers.sentReceived'),
      width: 150,
      wrap: true,
      render: (row) => (
        <Flex vertical>
          {row.sent_at && <span>{t('transfers.sentOn', { date: formatDateTime(row.sent_at, locale) })}</span>}
          {row.received_at && (
            <span>{t('transfers.receivedOn', { date: formatDateTime(row.received_at, locale) })}</span>
          )}
          {row.cancelled_at && (
            <Typography.Text type="secondary">
              {t('transfers.cancelledOn', { date: formatDateTime(row.cancelled_at, locale) })}
            </Typography.Text>
          )}
          {!row.sent_at && !row.received_at && !row.cancelled_at && '—'}
        </Flex>
      ),
    },
  ],
  filters: (ctx) => {
    const labels = transferStatusLabels(ctx.t);
    return [
      {
        name: 'status',
        label: ctx.t('fields.status'),
        options: TRANSFER_STATUSES.map((value) => ({ value, label: labels[value] })),
      },
      selectFilter('from_store_id', ctx.t('transfers.from'), StoreSelect),
      selectFilter('to_store_id', ctx.t('transfers.to'), StoreSelect),
    ];
  },
  fields: () => [],
  rowActions: (row, { t }) => (
    <DetailLink id={row.id} testId={`details-${row.id}`} label={t('transfers.details')}>
      <EyeOutlined />
    </DetailLink>
  ),
});
