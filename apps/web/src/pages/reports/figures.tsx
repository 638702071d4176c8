import {
  formatCount,
  formatKhr,
  formatPercent,
  formatUsd,
  type Locale,
  type MessageKey,
  messages,
  type ReportFigure,
  type ReportSection,
  translate,
} from '@depot/contracts';
import { Card, Col, Empty, Row, Statistic, Table, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDate, monthName } from '../../lib/dates.ts';
import { localePath } from '../../lib/locale.ts';

/** A report's label (`report.field.*`, `report.section.*`, a value's key), in the page's language. */
export function label(key: string, locale: Locale): string {
  return key in messages ? translate(key as MessageKey, locale) : key;
}

/** A bucket of the series as its group reads: a day, the week starting on it, a month. */
export function formatBucket(bucket: string, group: string, locale: Locale): string {
  if (group === 'month') {
    const [y, m] = bucket.split('-').map(Number);
    return `${monthName(m, locale)} ${y}`;
  }
  return formatDate(bucket, locale);
}

/** A figure or a cell as people read it. */
export function formatValue(
  value: unknown,
  kind: string,
  locale: Locale,
  row?: Record<string, unknown>,
  key?: string,
): string {
  if (value === null || value === undefined || value === '') return '—';
  switch (kind) {
    case 'money':
      return formatUsd(Number(value));
    case 'riel':
    case 'rate':
      return formatKhr(Number(value));
    case 'percent':
      return formatPercent(Number(value), { fixed: true });
    case 'count':
      return formatCount(Number(value));
    case 'date':
      return formatDate(String(value), locale);
  }
  const text = String(value);
  if (text.startsWith('report.')) return label(text, locale);
  if (locale === 'kh' && row && key && typeof row[`${key}_kh`] === 'string' && row[`${key}_kh`]) {
    return String(row[`${key}_kh`]);
  }
  return text;
}

/** A headline figure with its previous period and the change. */
export function FigureCard({ figure, locale, testId }: { figure: ReportFigure; locale: Locale; testId?: string }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const change =
    figure.previous !== null && figure.value !== null && figure.previous !== 0 && figure.kind !== 'percent'
      ? ((figure.value - figure.previous) / Math.abs(figure.previous)) * 100
      : null;
  const body = (
    <Card size="small" hoverable={Boolean(figure.link)} data-testid={testId ?? `figure-${figure.key}`}>
      <Statistic
        title={label(`report.field.${figure.key}`, locale)}
        value={formatValue(figure.value, figure.kind, locale)}
      />
      {figure.previous !== null && (
        <Typography.Text type="secondary" style={{ fontSize: 13 }}>
          {t('dashboard.previous', { value: formatValue(figure.previous, figure.kind, locale) })}
          {change !== null && (
            <span style={{ color: change >= 0 ? token.colorSuccess : token.colorError, marginInlineStart: 8 }}>
              {change >= 0 ? '▲' : '▼'} {Math.abs(change).toFixed(1)}%
            </span>
          )}
        </Typography.Text>
      )}
    </Card>
  );
  return figure.link ? <Link to={localePath(figure.link, locale)}>{body}</Link> : body;
}

export function FigureGrid({ figures, locale }: { figures: ReportFigure[]; locale: Locale }) {
  return (
    <Row gutter={[12, 12]}>
      {figures.map((f) => (
        <Col key={f.key} xs={12} md={8} xl={6}>
          <FigureCard figure={f} locale={locale} />
        </Col>
      ))}
    </Row>
  );
}

/** One of a report's tables. */
export function SectionTable({ section, locale }: { section: ReportSection; locale: Locale }) {
  const { t } = useTranslation();
  return (
    <Card
      size="small"
      title={label(`report.section.${section.key}`, locale)}
      data-testid={`section-${section.key}`}
      className="report-section"
    >
      {section.rows.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('reports.empty')} />
      ) : (
        <Table
          size="small"
          className="fit-table"
          pagination={section.rows.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
          rowKey="__key"
          dataSource={section.rows.map((r, i) => ({ ...r, __key: i }))}
          scroll={{ x: 'max-content' }}
          columns={section.columns.map((c) => ({
            key: c.key,
            title: label(`report.field.${c.key}`, locale),
            dataIndex: c.key,
            align: c.kind === 'text' || c.kind === 'date' ? ('left' as const) : ('right' as const),
            render: (value: unknown, row: Record<string, unknown>) => formatValue(value, c.kind, locale, row, c.key),
          }))}
        />
      )}
    </Card>
  );
}
