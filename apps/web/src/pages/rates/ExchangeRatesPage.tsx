import { SaveOutlined, SwapOutlined, WarningOutlined } from '@ant-design/icons';
import {
  DEFAULT_PER_PAGE,
  type ExchangeRate,
  exchangeRate,
  exchangeRateInput,
  formatKhr,
  formatUsdCents,
  KHR_ROUNDING_STEPS,
  parseUsdCents,
  RATE_KHR_MAX,
  RATE_KHR_MIN,
  RATE_POLICIES,
  RECEIPT_TEXT_MAX,
  type SaleSettings,
  STALE_AFTER_HOURS_MAX,
  saleSettings,
  saleSettingsInput,
  written,
} from '@depot/contracts';
import { useMutation } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  Descriptions,
  Flex,
  Form,
  Input,
  InputNumber,
  Row,
  Select,
  Skeleton,
  Statistic,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { LoadFailed } from '../../kit/listState.tsx';
import { failureMessage, usePage, useRefreshAll } from '../../kit/queries.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { useCan } from '../../lib/access.tsx';
import { formatDateTime } from '../../lib/dates.ts';
import { percentText } from '../../lib/format.ts';
import { parseWith, useFieldErrors } from '../../lib/forms.ts';
import { ApiError, api } from '../../lib/http.ts';
import { ShiftSettingsCard } from '../shifts/ShiftSettingsCard.tsx';
import { OfficialRatesCard } from './OfficialRatesCard.tsx';
import { useCurrentRates, useSaleSettings } from './rates.tsx';

/**
 * `/exchange-rates`: the rate the tills sell at (with the rates for riel received and given), its
 * history, a new rate for who may set one; and the sale settings (VAT, riel step, when a rate is
 * stale, the receipt's title and footer) for who may read or change the settings.
 */

function RielRate({
  id,
  value,
  onChange,
  placeholder,
  testId,
}: {
  id: string;
  value: number | null;
  onChange: (value: number | null) => void;
  placeholder?: string;
  testId: string;
}) {
  return (
    <InputNumber<number>
      id={id}
      data-testid={testId}
      style={{ width: '100%' }}
      min={RATE_KHR_MIN}
      max={RATE_KHR_MAX}
      precision={0}
      suffix="៛"
      placeholder={placeholder}
      value={value}
      onChange={(next) => onChange(next ?? null)}
    />
  );
}

function NewRate() {
  const { t, locale } = useCtx();
  const { message } = App.useApp();
  const refresh = useRefreshAll();
  const [rate, setRate] = useState<number | null>(null);
  const [rateIn, setRateIn] = useState<number | null>(null);
  const [rateOut, setRateOut] = useState<number | null>(null);
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const { item, setErrors, clear } = useFieldErrors();
  const send = useMutation({
    mutationFn: (body: unknown) => api('exchange-rates', { method: 'POST', body, schema: written(exchangeRate) }),
  });

  const submit = async () => {
    setProblem(null);
    const parsed = parseWith(
      exchangeRateInput,
      { rate_khr: rate, rate_in_khr: rateIn, rate_out_khr: rateOut, note },
      locale,
    );
    if (!parsed.data) {
      setErrors(parsed.errors);
      return;
    }
    try {
      const done = await send.mutateAsync(parsed.data);
      void message.success(done.message);
      setRate(null);
      setRateIn(null);
      setRateOut(null);
      setNote('');
      void refresh();
    } catch (error) {
      if (error instanceof ApiError && error.status === 422 && error.body?.errors) {
        setErrors(error.body.errors);
        return;
      }
      setProblem(failureMessage(error, locale));
    }
  };

  return (
    <Card title={t('rates.newRate')} data-testid="new-rate">
      <Form layout="vertical" requiredMark={false} disabled={send.isPending}>
        {problem && <Alert type="error" showIcon title={problem} style={{ marginBottom: 16 }} />}
        <Row gutter={16}>
          <Col xs={24} md={8}>
            <Form.Item label={t('rates.rate')} htmlFor="rate-khr" {...item('rate_khr')}>
              <RielRate
                id="rate-khr"
                testId="rate-khr"
                value={rate}
                onChange={(next) => {
                  setRate(next);
                  clear('rate_khr');
                }}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item
              label={t('rates.rateIn')}
              htmlFor="rate-in"
              extra={t('rates.rateInHelp')}
              {...item('rate_in_khr')}
            >
              <RielRate
                id="rate-in"
                testId="rate-in"
                value={rateIn}
                placeholder={t('rates.sameAsRate')}
                onChange={(next) => {
                  setRateIn(next);
                  clear('rate_in_khr');
                }}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item
              label={t('rates.rateOut')}
              htmlFor="rate-out"
              extra={t('rates.rateOutHelp')}
              {...item('rate_out_khr')}
            >
              <RielRate
                id="rate-out"
                testId="rate-out"
                value={rateOut}
                placeholder={t('rates.sameAsRate')}
                onChange={(next) => {
                  setRateOut(next);
                  clear('rate_out_khr');
                }}
              />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item label={t('stock.note')} htmlFor="rate-note" {...item('note')}>
          <Input id="rate-note" maxLength={255} value={note} onChange={(event) => setNote(event.target.value)} />
        </Form.Item>
        <Button
          type="primary"
          icon={<SwapOutlined />}
          loading={send.isPending}
          onClick={() => void submit()}
          data-testid="save-rate"
        >
          {t('rates.save')}
        </Button>
      </Form>
    </Card>
  );
}

function History() {
  const { t, locale } = useCtx();
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(DEFAULT_PER_PAGE);
  const list = usePage('exchange-rates', exchangeRate, `page=${page}&per_page=${perPage}`);
  const rateOrSame = (value: number | null) => (value ? formatKhr(value) : '—');
  return (
    <Card title={t('rates.history')}>
      {list.isError && !list.data ? (
        <LoadFailed error={list.error} retry={list.refetch} retrying={list.isFetching} />
      ) : (
        <Table<ExchangeRate>
          data-testid="rate-history"
          size="small"
          rowKey="id"
          loading={list.isFetching}
          dataSource={list.data?.data}
          scroll={{ x: 'max-content' }}
          pagination={{
            current: page,
            pageSize: perPage,
            total: list.data?.meta.total ?? 0,
            onChange: (next, size) => {
              setPage(size !== perPage ? 1 : next);
              setPerPage(size);
            },
          }}
          columns={[
            { key: 'at', title: t('rates.setOn'), render: (_, row) => formatDateTime(row.created_at, locale) },
            { key: 'rate', title: t('rates.rate'), render: (_, row) => <strong>{formatKhr(row.rate_khr)}</strong> },
            { key: 'in', title: t('rates.rateIn'), render: (_, row) => rateOrSame(row.rate_in_khr) },
            { key: 'out', title: t('rates.rateOut'), render: (_, row) => rateOrSame(row.rate_out_khr) },
            { key: 'by', title: t('stock.by'), render: (_, row) => row.created_by_name ?? '—' },
            { key: 'note', title: t('stock.note'), render: (_, row) => row.note ?? '—' },
          ]}
        />
      )}
    </Card>
  );
}

/** VAT typed as a percentage ("10", "7.5"), held in basis points. */
function VatInput({ value, onChange }: { value: number; onChange: (bp: number | string) => void }) {
  const [text, setText] = useState(() => formatUsdCents(value).replace(/\.00$/, ''));
  return (
    <Input
      id="sale-vat"
      data-testid="sale-vat"
      inputMode="decimal"
      suffix="%"
      value={text}
      onChange={(event) => {
        setText(event.target.value);
        onChange(parseUsdCents(event.target.value) ?? event.target.value);
      }}
    />
  );
}

function SaleSettingsForm({ initial }: { initial: SaleSettings }) {
  const { t, locale } = useCtx();
  const { message } = App.useApp();
  const refresh = useRefreshAll();
  const canUpdate = useCan('settings.update');
  const [values, setValues] = useState<Record<string, unknown>>(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const { item, setErrors, clear } = useFieldErrors();
  const send = useMutation({
    mutationFn: (body: unknown) => api('settings/sale', { method: 'PUT', body, schema: written(saleSettings) }),
  });
  const set = (key: string, value: unknown) => {
    setValues((current) => ({ ...current, [key]: value }));
    clear(key);
  };

  const submit = async () => {
    setProblem(null);
    const parsed = parseWith(saleSettingsInput, values, locale);
    if (!parsed.data) {
      setErrors(parsed.errors);
      return;
    }
    try {
      const done = await send.mutateAsync(parsed.data);
      void message.success(done.message);
      void refresh();
    } catch (error) {
      if (error instanceof ApiError && error.status === 422 && error.body?.errors) {
        setErrors(error.body.errors);
        return;
      }
      setProblem(failureMessage(error, locale));
    }
  };

  return (
    <Form layout="vertical" requiredMark={false} disabled={!canUpdate || send.isPending} data-testid="sale-settings">
      {problem && <Alert type="error" showIcon title={problem} style={{ marginBottom: 16 }} />}
      <Row gutter={16}>
        <Col xs={24} md={8}>
          <Form.Item label={t('rates.vat')} htmlFor="sale-vat" {...item('vat_rate_bp')}>
            <VatInput value={initial.vat_rate_bp} onChange={(bp) => set('vat_rate_bp', bp)} />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item
            label={t('rates.step')}
            htmlFor="sale-step"
            extra={t('rates.stepHelp')}
            {...item('khr_rounding_step')}
          >
            <Select<number>
              id="sale-step"
              value={values.khr_rounding_step as number}
              onChange={(next) => set('khr_rounding_step', next)}
              options={KHR_ROUNDING_STEPS.map((step) => ({ value: step, label: formatKhr(step) }))}
              virtual={false}
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item label={t('rates.staleAfter')} htmlFor="sale-stale" {...item('stale_after_hours')}>
            <InputNumber<number>
              id="sale-stale"
              style={{ width: '100%' }}
              min={1}
              max={STALE_AFTER_HOURS_MAX}
              precision={0}
              suffix={t('rates.hours')}
              value={values.stale_after_hours as number}
              onChange={(next) => set('stale_after_hours', next)}
            />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item
        label={t('tax.policy')}
        htmlFor="sale-tax-rate"
        extra={t('tax.policyHelp')}
        {...item('tax_rate_policy')}
      >
        <Select<string>
          id="sale-tax-rate"
          data-testid="tax-rate-policy"
          value={values.tax_rate_policy as string}
          onChange={(next) => set('tax_rate_policy', next)}
          options={RATE_POLICIES.map((policy) => ({ value: policy, label: t(`tax.policies.${policy}`) }))}
          virtual={false}
        />
      </Form.Item>
      <Form.Item
        label={t('rates.receiptTitle')}
        htmlFor="sale-title"
        extra={t('rates.receiptTitleHelp')}
        {...item('receipt_title')}
      >
        <Input
          id="sale-title"
          maxLength={RECEIPT_TEXT_MAX}
          value={values.receipt_title as string}
          onChange={(event) => set('receipt_title', event.target.value)}
        />
      </Form.Item>
      <Form.Item label={t('rates.receiptFooter')} htmlFor="sale-footer" {...item('receipt_footer')}>
        <Input.TextArea
          id="sale-footer"
          rows={2}
          maxLength={RECEIPT_TEXT_MAX}
          value={values.receipt_footer as string}
          onChange={(event) => set('receipt_footer', event.target.value)}
        />
      </Form.Item>
      {canUpdate && (
        <Button type="primary" icon={<SaveOutlined />} loading={send.isPending} onClick={() => void submit()}>
          {t('kit.save')}
        </Button>
      )}
    </Form>
  );
}

function SaleSettingsCard() {
  const { t } = useCtx();
  const { query } = useSaleSettings();
  return (
    <Card title={t('rates.saleSettings')}>
      {query.isError && !query.data ? (
        <LoadFailed error={query.error} retry={query.refetch} retrying={query.isFetching} />
      ) : query.data ? (
        <SaleSettingsForm key={JSON.stringify(query.data)} initial={query.data} />
      ) : (
        <Skeleton active />
      )}
    </Card>
  );
}

export function ExchangeRatesPage() {
  const { t, locale } = useCtx();
  const rates = useCurrentRates();
  const canSet = useCan('exchange_rates.update');
  const canSettings = useCan('settings.view');
  const canShifts = useCan('shifts.list');
  const data = rates.data;
  return (
    <Flex vertical gap={16}>
      <Card
        title={
          <Typography.Title level={2} style={{ margin: 0, fontSize: 20 }}>
            {t('menu.exchange_rates')}
          </Typography.Title>
        }
      >
        {rates.isError && !data ? (
          <LoadFailed error={rates.error} retry={rates.refetch} retrying={rates.isFetching} />
        ) : !data ? (
          <Skeleton active />
        ) : (
          <Flex vertical gap={16} data-testid="current-rate">
            {data.stale && (
              <Alert
                type="warning"
                showIcon
                icon={<WarningOutlined />}
                title={t('rates.staleWarning', { hours: data.stale_after_hours })}
              />
            )}
            <Flex gap={48} wrap>
              <Statistic title={t('rates.rate')} value={formatKhr(data.rate_khr)} prefix="1 $ =" />
              <Statistic title={t('rates.rateIn')} value={data.rate_in_khr ? formatKhr(data.rate_in_khr) : '—'} />
              <Statistic title={t('rates.rateOut')} value={data.rate_out_khr ? formatKhr(data.rate_out_khr) : '—'} />
            </Flex>
            <Descriptions
              size="small"
              column={{ xs: 1, md: 3 }}
              items={[
                {
                  key: 'updated',
                  label: t('rates.updated'),
                  children: data.updated_at ? (
                    <span>
                      {formatDateTime(data.updated_at, locale)}
                      {data.updated_by_name ? ` · ${data.updated_by_name}` : ''}{' '}
                      {data.stale && <Tag color="warning">{t('rates.stale')}</Tag>}
                    </span>
                  ) : (
                    t('pos.rateNeverSet')
                  ),
                },
                { key: 'vat', label: t('rates.vat'), children: percentText(data.vat_rate_bp) },
                { key: 'step', label: t('rates.step'), children: formatKhr(data.khr_step) },
              ]}
            />
          </Flex>
        )}
      </Card>
      {canSet && <NewRate />}
      <History />
      <OfficialRatesCard />
      {canSettings && <SaleSettingsCard />}
      {canSettings && canShifts && <ShiftSettingsCard />}
    </Flex>
  );
}
