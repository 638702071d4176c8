import { DeleteOutlined } from '@ant-design/icons';
import { DEFAULT_EXPIRING_DAYS, type StockBatch, stockBatch, stockMovement, written } from '@depot/contracts';
import { useMutation } from '@tanstack/react-query';
import { App, Button, Flex, InputNumber, Popconfirm, Table, type TableColumnsType, Tabs, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { z } from 'zod';
import { BatchCell, productColumn } from '../../components/products.tsx';
import { StoreFilter } from '../../components/stores.tsx';
import { LoadFailed, pagination, SearchBox, tableChange, useListState, useStayInRange } from '../../kit/listState.tsx';
import { failureMessage, usePage, useWritten } from '../../kit/queries.ts';
import { costText } from '../../kit/resourceParts.tsx';
import { fitTable, wrap } from '../../kit/table.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { useDebounced } from '../../kit/useDebounced.ts';
import { useCan } from '../../lib/access.tsx';
import { quantityText } from '../../lib/format.ts';
import { api, newIdempotencyKey } from '../../lib/http.ts';
import { TableCard } from './parts.tsx';

type Tab = 'expired' | 'expiring';

const writeOffAnswer = written(z.object({ movements: z.array(stockMovement) }));

/** Days typed settle before the list asks again; the address keeps them. */
function DaysInput({ days, onChange }: { days: number; onChange: (days: number) => void }) {
  const { t } = useCtx();
  const [typed, setTyped] = useState<number | null>(days);
  const settled = useDebounced(typed, 400);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a settled change asks again
  useEffect(() => {
    if (settled && settled !== days) onChange(settled);
  }, [settled]);
  return (
    <Flex align="center" gap={8}>
      <label htmlFor="expiring-days">{t('expired.withinDays')}</label>
      <InputNumber<number>
        id="expiring-days"
        data-testid="expiring-days"
        min={1}
        max={365}
        precision={0}
        value={typed}
        onChange={setTyped}
        style={{ width: 100 }}
      />
    </Flex>
  );
}

function WriteOff({ row }: { row: StockBatch }) {
  const { t, locale } = useCtx();
  const { message } = App.useApp();
  const written = useWritten();
  const [key, setKey] = useState(newIdempotencyKey);
  const send = useMutation({
    mutationFn: () =>
      api('stocks/write-offs', {
        method: 'POST',
        body: { store_id: row.store_id, batch_id: row.batch_id, note: null },
        schema: writeOffAnswer,
        idempotencyKey: key,
      }),
  });
  const confirm = async () => {
    try {
      void written(await send.mutateAsync());
      setKey(newIdempotencyKey());
    } catch (error) {
      void message.error(failureMessage(error, locale));
    }
  };
  return (
    <Popconfirm
      title={t('expired.writeOffTitle')}
      description={
        <div style={{ maxWidth: 340 }} data-testid={`write-off-help-${row.batch_id}`}>
          {t('expired.writeOffHelp', {
            quantity: quantityText(row.quantity, row, locale),
            value: costText(row.value_cents),
            store: row.store_name,
          })}
        </div>
      }
      okText={t('expired.writeOff')}
      okButtonProps={{ danger: true }}
      cancelText={t('kit.cancel')}
      onConfirm={confirm}
    >
      <Button
        type="link"
        size="small"
        danger
        icon={<DeleteOutlined />}
        loading={send.isPending}
        data-testid={`write-off-${row.store_id}-${row.batch_id}`}
      >
        {t('expired.writeOff')}
      </Button>
    </Popconfirm>
  );
}

/**
 * `/products/expired`: batches whose expiry date has passed (to write off), and those expiring
 * within N days (to sell first), soonest first, in every store or one.
 */
export function ExpiredPage() {
  const { t, locale } = useCtx();
  const [address] = useSearchParams();
  const tab: Tab = address.get('tab') === 'expiring' ? 'expiring' : 'expired';
  const days = Math.min(365, Math.max(1, Number(address.get('days')) || DEFAULT_EXPIRING_DAYS));
  const canWriteOff = useCan('stocks.update');
  const { state, query, update } = useListState(['store_id'], {
    params: tab === 'expired' ? { 'filter[expired]': 'true' } : { 'filter[expiring_days]': String(days) },
  });
  const list = usePage('stocks/batches', stockBatch, query);
  useStayInRange(state, list.data?.meta.last_page, update);

  const columns: TableColumnsType<StockBatch> = [
    productColumn<StockBatch>(t, locale),
    { key: 'store', title: t('stock.store'), ...wrap(100), render: (_, row) => row.store_name },
    // The lot and its expiry together: what tells one batch of a product from another.
    {
      key: 'batch',
      title: t('stock.lotExpiry'),
      render: (_, row) => <BatchCell lot={row.lot} date={row.expiry_date} daysLeft={row.days_left} />,
    },
    {
      key: 'quantity',
      title: t('stock.quantity'),
      align: 'end',
      render: (_, row) => quantityText(row.quantity, row, locale),
    },
    {
      key: 'value',
      title: t('stock.value'),
      align: 'end',
      render: (_, row) => (
        <Typography.Text strong data-testid={`value-${row.store_id}-${row.batch_id}`}>
          {costText(row.value_cents)}
        </Typography.Text>
      ),
    },
  ];
  if (tab === 'expired' && canWriteOff) {
    columns.push({
      key: 'actions',
      title: t('kit.actions'),
      fixed: 'right',
      render: (_, row) => (row.days_left !== null && row.days_left < 0 ? <WriteOff row={row} /> : null),
    });
  }

  const table =
    list.isError && !list.data ? (
      <LoadFailed error={list.error} retry={list.refetch} retrying={list.isFetching} />
    ) : (
      <div data-testid="batches-table">
        <Table<StockBatch>
          rowKey={(row) => `${row.store_id}-${row.batch_id}`}
          size="middle"
          columns={columns}
          dataSource={list.data?.data}
          loading={list.isFetching}
          {...fitTable}
          locale={{ emptyText: tab === 'expired' ? t('expired.noneExpired') : t('expired.noneExpiring', { days }) }}
          pagination={pagination(t, state, list.data?.meta)}
          onChange={tableChange(state, update)}
        />
      </div>
    );

  return (
    <TableCard
      title={t('menu.expired_products')}
      filters={
        <>
          <SearchBox state={state} update={update} placeholder={t('stock.searchHint')} width={300} />
          <StoreFilter value={state.filters.store_id} onChange={(next) => update({ 'filter[store_id]': next })} />
          {tab === 'expiring' && <DaysInput days={days} onChange={(next) => update({ days: String(next) })} />}
        </>
      }
    >
      <Tabs
        activeKey={tab}
        onChange={(next) => update({ tab: next === 'expiring' ? 'expiring' : undefined })}
        items={[
          { key: 'expired', label: <span data-testid="tab-expired">{t('expired.tabExpired')}</span> },
          {
            key: 'expiring',
            label: <span data-testid="tab-expiring">{t('expired.tabExpiring', { days })}</span>,
          },
        ]}
      />
      {table}
    </TableCard>
  );
}
