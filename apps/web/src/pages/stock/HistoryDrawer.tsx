import {
  DEFAULT_PER_PAGE,
  MOVEMENT_TYPES,
  type MovementType,
  PER_PAGE_OPTIONS,
  type StockLevel,
  type StockMovement,
  stockMovement,
} from '@depot/contracts';
import { Drawer, Flex, Select, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { ProductNames } from '../../components/products.tsx';
import { drawerSize } from '../../kit/detail.tsx';
import { LoadFailed } from '../../kit/listState.tsx';
import { usePage } from '../../kit/queries.ts';
import { costText } from '../../kit/resourceParts.tsx';
import { fitTable, wrap } from '../../kit/table.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { formatDateTime } from '../../lib/dates.ts';
import { formatCount } from '../../lib/format.ts';
import { documentLabel, movementTypeLabels, reasonLabels, SignedQuantity } from './parts.tsx';

const TYPE_COLOURS: Record<MovementType, string> = {
  purchase_receipt: 'green',
  sale: 'blue',
  return: 'cyan',
  adjustment: 'gold',
  transfer_out: 'purple',
  transfer_in: 'geekblue',
  bundle_consumption: 'magenta',
  expiry_write_off: 'red',
};

function Movements({ level }: { level: StockLevel }) {
  const { t, locale } = useCtx();
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(DEFAULT_PER_PAGE);
  const [type, setType] = useState<MovementType | undefined>();
  const query = new URLSearchParams({
    page: String(page),
    per_page: String(perPage),
    'filter[product_id]': String(level.product_id),
    'filter[store_id]': String(level.store_id),
  });
  if (type) query.set('filter[type]', type);
  const list = usePage('stocks/movements', stockMovement, query.toString());
  const types = movementTypeLabels(t);
  const reasons = reasonLabels(t);
  const meta = list.data?.meta;

  if (list.isError && !list.data) {
    return <LoadFailed error={list.error} retry={list.refetch} retrying={list.isFetching} />;
  }
  return (
    <Flex vertical gap={16}>
      <Flex justify="space-between" align="center" wrap gap={12}>
        <ProductNames kh={level.product_name_kh} en={level.product_name_en} sku={level.sku} locale={locale} />
        <Select<MovementType>
          allowClear
          aria-label={t('stock.movementType')}
          placeholder={t('stock.movementType')}
          value={type}
          onChange={(next) => {
            setType(next ?? undefined);
            setPage(1);
          }}
          options={MOVEMENT_TYPES.map((value) => ({ value, label: types[value] }))}
          virtual={false}
          style={{ minWidth: 200 }}
        />
      </Flex>
      <Table<StockMovement>
        data-testid="movements-table"
        rowKey="id"
        size="small"
        dataSource={list.data?.data}
        loading={list.isFetching}
        {...fitTable}
        locale={{ emptyText: t('stock.noMovements') }}
        columns={[
          {
            key: 'date',
            title: t('stock.date'),
            ...wrap(110),
            render: (_, row) => formatDateTime(row.created_at, locale),
          },
          {
            key: 'type',
            title: t('stock.movementType'),
            render: (_, row) => <Tag color={TYPE_COLOURS[row.type]}>{types[row.type]}</Tag>,
          },
          {
            key: 'quantity',
            title: t('stock.quantity'),
            align: 'end',
            render: (_, row) => <SignedQuantity value={row.quantity} />,
          },
          { key: 'balance', title: t('stock.balance'), align: 'end', render: (_, row) => formatCount(row.balance) },
          { key: 'value', title: t('stock.value'), align: 'end', render: (_, row) => costText(row.value_cents) },
          { key: 'lot', title: t('stock.lot'), render: (_, row) => row.lot ?? '—' },
          { key: 'user', title: t('stock.by'), ...wrap(90), render: (_, row) => row.user_name ?? '—' },
          {
            key: 'document',
            title: t('stock.document.label'),
            render: (_, row) => documentLabel(t, row.document_type, row.document_id),
          },
          {
            key: 'reason',
            title: t('stock.reasonNote'),
            ...wrap(140),
            render: (_, row) => (
              <Flex vertical>
                {row.reason && <span>{reasons[row.reason]}</span>}
                {row.note && <Typography.Text type="secondary">{row.note}</Typography.Text>}
                {!row.reason && !row.note && '—'}
              </Flex>
            ),
          },
        ]}
        pagination={{
          current: page,
          pageSize: perPage,
          total: meta?.total ?? 0,
          showSizeChanger: { virtual: false, 'aria-label': t('kit.perPage'), style: { minWidth: 124 } },
          pageSizeOptions: PER_PAGE_OPTIONS.map(String),
          showTotal: (total) => t('kit.total', { from: meta?.from ?? 0, to: meta?.to ?? 0, total }),
          onChange: (next, size) => {
            if (size !== perPage) {
              setPerPage(size);
              setPage(1);
            } else setPage(next);
          },
        }}
      />
    </Flex>
  );
}

/** "History": one product's movements in one store, newest first, a page at a time. */
export function HistoryDrawer({ level, onClose }: { level: StockLevel | null; onClose: () => void }) {
  const { t } = useCtx();
  return (
    <Drawer
      open={Boolean(level)}
      onClose={onClose}
      size={drawerSize(960)}
      title={level ? t('stock.historyTitle', { store: level.store_name }) : ''}
      destroyOnHidden
    >
      {level && <Movements key={`${level.store_id}-${level.product_id}`} level={level} />}
    </Drawer>
  );
}
