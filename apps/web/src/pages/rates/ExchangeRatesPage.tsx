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
  Statistic,
  Table,
  Tag,
} from 'antd';
import { useState } from 'react';
import { Loaded, LoadFailed } from '../../kit/listState.tsx';
import { PageTitle } from '../../kit/PageTitle.tsx';
import { usePage, useRefreshAll } from '../../kit/queries.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { useCan } from '../../lib/access.tsx';
import { formatDateTime } from '../../lib/dates.ts';
import { percentText } from '../../lib/format.ts';
import { useFormCheck } from '../../lib/forms.ts';
import { api } from '../../lib/http.ts';
import { ShiftSettingsCard } from '../shifts/ShiftSettingsCard.tsx';
import { ScaleSettingsCard } from '../till/ScaleSettingsCard.tsx';
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
  value?: number | null;
  onChange?: (value: number | null) => void;
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
      value={value ?? null}
      onChange={(next) => onChange?.(next ?? null)}
    />
  );
}

const RATE_FIELDS = Object.keys(exchangeRateInput.shape);
const NO_RATE = { rate_khr: null, rate_in_khr: null, rate_out_khr: null, note: '' };

function NewRate() {
  const { t, locale } = useCtx();
  const { message } = App.useApp();
  const refresh = useRefreshAll();
  const [form] = Form.useForm();
  const { problem, check, fail, edited } = useFormCheck(form, RATE_FIELDS, locale);
  const send = useMutation({
    mutationFn: (body: unknown) => api('exchange-rates', { method: 'POST', body, schema: written(exchangeRate) }),
  });

  const submit = async () => {
    const body = check(exchangeRateInput);
    if (!body) return;
    try {
      const done = await send.mutateAsync(body);
      void message.success(done.message);
      form.resetFields();
      void refresh();
    } catch (error) {
      fail(error);
    }
  };

  return (
    <Card title={t('rates.newRate')} data-testid="new-rate">
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        disabled={send.isPending}
        initialValues={NO_RATE}
        onValuesChange={edited}
      >
        {problem && <Alert type="error" showIcon title={problem} style={{ marginBottom: 16 }} />}
        <Row gutter={16}>
          <Col xs={24} md={8}>
            <Form.Item name="rate_khr" label={t('rates.rate')} htmlFor="rate-khr">
              <RielRate id="rate-khr" testId="rate-khr" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="rate_in_khr" label={t('rates.rateIn')} htmlFor="rate-in" extra={t('rates.rateInHelp')}>
              <RielRate id="rate-in" testId="rate-in" placeholder={t('rates.sameAsRate')} />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="rate_out_khr" label={t('rates.rateOut')} htmlFor="rate-out" extra={t('rates.rateOutHelp')}>
              <RielRate id="rate-out" testId="rate-out" placeholder={t('rates.sameAsRate')} />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="note" label={t('stock.note')} htmlFor="rate-note">
          <Input id="rate-note" maxLength={255} />
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
function VatInput({ value, onChange }: { value?: number; onChange?: (bp: number | string) => void }) {
  const [text, setText] = useState(() => formatUsdCents(value ?? 0).replace(/\.00$/, ''));
  return (
    <Input
      id="sale-vat"
      data-testid="sale-vat"
      inputMode="decimal"
      suffix="%"
      value={text}
      onChange={(event) => {
        setText(event.target.value);
        onChange?.(parseUsdCents(event.target.value) ?? event.target.value);
      }}
    />
  );
}

const SALE_FIELDS = Object.keys(saleSettingsInput.shape);

function SaleSettingsForm({ initial }: { initial: SaleSettings }) {
  const { t, locale } = useCtx();
  const { message } = App.useApp();
  const refresh = useRefreshAll();
  const canUpdate = useCan('settings.update');
  const [form] = Form.useForm();
  const { problem, check, fail, edited } = useFormCheck(form, SALE_FIELDS, locale);
  const send = useMutation({
    mutationFn: (body: unknown) => api('settings/sale', { method: 'PUT', body, schema: written(saleSettings) }),
  });

  const submit = async () => {
    const body = check(saleSettingsInput);
    if (!body) return;
    try {
      const done = await send.mutateAsync(body);
      void message.success(done.message);
      void refresh();
    } catch (error) {
      fail(error);
    }
  };

  return (
    <Form
      form={form}
      layout="vertical"
      requiredMark={false}
      disabled={!canUpdate || send.isPending}
      initialValues={initial}
      onValuesChange={edited}
      data-testid="sale-settings"
    >
      {problem && <Alert type="error" showIcon title={problem} style={{ marginBottom: 16 }} />}
      <Row gutter={16}>
        <Col xs={24} md={8}>
          <Form.Item name="vat_rate_bp" label={t('rates.vat')} htmlFor="sale-vat">
            <VatInput />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name="khr_rounding_step" label={t('rates.step')} htmlFor="sale-step" extra={t('rates.stepHelp')}>
            <Select<number>
              id="sale-step"
              options={KHR_ROUNDING_STEPS.map((step) => ({ value: step, label: formatKhr(step) }))}
              virtual={false}
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name="stale_after_hours" label={t('rates.staleAfter')} htmlFor="sale-stale">
            <InputNumber<number>
              id="sale-stale"
              style={{ width: '100%' }}
              min={1}
              max={STALE_AFTER_HOURS_MAX}
              precision={0}
              suffix={t('rates.hours')}
            />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="tax_rate_policy" label={t('tax.policy')} htmlFor="sale-tax-rate" extra={t('tax.policyHelp')}>
        <Select<string>
          id="sale-tax-rate"
          data-testid="tax-rate-policy"
          options={RATE_POLICIES.map((policy) => ({ value: policy, label: t(`tax.policies.${policy}`) }))}
          virtual={false}
        />
      </Form.Item>
      <Form.Item
        name="receipt_title"
        label={t('rates.receiptTitle')}
        htmlFor="sale-title"
        extra={t('rates.receiptTitleHelp')}
      >
        <Input id="sale-title" maxLength={RECEIPT_TEXT_MAX} />
      </Form.Item>
      <Form.Item name="receipt_footer" label={t('rates.receiptFooter')} htmlFor="sale-footer">
        <Input.TextArea id="sale-footer" rows={2} maxLength={RECEIPT_TEXT_MAX} />
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
      <Loaded query={query}>{(data) => <SaleSettingsForm key={JSON.stringify(data)} initial={data} />}</Loaded>
    </Card>
  );
}

export function ExchangeRatesPage() {
  const { t, locale } = useCtx();
  const rates = useCurrentRates();
  const canSet = useCan('exchange_rates.update');
  const canSettings = useCan('settings.view');
  // the layouts are read as the till reads them (products.list)
  const canScale = useCan('products.list');
  const canShifts = useCan('shifts.list');
  return (
    <Flex vertical gap={16}>
      <Card title={<PageTitle>{t('menu.exchange_rates')}</PageTitle>}>
        <Loaded query={rates}>
          {(data) => (
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
        </Loaded>
      </Card>
      {canSet && <NewRate />}
      <History />
      <OfficialRatesCard />
      {canSettings && <SaleSettingsCard />}
      {canSettings && canShifts && <ShiftSettingsCard />}
      {canSettings && canScale && <ScaleSettingsCard />}
    </Flex>
  );
}
