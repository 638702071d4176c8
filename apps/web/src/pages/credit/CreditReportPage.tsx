import { AGEING_BUCKETS, type CreditReport, creditReport, formatUsd, single } from '@depot/contracts';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Flex, Segmented, Skeleton, Table, Typography } from 'antd';
import { useState } from 'react';
import { LoadFailed } from '../../kit/listState.tsx';
import { resourceKey } from '../../kit/queries.ts';
import { fitTable } from '../../kit/table.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { useCan } from '../../lib/access.tsx';
import { api } from '../../lib/http.ts';

import type { Party } from './account.ts';
import { CreditDrawer } from './CreditDrawer.tsx';

type Row = CreditReport['rows'][number];

/**
 * Receivables and payables: what each customer owes and what the depot owes each
 * supplier now, aged by days past due, with the totals; a name opens the account. Scoped by the
 * server to the user's stores; payables need costs.view.
 */
export function CreditReportPage() {
  const { t } = useCtx();
  const seesPayables = useCan('costs.view');
  const [party, setParty] = useState<Party>('customers');
  const [open, setOpen] = useState<{ id: number; name: string } | null>(null);
  const path = party === 'customers' ? 'credit/receivables' : 'credit/payables';
  const report = useQuery({
    queryKey: resourceKey('credit', party),
    queryFn: async ({ signal }) => (await api(path, { signal, schema: single(creditReport) })).data,
  });
  return (
    <Flex vertical gap={16}>
      <Flex justify="space-between" align="center" wrap gap={12}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {t('credit.reportTitle')}
        </Typography.Title>
        <Segmented<Party>
          value={party}
          onChange={setParty}
          options={[
            { value: 'customers', label: t('credit.receivables') },
            ...(seesPayables ? [{ value: 'suppliers' as const, label: t('credit.payables') }] : []),
          ]}
          data-testid="credit-report-party"
        />
      </Flex>
      <Card>
        {report.isError && !report.data ? (
          <LoadFailed error={report.error} retry={report.refetch} retrying={report.isFetching} />
        ) : !report.data ? (
          <Skeleton active />
        ) : (
          <Table<Row>
            size="small"
            rowKey="id"
            pagination={false}
            dataSource={report.data.rows}
            data-testid="credit-report"
            locale={{ emptyText: t('credit.nothingOwed') }}
            {...fitTable}
            columns={[
              {
                key: 'name',
                title: party === 'customers' ? t('credit.customer') : t('credit.supplier'),
                render: (_, r) => (
                  <Button type="link" size="small" onClick={() => setOpen({ id: r.id, name: r.name })}>
                    {r.name}
                  </Button>
                ),
              },
              ...(party === 'customers'
                ? [
                    {
                      key: 'limit',
                      title: t('credit.limit'),
                      align: 'end' as const,
                      render: (_: unknown, r: Row) =>
                        r.credit_limit_cents === null ? t('credit.noLimit') : formatUsd(r.credit_limit_cents),
                    },
                  ]
                : []),
              {
                key: 'terms',
                title: t('credit.terms'),
                render: (_, r) => t('credit.days', { count: r.payment_terms_days }),
              },
              ...AGEING_BUCKETS.map((bucket) => ({
                key: bucket,
                title: t(`credit.bucket.${bucket}`),
                align: 'end' as const,
                render: (_: unknown, r: Row) => (r.ageing[bucket] ? formatUsd(r.ageing[bucket]) : '—'),
              })),
              {
                key: 'balance',
                title: t('credit.balance'),
                align: 'end',
                render: (_, r) => <strong>{formatUsd(r.balance_cents)}</strong>,
              },
            ]}
            summary={() => (
              <Table.Summary.Row>
                <Table.Summary.Cell index={0} colSpan={party === 'customers' ? 3 : 2}>
                  <strong>{t('credit.total')}</strong>
                </Table.Summary.Cell>
                {AGEING_BUCKETS.map((bucket, i) => (
                  <Table.Summary.Cell key={bucket} index={i + 3} align="end">
                    {formatUsd(report.data.ageing[bucket])}
                  </Table.Summary.Cell>
                ))}
                <Table.Summary.Cell index={9} align="end">
                  <strong data-testid="credit-report-total">{formatUsd(report.data.total_cents)}</strong>
                </Table.Summary.Cell>
              </Table.Summary.Row>
            )}
          />
        )}
      </Card>
      {open && <CreditDrawer party={party} id={open.id} name={open.name} onClose={() => setOpen(null)} />}
    </Flex>
  );
}
