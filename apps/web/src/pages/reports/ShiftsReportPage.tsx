import { PrinterOutlined } from '@ant-design/icons';
import { type ShiftDifferenceRow, shiftDifferenceRow, single, todayInCambodia } from '@depot/contracts';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Flex, Table, Typography } from 'antd';
import dayjs from 'dayjs';
import { useSearchParams } from 'react-router';
import { z } from 'zod';
import { LoadFailed } from '../../kit/listState.tsx';
import { fitTable } from '../../kit/table.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { formatDate } from '../../lib/dates.ts';
import { api } from '../../lib/http.ts';
import { differenceText } from '../../resources/shifts.tsx';
import { PeriodAndStore } from './PeriodFilter.tsx';

/**
 * `/reports/shifts`: the differences of closed shifts per cashier and day, in dollars and riel, with
 * each cashier's total over the range (who is short, how often). The range and store are in the address.
 */
export function ShiftsReportPage() {
  const { t, locale } = useCtx();
  const [params, setParams] = useSearchParams();
  const today = todayInCambodia();
  const from = params.get('from') ?? dayjs(today).subtract(29, 'day').format('YYYY-MM-DD');
  const to = params.get('to') ?? today;
  const storeId = params.get('store_id');
  const set = (next: Record<string, string | null>) =>
    setParams(
      (current) => {
        const changed = new URLSearchParams(current);
        for (const [key, value] of Object.entries(next)) {
          if (value) changed.set(key, value);
          else changed.delete(key);
        }
        return changed;
      },
      { replace: true },
    );
  const query = `from=${from}&to=${to}${storeId ? `&store_id=${storeId}` : ''}`;
  const rows = useQuery({
    queryKey: ['reports', 'shifts', query],
    queryFn: () => api(`reports/shifts?${query}`, { schema: single(z.array(shiftDifferenceRow)) }).then((r) => r.data),
  });
  const totals = new Map<number, ShiftDifferenceRow>();
  for (const row of rows.data ?? []) {
    const sum = totals.get(row.user_id);
    totals.set(
      row.user_id,
      sum
        ? {
            ...sum,
            shifts: sum.shifts + row.shifts,
            difference_usd_cents: sum.difference_usd_cents + row.difference_usd_cents,
            difference_khr: sum.difference_khr + row.difference_khr,
          }
        : { ...row, day: '' },
    );
  }
  const columns = (withDay: boolean) => [
    ...(withDay
      ? [
          {
            key: 'day',
            title: t('shiftReport.day'),
            render: (_: unknown, r: ShiftDifferenceRow) => formatDate(r.day, locale),
          },
        ]
      : []),
    { key: 'user', title: t('shifts.cashier'), render: (_: unknown, r: ShiftDifferenceRow) => r.user_name ?? '—' },
    { key: 'shifts', title: t('shiftReport.shifts'), align: 'end' as const, dataIndex: 'shifts' },
    {
      key: 'usd',
      title: t('shiftReport.usd'),
      align: 'end' as const,
      render: (_: unknown, r: ShiftDifferenceRow) => differenceText(r.difference_usd_cents, 'usd'),
    },
    {
      key: 'khr',
      title: t('shiftReport.khr'),
      align: 'end' as const,
      render: (_: unknown, r: ShiftDifferenceRow) => differenceText(r.difference_khr, 'khr'),
    },
  ];
  return (
    <Flex vertical gap={16}>
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('menu.report_shifts')}
        </Typography.Title>
        <Button icon={<PrinterOutlined />} onClick={() => window.print()} className="no-print">
          {t('reports.print')}
        </Button>
      </Flex>
      <Card size="small" className="no-print">
        <Flex wrap gap={12} align="center">
          <PeriodAndStore from={from} to={to} storeId={storeId} set={set} />
        </Flex>
      </Card>
      {rows.isError && !rows.data ? (
        <LoadFailed error={rows.error} retry={rows.refetch} retrying={rows.isFetching} />
      ) : (
        <>
          <Card size="small" title={t('shiftReport.byCashier')}>
            <Table
              size="small"
              rowKey="user_id"
              pagination={false}
              loading={rows.isPending}
              dataSource={[...totals.values()]}
              data-testid="shift-report-cashiers"
              {...fitTable}
              columns={columns(false)}
            />
          </Card>
          <Card size="small" title={t('shiftReport.byDay')}>
            <Table
              size="small"
              rowKey={(r) => `${r.day}-${r.user_id}`}
              pagination={false}
              loading={rows.isPending}
              dataSource={rows.data ?? []}
              data-testid="shift-report-days"
              {...fitTable}
              columns={columns(true)}
            />
          </Card>
        </>
      )}
    </Flex>
  );
}
