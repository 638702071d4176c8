import { FileExcelOutlined, FilePdfOutlined, PrinterOutlined } from '@ant-design/icons';
import {
  REPORT_GROUPS,
  type ReportGroup,
  type ReportName,
  reportPresets,
  reportResponse,
  todayInCambodia,
} from '@depot/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { App, Button, Card, Flex, Result, Segmented, Skeleton, Space, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useCtx } from '../../kit/useCtx.ts';
import '../../lib/dates.ts';
import { PageTitle } from '../../kit/PageTitle.tsx';
import { api, download } from '../../lib/http.ts';
import { BrandSelect, CategorySelect } from '../../resources/catalogue.tsx';
import { Chart } from './Chart.tsx';
import { FigureGrid, formatBucket, label, SectionTable } from './figures.tsx';
import { PeriodAndStore } from './PeriodFilter.tsx';

const PRESETS = ['today', 'yesterday', 'week', 'month', 'last_month'] as const;

/** The filters that fit each report, besides dates, store and grouping. */
const FILTERS: Record<ReportName, ('category_id' | 'brand_id')[]> = {
  sales: ['category_id', 'brand_id'],
  inventory: ['category_id', 'brand_id'],
  financial: [],
  customer: [],
};

/**
 * One page for the four reports (/reports/sales, …): the filters live in the address (a link or a
 * dashboard tile opens the very view), figures with the previous period, a chart, the tables,
 * Excel and PDF made by the server, and the browser's print.
 */
export function ReportPage({ name }: { name: ReportName }) {
  const { t, locale } = useCtx();
  const { message } = App.useApp();
  const [params, setParams] = useSearchParams();
  const today = todayInCambodia();
  const presets = reportPresets(today);
  const from = params.get('from') ?? presets.month[0];
  const to = params.get('to') ?? presets.month[1];
  const group = (REPORT_GROUPS as readonly string[]).includes(params.get('group') ?? '')
    ? (params.get('group') as ReportGroup)
    : 'day';
  const compare = params.get('compare') !== 'false';
  const storeId = params.get('store_id');
  const filters = FILTERS[name];
  const [exporting, setExporting] = useState<'xlsx' | 'pdf' | null>(null);

  const query = new URLSearchParams({ from, to, group, compare: String(compare) });
  if (storeId) query.set('store_id', storeId);
  for (const f of filters) if (params.get(f)) query.set(f, params.get(f) as string);

  const report = useQuery({
    queryKey: ['reports', name, query.toString()],
    queryFn: async ({ signal }) => (await api(`reports/${name}?${query}`, { signal, schema: reportResponse })).data,
    placeholderData: keepPreviousData,
  });

  const set = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null || v === '') next.delete(k);
      else next.set(k, v);
    }
    setParams(next, { replace: true });
  };

  const exportAs = async (format: 'xlsx' | 'pdf') => {
    setExporting(format);
    try {
      await download(`reports/${name}/export?${query}&format=${format}`, `${name}-${from}-${to}.${format}`);
    } catch (error) {
      message.error(error instanceof Error ? error.message : String(error));
    } finally {
      setExporting(null);
    }
  };

  const activePreset = PRESETS.find((p) => presets[p][0] === from && presets[p][1] === to);
  const data = report.data;
  const previousName = t('reports.previous');

  return (
    <Flex vertical gap={16} data-testid={`report-${name}`}>
      <Flex justify="space-between" align="center" wrap gap={8}>
        <PageTitle>{label(`report.${name}`, locale)}</PageTitle>
        <Space wrap className="no-print">
          <Button icon={<FileExcelOutlined />} loading={exporting === 'xlsx'} onClick={() => void exportAs('xlsx')}>
            {t('reports.exportXlsx')}
          </Button>
          <Button icon={<FilePdfOutlined />} loading={exporting === 'pdf'} onClick={() => void exportAs('pdf')}>
            {t('reports.exportPdf')}
          </Button>
          <Button icon={<PrinterOutlined />} onClick={() => window.print()}>
            {t('reports.print')}
          </Button>
        </Space>
      </Flex>

      <Card size="small" className="no-print">
        <Flex wrap gap={12} align="center">
          <Segmented
            data-testid="report-presets"
            value={activePreset ?? ''}
            options={PRESETS.map((p) => ({ value: p, label: t(`reports.presets.${p}`) }))}
            onChange={(p) =>
              set({ from: presets[p as (typeof PRESETS)[number]][0], to: presets[p as (typeof PRESETS)[number]][1] })
            }
          />
          <PeriodAndStore from={from} to={to} storeId={storeId} set={set} storeTestId="report-store" />
          {filters.includes('category_id') && (
            <div style={{ minWidth: 200 }}>
              <CategorySelect
                allowClear
                aria-label={t('reports.category')}
                style={{ width: '100%' }}
                placeholder={t('reports.category')}
                value={params.get('category_id') ? Number(params.get('category_id')) : null}
                onChange={(v) => set({ category_id: v ? String(v) : null })}
              />
            </div>
          )}
          {filters.includes('brand_id') && (
            <div style={{ minWidth: 200 }}>
              <BrandSelect
                allowClear
                aria-label={t('reports.brand')}
                style={{ width: '100%' }}
                placeholder={t('reports.brand')}
                value={params.get('brand_id') ? Number(params.get('brand_id')) : null}
                onChange={(v) => set({ brand_id: v ? String(v) : null })}
              />
            </div>
          )}
          <Space>
            <Typography.Text>{t('reports.group')}</Typography.Text>
            <Segmented
              data-testid="report-group"
              value={group}
              options={REPORT_GROUPS.map((g) => ({ value: g, label: t(`reports.groups.${g}`) }))}
              onChange={(g) => set({ group: String(g) })}
            />
          </Space>
          <Space>
            <Switch
              checked={compare}
              onChange={(on) => set({ compare: on ? null : 'false' })}
              aria-label={t('reports.compare')}
            />
            <Typography.Text>{t('reports.compare')}</Typography.Text>
          </Space>
        </Flex>
      </Card>

      {report.isPending ? (
        <Card>
          <Skeleton active paragraph={{ rows: 8 }} />
        </Card>
      ) : report.isError ? (
        <Result
          status="error"
          title={report.error instanceof Error ? report.error.message : t('errors.loadData')}
          extra={
            <Button type="primary" onClick={() => void report.refetch()}>
              {t('common.retry')}
            </Button>
          }
        />
      ) : data ? (
        <>
          <Typography.Text type="secondary" data-testid="report-period">
            {label('report.period', locale)}: {formatBucket(data.from, 'day', locale)} –{' '}
            {formatBucket(data.to, 'day', locale)}
            {data.previous_from && data.previous_to
              ? ` · ${previousName}: ${formatBucket(data.previous_from, 'day', locale)} – ${formatBucket(data.previous_to, 'day', locale)}`
              : ''}
            {!data.costs && (name === 'sales' || name === 'financial' || name === 'inventory')
              ? ` · ${t('reports.noCosts')}`
              : ''}
          </Typography.Text>
          <FigureGrid figures={data.summary} locale={locale} />
          <Card size="small" title={label('report.series', locale)}>
            <Chart
              testId="report-chart"
              locale={locale}
              categories={data.series.points.map((p) => formatBucket(p.bucket, data.group, locale))}
              series={[
                // the first figure (net sales, stock received, buyers) as bars, the others have their own scale
                ...data.series.keys.slice(0, name === 'inventory' ? 2 : 1).map((k) => ({
                  name: label(`report.field.${k}`, locale),
                  kind: k.endsWith('_cents') ? 'money' : 'count',
                  data: data.series.points.map((p) => p.values[k] ?? 0),
                  type: 'bar' as const,
                })),
                ...(data.series.previous
                  ? [
                      {
                        name: `${label(`report.field.${data.series.keys[0]}`, locale)} (${previousName})`,
                        kind: data.series.keys[0].endsWith('_cents') ? 'money' : 'count',
                        // the previous period's buckets laid beside this one's, position by position
                        data: data.series.points.map(
                          (_, i) => data.series.previous?.[i]?.values[data.series.keys[0]] ?? 0,
                        ),
                        type: 'line' as const,
                        dashed: true,
                      },
                    ]
                  : []),
              ]}
            />
          </Card>
          {data.sections.map((s) => (
            <SectionTable key={s.key} section={s} locale={locale} />
          ))}
        </>
      ) : null}
    </Flex>
  );
}

export function SalesReportPage() {
  return <ReportPage name="sales" />;
}
export function FinancialReportPage() {
  return <ReportPage name="financial" />;
}
export function InventoryReportPage() {
  return <ReportPage name="inventory" />;
}
export function CustomerReportPage() {
  return <ReportPage name="customer" />;
}
