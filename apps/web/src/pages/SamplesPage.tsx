import { CloudDownloadOutlined, DeleteOutlined, ExperimentOutlined } from '@ant-design/icons';
import {
  formatCount,
  SAMPLE_PLAN,
  SAMPLE_TABLES,
  type SampleState,
  sampleState,
  single,
  written,
} from '@depot/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Flex, Popconfirm, Progress, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { Loaded } from '../kit/listState.tsx';
import { PageTitle } from '../kit/PageTitle.tsx';
import { failureMessage, resourceKey, useRefreshAll } from '../kit/queries.ts';
import { useCtx } from '../kit/useCtx.ts';
import { formatDateTime } from '../lib/dates.ts';
import { api } from '../lib/http.ts';

/**
 * `/samples`: the sample data, an administrator's. What a load adds, whether it is loaded (when,
 * by whom, how many records of each table), a load with its progress (read from the records the
 * server has made so far) and a removal after a confirmation. The buttons follow the abilities
 * the server sends.
 */

const STATUS_COLOURS: Record<SampleState['status'], string> = {
  none: 'default',
  loading: 'processing',
  loaded: 'success',
  removing: 'processing',
  failed: 'error',
};

/** What a whole load writes of the records counted for its progress. */
const EXPECTED = SAMPLE_PLAN.products + SAMPLE_PLAN.purchases + SAMPLE_PLAN.orders;

function Plan() {
  const { t } = useCtx();
  const lines = [
    t('samples.planProducts', { count: SAMPLE_PLAN.products }),
    t('samples.planCatalogue', {
      brands: SAMPLE_PLAN.brands,
      categories: SAMPLE_PLAN.categories,
      units: SAMPLE_PLAN.units,
    }),
    t('samples.planParties', { suppliers: SAMPLE_PLAN.suppliers, customers: SAMPLE_PLAN.customers }),
    t('samples.planStore'),
    t('samples.planPurchases', { count: SAMPLE_PLAN.purchases }),
    t('samples.planSales', { count: SAMPLE_PLAN.orders, days: SAMPLE_PLAN.days }),
    t('samples.planCashier'),
  ];
  return (
    <Card title={t('samples.plan')} data-testid="samples-plan">
      <ul style={{ margin: 0, paddingInlineStart: 20 }}>
        {lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </Card>
  );
}

export function SamplesPage() {
  const { t, locale } = useCtx();
  const client = useQueryClient();
  const refreshAll = useRefreshAll();
  const [result, setResult] = useState<{ type: 'success' | 'error' | 'info'; text: string } | null>(null);
  const [working, setWorking] = useState(false);
  const state = useQuery({
    queryKey: resourceKey('samples'),
    queryFn: async ({ signal }) => (await api('samples', { signal, schema: single(sampleState) })).data,
    // while a load runs, its records are counted as they are made: the progress
    refetchInterval: (query) => (working || query.state.data?.status === 'loading' ? 1000 : false),
  });
  const answer = written(sampleState);
  const done = (next: { message: string; data: SampleState }) => {
    client.setQueryData(resourceKey('samples'), next.data);
    setResult({
      type: next.data.status === 'loaded' || next.data.status === 'none' ? 'success' : 'info',
      text: next.message,
    });
    void refreshAll();
  };
  const failed = (error: unknown) => {
    setResult({ type: 'error', text: failureMessage(error, locale) });
    void state.refetch();
  };
  const load = useMutation({
    mutationFn: () => api('samples', { method: 'POST', schema: answer }),
    onMutate: () => {
      setResult(null);
      setWorking(true);
    },
    onSuccess: done,
    onError: failed,
    onSettled: () => setWorking(false),
  });
  const remove = useMutation({
    mutationFn: () => api('samples', { method: 'DELETE', schema: answer }),
    onMutate: () => setResult(null),
    onSuccess: done,
    onError: failed,
  });

  const data = state.data;
  const counts = data?.counts ?? {};
  const made = (counts.products ?? 0) + (counts.purchases ?? 0) + (counts.orders ?? 0);
  const percent = Math.min(99, Math.round((100 * made) / EXPECTED));
  const loading = load.isPending || data?.status === 'loading';

  return (
    <Flex vertical gap={16}>
      <Card
        title={
          <PageTitle>
            <ExperimentOutlined /> {t('samples.title')}
          </PageTitle>
        }
      >
        <Typography.Paragraph>{t('samples.intro')}</Typography.Paragraph>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
          {t('samples.rule')}
        </Typography.Paragraph>
      </Card>
      <Plan />
      <Card title={t('samples.state')} data-testid="samples-state">
        <Loaded query={state}>
          {(data) => (
            <Flex vertical gap={16}>
              {result && <Alert type={result.type} showIcon title={result.text} data-testid="samples-result" />}
              <Descriptions
                size="small"
                column={{ xs: 1, md: 3 }}
                items={[
                  {
                    key: 'status',
                    label: t('samples.state'),
                    children: (
                      <Tag color={STATUS_COLOURS[data.status]} data-testid="samples-status">
                        {t(`samples.status.${data.status}`)}
                      </Tag>
                    ),
                  },
                  {
                    key: 'at',
                    label: t('samples.loadedAt'),
                    children: data.loaded_at ? formatDateTime(data.loaded_at, locale) : '—',
                  },
                  {
                    key: 'by',
                    label: t('samples.loadedBy'),
                    children: data.status === 'none' ? '—' : (data.loaded_by_name ?? t('samples.commandLine')),
                  },
                ]}
              />
              {loading && (
                <div data-testid="samples-progress">
                  <Typography.Text>{t('samples.loading', { percent })}</Typography.Text>
                  <Progress percent={percent} status="active" />
                </div>
              )}
              {data.status !== 'none' && (
                <Table
                  size="small"
                  rowKey="table"
                  pagination={false}
                  data-testid="samples-counts"
                  dataSource={SAMPLE_TABLES.map((table) => ({ table, count: counts[table] ?? 0 }))}
                  columns={[
                    { key: 'table', title: t('samples.records'), render: (_, row) => t(`samples.table.${row.table}`) },
                    { key: 'count', title: '#', align: 'right', render: (_, row) => formatCount(row.count) },
                  ]}
                />
              )}
              <Flex gap={8} wrap>
                {data.abilities.load && (
                  <Button
                    type="primary"
                    icon={<CloudDownloadOutlined />}
                    loading={loading}
                    onClick={() => load.mutate()}
                    data-testid="samples-load"
                  >
                    {t('samples.load')}
                  </Button>
                )}
                {data.abilities.remove && (
                  <Popconfirm
                    title={t('samples.confirmTitle')}
                    description={<div style={{ maxWidth: 420 }}>{t('samples.confirmText')}</div>}
                    okText={t('samples.confirmOk')}
                    okButtonProps={{ danger: true, id: 'samples-confirm' }}
                    cancelText={t('kit.cancel')}
                    onConfirm={() => remove.mutate()}
                  >
                    <Button
                      danger
                      icon={<DeleteOutlined />}
                      loading={remove.isPending}
                      disabled={loading}
                      data-testid="samples-remove"
                    >
                      {t('samples.remove')}
                    </Button>
                  </Popconfirm>
                )}
              </Flex>
            </Flex>
          )}
        </Loaded>
      </Card>
    </Flex>
  );
}
