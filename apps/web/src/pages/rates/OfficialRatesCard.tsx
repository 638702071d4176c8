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
import { Alert, App, Button, Card, Col, Flex, Form, Input, InputNumber, Row, Select, Table, Tag } from 'antd';
import { useState } from 'react';
import { LoadFailed } from '../../kit/listState.tsx';
import { failureMessage, usePage, useRefreshAll } from '../../kit/queries.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { useCan } from '../../lib/access.tsx';
import { formatDateTime } from '../../lib/dates.ts';
import { useFormCheck } from '../../lib/forms.ts';
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
  const [busy, setBusy] = useState<'save' | 'fetch' | null>(null);
  const [form] = Form.useForm();
  const { problem, place, check, edited } = useFormCheck(form, ['kind', 'date', 'rate_khr'], locale);

  const send = async (what: 'save' | 'fetch') => {
    let body: unknown;
    if (what === 'save') {
      body = check(officialRateInput);
      if (!body) return;
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
      if (error instanceof ApiError && error.status === 422 && error.body?.errors) place(error.body.errors);
      else void message.error(failureMessage(error, locale));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card title={t('tax.official')} data-testid="official-rates">
      {canSet && (
        <Form
          form={form}
          layout="vertical"
          requiredMark={false}
          disabled={busy !== null}
          initialValues={{ kind: 'nbc_daily', date: todayInCambodia() }}
          onValuesChange={edited}
        >
          {problem && <Alert type="error" showIcon title={problem} style={{ marginBottom: 16 }} />}
          <Row gutter={16}>
            <Col xs={24} md={8}>
              <Form.Item name="kind" label={t('fields.type')} htmlFor="official-kind">
                <Select<string>
                  id="official-kind"
                  options={OFFICIAL_RATE_KINDS.map((kind) => ({ value: kind, label: t(`tax.officialKind.${kind}`) }))}
                  virtual={false}
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="date" label={t('tax.officialDate')} htmlFor="official-date">
                <Input id="official-date" type="date" />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item
                name="rate_khr"
                label={t('tax.officialRate')}
                htmlFor="official-rate"
                normalize={(next) => next ?? undefined}
              >
                <InputNumber<number>
                  id="official-rate"
                  data-testid="official-rate-input"
                  style={{ width: '100%' }}
                  min={RATE_KHR_MIN}
                  max={RATE_KHR_MAX}
                  precision={0}
                  suffix="៛"
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
