import { EditOutlined, HistoryOutlined } from '@ant-design/icons';
import { type StockLevel, stockLevel } from '@depot/contracts';
import { Button, Flex, Space, Switch, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { useState } from 'react';
import { ExpiryTag, ProductNames } from '../../components/products.tsx';
import { StoreFilter, useSessionStore } from '../../components/stores.tsx';
import {
  LoadFailed,
  pagination,
  SearchBox,
  sortOrder,
  tableChange,
  useListState,
  useStayInRange,
} from '../../kit/listState.tsx';
import { usePage } from '../../kit/queries.ts';
import { costText } from '../../kit/resourceParts.tsx';
import { fitTable, wrap } from '../../kit/table.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { useCan } from '../../lib/access.tsx';
import { formatQuantity, quantityText } from '../../lib/format.ts';
import { CategorySelect } from '../../resources/catalogue.tsx';
import { AdjustDialog } from './AdjustDialog.tsx';
import { HistoryDrawer } from './HistoryDrawer.tsx';
import { TableCard } from './parts.tsx';

const FILTERS = ['store_id', 'category_id', 'low'];
const SORTS = ['name_kh', 'name_en', 'sku', 'quantity'];

/** At or under its reorder level, as the server's low-stock list counts it. */
export function isLow(row: { quantity: number; reorder_level: number }): boolean {
  return row.reorder_level > 0 && row.quantity <= row.reorder_level;
}

function BatchTable({ row }: { row: StockLevel }) {
  const { t, locale } = useCtx();
  return (
    <Table
      size="small"
      rowKey="id"
      pagination={false}
      dataSource={row.batches}
      data-testid={`batches-${row.store_id}-${row.product_id}`}
      columns={[
        { key: 'lot', title: t('stock.lot'), render: (_, batch) => batch.lot ?? t('stock.noLot') },
        {
          key: 'expiry',
          title: t('fields.expiry_date'),
          render: (_, batch) => <ExpiryTag date={batch.expiry_date} />,
        },
        {
          key: 'quantity',
          title: t('stock.quantity'),
          align: 'end',
          render: (_, batch) => quantityText(batch.quantity, row, locale),
        },
      ]}
    />
  );
}

/** `/stocks/manage`: what each store holds, by product and batch, with adjustments and history. */
export function StockManagePage() {
  const { t, locale } = useCtx();
  const canAdjust = useCan('stocks.create');
  const canHistory = useCan('stocks.view');
  const home = useSessionStore();
  const { state, query, update } = useListState(FILTERS, {
    defaultSort: locale === 'kh' ? 'name_kh' : 'name_en',
    // Without a choice in the address: the user's own store, or every store.
    filterDefaults: { store_id: home.id ? String(home.id) : 'all' },
    skip: (name, value) => name === 'store_id' && value === 'all',
  });
  const list = usePage('stocks/levels', stockLevel, query, home.ready);
  useStayInRange(state, list.data?.meta.last_page, update);
  const [adjusting, setAdjusting] = useState<StockLevel | null>(null);
  const [history, setHistory] = useState<StockLevel | null>(null);
  const allStores = state.filters.store_id === 'all';

  const nameSort = locale === 'kh' ? 'name_kh' : 'name_en';
  const columns: TableColumnsType<StockLevel> = [
    {
      key: nameSort,
      title: t('stock.product'),
      sorter: true,
      sortOrder: sortOrder(state, nameSort),
      ...wrap(allStores ? 170 : 200),
      render: (_, row) => <ProductNames kh={row.product_name_kh} en={row.product_name_en} locale={locale} />,
    },
    {
      key: 'sku',
      title: t('fields.sku_barcode'),
      sorter: true,
      sortOrder: sortOrder(state, 'sku'),
      render: (_, row) => (
        <Flex vertical>
          <Typography.Text code>{row.sku}</Typography.Text>
          {row.barcode && <Typography.Text type="secondary">{row.barcode}</Typography.Text>}
        </Flex>
      ),
    },
    ...(allStores
      ? [
          {
            key: 'store',
            title: t('stock.store'),
            ...wrap(100),
            render: (_: unknown, row: StockLevel) => row.store_name,
          },
        ]
      : []),
    {
      key: 'quantity',
      title: t('stock.quantity'),
      sorter: true,
      sortOrder: sortOrder(state, 'quantity'),
      align: 'end',
      // "Low: reorder at 500" may take two lines, so the money columns keep their room.
      ...wrap(120),
      render: (_, row) => (
        <Flex vertical align="end" data-testid={`quantity-${row.store_id}-${row.product_id}`}>
          <Typography.Text strong type={isLow(row) ? 'danger' : undefined}>
            {quantityText(row.quantity, row, locale)}
          </Typography.Text>
          {isLow(row) && (
            <Tag color="red" style={{ marginInlineEnd: 0, whiteSpace: 'normal', textAlign: 'end' }}>
              {t('stock.lowTag', { level: formatQuantity(row.reorder_level, row.unit_decimals) })}
            </Tag>
          )}
        </Flex>
      ),
    },
    {
      key: 'cost',
      title: t('stock.averageCost'),
      align: 'end',
      render: (_, row) => costText(row.average_cost_cents),
    },
    {
      key: 'value',
      title: t('stock.value'),
      align: 'end',
      render: (_, row) => <Typography.Text strong>{costText(row.value_cents)}</Typography.Text>,
    },
  ];
  if (canAdjust || canHistory) {
    columns.push({
      key: 'actions',
      title: t('kit.actions'),
      fixed: 'right',
      render: (_, row) => (
        <Space size={4}>
          {canAdjust && (
            <Button
              type="link"
              size="small"
              icon={<EditOutlined />}
              data-testid={`adjust-${row.store_id}-${row.product_id}`}
              onClick={() => setAdjusting(row)}
            >
              {t('stock.adjust')}
            </Button>
          )}
          {canHistory && (
            <Button
              type="link"
              size="small"
              icon={<HistoryOutlined />}
              data-testid={`history-${row.store_id}-${row.product_id}`}
              onClick={() => setHistory(row)}
            >
              {t('stock.history')}
            </Button>
          )}
        </Space>
      ),
    });
  }

  if (list.isError && !list.data) {
    return <LoadFailed error={list.error} retry={list.refetch} retrying={list.isFetching} />;
  }

  return (
    <TableCard
      title={t('menu.stock_manage')}
      filters={
        <>
          <SearchBox state={state} update={update} placeholder={t('stock.searchHint')} width={300} />
          <StoreFilter all value={state.filters.store_id} onChange={(next) => update({ 'filter[store_id]': next })} />
          <div style={{ minWidth: 200 }} data-testid="filter-category_id">
            <CategorySelect
              value={state.filters.category_id ? Number(state.filters.category_id) : null}
              onChange={(id) => update({ 'filter[category_id]': id ? String(id) : undefined })}
              placeholder={t('fields.category')}
              aria-label={t('fields.category')}
              allowClear
              style={{ width: '100%' }}
            />
          </div>
          <Flex align="center" gap={8}>
            <Switch
              id="low-only"
              data-testid="low-only"
              checked={state.filters.low === 'true'}
              onChange={(checked) => update({ 'filter[low]': checked ? 'true' : undefined })}
            />
            <label htmlFor="low-only" style={{ cursor: 'pointer' }}>
              {t('stock.lowOnly')}
            </label>
          </Flex>
        </>
      }
    >
      <div data-testid="levels-table">
        <Table<StockLevel>
          rowKey={(row) => `${row.store_id}-${row.product_id}`}
          size="middle"
          columns={columns}
          dataSource={list.data?.data}
          loading={list.isFetching || !home.ready}
          {...fitTable}
          locale={{ emptyText: t('stock.emptyLevels') }}
          expandable={{
            expandedRowRender: (row) => <BatchTable row={row} />,
            rowExpandable: (row) => row.batches.length > 0,
          }}
          pagination={pagination(t, state, list.data?.meta)}
          onChange={tableChange(state, update, (key) => (SORTS.includes(key) ? key : undefined))}
        />
      </div>
      <AdjustDialog level={adjusting} onClose={() => setAdjusting(null)} />
      <HistoryDrawer level={history} onClose={() => setHistory(null)} />
    </TableCard>
  );
}
