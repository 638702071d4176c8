import { SaveOutlined } from '@ant-design/icons';
import { type ShiftSettings, shiftSettings, written } from '@depot/contracts';
import { useMutation } from '@tanstack/react-query';
import { Alert, App, Button, Card, Col, Form, InputNumber, Row, Select, Skeleton, Switch } from 'antd';
import { useState } from 'react';
import { failureMessage, useRefreshAll } from '../../kit/queries.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { useCan } from '../../lib/access.tsx';
import { useFieldErrors } from '../../lib/forms.ts';
import { ApiError, api } from '../../lib/http.ts';
import { money } from './CashCount.tsx';
import { useShiftSettings } from './ShiftsPage.tsx';

/** Notes as a list of tags: dollars typed as dollars (20), riel as riel (10000). */
function NotesSelect({
  value,
  onChange,
  currency,
  id,
}: {
  value: number[];
  onChange: (next: number[]) => void;
  currency: 'usd' | 'khr';
  id: string;
}) {
  const scale = currency === 'usd' ? 100 : 1;
  return (
    <Select<string[]>
      id={id}
      mode="tags"
      value={value.map((v) => String(v / scale))}
      onChange={(next) =>
        onChange(
          next
            .map((text) => Math.round(Number(text) * scale))
            .filter((n) => Number.isSafeInteger(n) && n > 0)
            .sort((a, b) => a - b),
        )
      }
      tokenSeparators={[',', ' ']}
      labelRender={(item) => money(currency, Number(item.value) * scale)}
    />
  );
}

function ShiftSettingsForm({ initial }: { initial: ShiftSettings }) {
  const { t, locale } = useCtx();
  const { message } = App.useApp();
  const refresh = useRefreshAll();
  const canUpdate = useCan('settings.update');
  const [values, setValues] = useState<ShiftSettings>(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const { item, setErrors } = useFieldErrors();
  const send = useMutation({
    mutationFn: (body: ShiftSettings) =>
      api('shifts/settings', { method: 'PUT', body, schema: written(shiftSettings) }),
  });
  const set = <K extends keyof ShiftSettings>(key: K, value: ShiftSettings[K]) =>
    setValues((current) => ({ ...current, [key]: value }));
  const submit = async () => {
    setProblem(null);
    try {
      const done = await send.mutateAsync(values);
      void message.success(done.message);
      void refresh();
    } catch (error) {
      if (error instanceof ApiError && error.status === 422 && error.body?.errors) setErrors(error.body.errors);
      else setProblem(failureMessage(error, locale));
    }
  };
  return (
    <Form layout="vertical" requiredMark={false} disabled={!canUpdate || send.isPending} data-testid="shift-settings">
      {problem && <Alert type="error" showIcon title={problem} style={{ marginBottom: 16 }} />}
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item
            label={t('shifts.settings.requireShift')}
            htmlFor="shift-require"
            extra={t('shifts.settings.requireShiftHelp')}
          >
            <Switch
              id="shift-require"
              checked={values.require_shift}
              onChange={(v) => set('require_shift', v)}
              data-testid="require-shift"
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            label={t('shifts.settings.blindClose')}
            htmlFor="shift-blind"
            extra={t('shifts.settings.blindCloseHelp')}
          >
            <Switch id="shift-blind" checked={values.blind_close} onChange={(v) => set('blind_close', v)} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            label={t('shifts.settings.thresholdUsd')}
            htmlFor="shift-threshold-usd"
            {...item('threshold_usd_cents')}
          >
            <InputNumber<number>
              id="shift-threshold-usd"
              style={{ width: '100%' }}
              min={0}
              precision={2}
              prefix="$"
              value={values.threshold_usd_cents / 100}
              onChange={(v) => set('threshold_usd_cents', Math.round((v ?? 0) * 100))}
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item label={t('shifts.settings.thresholdKhr')} htmlFor="shift-threshold-khr" {...item('threshold_khr')}>
            <InputNumber<number>
              id="shift-threshold-khr"
              style={{ width: '100%' }}
              min={0}
              precision={0}
              suffix="៛"
              value={values.threshold_khr}
              onChange={(v) => set('threshold_khr', v ?? 0)}
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item label={t('shifts.settings.usdNotes')} htmlFor="shift-usd-notes" {...item('usd_denominations')}>
            <NotesSelect
              id="shift-usd-notes"
              currency="usd"
              value={values.usd_denominations}
              onChange={(v) => set('usd_denominations', v)}
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item label={t('shifts.settings.khrNotes')} htmlFor="shift-khr-notes" {...item('khr_denominations')}>
            <NotesSelect
              id="shift-khr-notes"
              currency="khr"
              value={values.khr_denominations}
              onChange={(v) => set('khr_denominations', v)}
            />
          </Form.Item>
        </Col>
      </Row>
      {canUpdate && (
        <Button type="primary" icon={<SaveOutlined />} loading={send.isPending} onClick={() => void submit()}>
          {t('kit.save')}
        </Button>
      )}
    </Form>
  );
}

/** The shift settings, beside the sale settings (settings.view to read here, settings.update to save). */
export function ShiftSettingsCard() {
  const { t } = useCtx();
  const query = useShiftSettings();
  return (
    <Card title={t('shifts.settings.title')}>
      {query.data ? <ShiftSettingsForm key={JSON.stringify(query.data)} initial={query.data} /> : <Skeleton active />}
    </Card>
  );
}
