import { CloudDownloadOutlined, SaveOutlined } from '@ant-design/icons';
import {
  DEFAULT_PER_PAGE,
  formatKhr,
  OFFICIAL_RATE_KINDS,
  type OfficialRate,
  officialRate,
  officialRateInput,
  RATE_KHR_MAX,
  RATE_KHR_MIN,
  todayInCambodia,
  written,
} from '@depot/contracts';
import { App, Button, Card, Col, Flex, Form, Input, InputNumber, Row, Select, Table, Tag } from 'antd';
import { useState } from 'react';
import { LoadFailed } from '../../kit/listState.tsx';
import { failureMessage, usePage, useRefreshAll } from '../../kit/queries.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { useCan } from '../../lib/access.tsx';
import { formatDateTime } from '../../lib/dates.ts';
import { parseWith, useFieldErrors } from '../../lib/forms.ts';
import { ApiError, api } from '../../lib/http.ts';

/**
 * The published rates an invoice's riel total is issued at (contracts tax.ts `taxRate`): the
 * National Bank's of a day and the tax office's of a month, entered by hand or fetched from the
 * NBC's feed (DEPOT_RATE_FEED_URL); their history, newest first.
 */
export function OfficialRatesCard() {
  const { t, locale } = useCtx();
  const { message } = App.useApp();
  const refresh = useRefreshAll();
  const canSet = useCan('exchange_rates.update');
  const [page, setPage] = useState(1);
  const list = usePage('official-rates', officialRate, `page=${page}&per_page=${DEFAULT_PER_PAGE}`);
  const [values, setValues] = useState<Record<string, unknown>>({ kind: 'nbc_daily', date: todayInCambodia() });
  const [busy, setBusy] = useState<'save' | 'fetch' | null>(null);
  const { item, setErrors, clear } = useFieldErrors();
  const set = (key: string, value: unknown) => {
    setValues((current) => ({ ...current, [key]: value }));
    clear(key);
  };

  const send = async (what: 'save' | 'fetch') => {
    let body: unknown;
    if (what === 'save') {
      const parsed = parseWith(officialRateInput, values, locale);
      if (!parsed.data) {
        setErrors(parsed.errors);
        return;
      }
      body = parsed.data;
    }
    setBusy(what);
    try {
      const done = await api(what === 'save' ? 'official-rates' : 'official-rates/fetch', {
        method: 'POST',
        body,
        schema: written(officialRate),
      });
      void message.success(done.message);
      void refresh();
    } catch (error) {
      if (error instanceof ApiError && error.status === 422 && error.body?.errors) setErrors(error.body.errors);
      else void message.error(failureMessage(error, locale));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card title={t('tax.official')} data-testid="official-rates">
      {canSet && (
        <Form layout="vertical" requiredMark={false} disabled={busy !== null}>
          <Row gutter={16}>
            <Col xs={24} md={8}>
              <Form.Item label={t('fields.type')} htmlFor="official-kind" {...item('kind')}>
                <Select<string>
                  id="official-kind"
                  value={values.kind as string}
                  onChange={(next) => set('kind', next)}
                  options={OFFICIAL_RATE_KINDS.map((kind) => ({ value: kind, label: t(`tax.officialKind.${kind}`) }))}
                  virtual={false}
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item label={t('tax.officialDate')} htmlFor="official-date" {...item('date')}>
                <Input
                  id="official-date"
                  type="date"
                  value={values.date as string}
                  onChange={(event) => set('date', event.target.value)}
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item label={t('tax.officialRate')} htmlFor="official-rate" {...item('rate_khr')}>
                <InputNumber<number>
                  id="official-rate"
                  data-testid="official-rate-input"
                  style={{ width: '100%' }}
                  min={RATE_KHR_MIN}
                  max={RATE_KHR_MAX}
                  precision={0}
                  suffix="៛"
                  value={(values.rate_khr as number | undefined) ?? null}
                  onChange={(next) => set('rate_khr', next ?? undefined)}
                />
              </Form.Item>
            </Col>
          </Row>
          <Flex gap={8} wrap style={{ marginBottom: 16 }}>
            <Button type="primary" icon={<SaveOutlined />} loading={busy === 'save'} onClick={() => void send('save')}>
              {t('tax.enter')}
            </Button>
            <Button icon={<CloudDownloadOutlined />} loading={busy === 'fetch'} onClick={() => void send('fetch')}>
              {t('tax.fetch')}
            </Button>
          </Flex>
        </Form>
      )}
      {list.isError && !list.data ? (
        <LoadFailed error={list.error} retry={list.refetch} retrying={list.isFetching} />
      ) : (
        <Table<OfficialRate>
          rowKey="id"
          size="small"
          scroll={{ x: 'max-content' }}
          loading={list.isFetching}
          dataSource={list.data?.data ?? []}
          pagination={{
            current: page,
            pageSize: DEFAULT_PER_PAGE,
            total: list.data?.meta.total ?? 0,
            onChange: setPage,
            showSizeChanger: false,
          }}
          columns={[
            { key: 'kind', title: t('fields.type'), render: (_, row) => t(`tax.officialKind.${row.kind}`) },
            {
              key: 'date',
              title: t('tax.officialDate'),
              render: (_, row) => (row.kind === 'gdt_monthly' ? row.date.slice(0, 7) : row.date),
            },
            { key: 'rate', title: t('tax.officialRate'), align: 'end', render: (_, row) => formatKhr(row.rate_khr) },
            {
              key: 'source',
              title: t('tax.rate'),
              render: (_, row) => (
                <Tag>
                  {t(`tax.officialSource.${row.source}`)}
                  {row.created_by_name ? ` · ${row.created_by_name}` : ''}
                </Tag>
              ),
            },
            { key: 'at', title: t('rates.updated'), render: (_, row) => formatDateTime(row.created_at, locale) },
          ]}
        />
      )}
    </Card>
  );
}
