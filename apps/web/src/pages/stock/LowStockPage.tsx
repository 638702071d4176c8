import { CheckCircleOutlined } from '@ant-design/icons';
import { type LowStock, lowStock } from '@depot/contracts';
import { Result, Table, Typography } from 'antd';
import { productColumn } from '../../components/products.tsx';
import { StoreFilter } from '../../components/stores.tsx';
import { LoadFailed, pagination, SearchBox, tableChange, useListState, useStayInRange } from '../../kit/listState.tsx';
import { usePage } from '../../kit/queries.ts';
import { fitTable, wrap } from '../../kit/table.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { formatQuantity, quantityText } from '../../lib/format.ts';
import { TableCard } from './parts.tsx';

/** `/stocks/low`: products at or under their reorder level, lowest first, and how many to order. */
export function LowStockPage() {
  const { t, locale } = useCtx();
  const { state, query, update } = useListState(['store_id']);
  const list = usePage('stocks/low', lowStock, query);
  useStayInRange(state, list.data?.meta.last_page, update);
  const narrowed = Boolean(state.search || state.filters.store_id);

  if (list.isError && !list.data) {
    return <LoadFailed error={list.error} retry={list.refetch} retrying={list.isFetching} />;
  }
  return (
    <TableCard
      title={t('menu.stock_low')}
      filters={
        <>
          <SearchBox state={state} update={update} placeholder={t('stock.searchHint')} width={300} />
          <StoreFilter value={state.filters.store_id} onChange={(next) => update({ 'filter[store_id]': next })} />
        </>
      }
    >
      <div data-testid="low-table">
        <Table<LowStock>
          rowKey={(row) => `${row.store_id}-${row.product_id}`}
          size="middle"
          dataSource={list.data?.data}
          loading={list.isFetching}
          {...fitTable}
          locale={{
            emptyText: narrowed ? (
              t('lowStock.noMatch')
            ) : (
              <Result
                icon={<CheckCircleOutlined />}
                status="success"
                title={t('lowStock.allGood')}
                subTitle={t('lowStock.allGoodHelp')}
                data-testid="low-all-good"
              />
            ),
          }}
          columns={[
            productColumn<LowStock>(t, locale, { width: 240 }),
            { key: 'store', title: t('stock.store'), ...wrap(100), render: (_, row) => row.store_name },
            {
              key: 'quantity',
              title: t('stock.quantity'),
              align: 'end',
              render: (_, row) => (
                <Typography.Text type="danger" strong>
                  {quantityText(row.quantity, row, locale)}
                </Typography.Text>
              ),
            },
            {
              key: 'reorder_level',
              title: t('fields.reorder_level'),
              align: 'end',
              render: (_, row) => formatQuantity(row.reorder_level, row.unit_decimals),
            },
            {
              key: 'reorder_quantity',
              title: t('lowStock.toOrder'),
              align: 'end',
              render: (_, row) => (
                <Typography.Text strong data-testid={`reorder-${row.store_id}-${row.product_id}`}>
                  {quantityText(row.reorder_quantity, row, locale)}
                </Typography.Text>
              ),
            },
          ]}
          pagination={pagination(t, state, list.data?.meta)}
          onChange={tableChange(state, update)}
        />
      </div>
    </TableCard>
  );
}
