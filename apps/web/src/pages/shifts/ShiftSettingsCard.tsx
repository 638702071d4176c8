import { SaveOutlined } from '@ant-design/icons';
import { type ShiftSettings, shiftSettings, shiftSettingsInput, written } from '@depot/contracts';
import { useMutation } from '@tanstack/react-query';
import { Alert, App, Button, Card, Col, Form, Row, Select, Skeleton, Switch } from 'antd';
import { RielInput, UsdInput } from '../../kit/inputs.tsx';
import { useRefreshAll } from '../../kit/queries.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { useCan } from '../../lib/access.tsx';
import { useFormCheck } from '../../lib/forms.ts';
import { api } from '../../lib/http.ts';
import { money } from './CashCount.tsx';
import { useShiftSettings } from './ShiftsPage.tsx';

/** Notes as a list of tags: dollars typed as dollars (20), riel as riel (10000). */
function NotesSelect({
  value,
  onChange,
  currency,
  id,
}: {
  value?: number[];
  onChange?: (next: number[]) => void;
  currency: 'usd' | 'khr';
  id: string;
}) {
  const scale = currency === 'usd' ? 100 : 1;
  return (
    <Select<string[]>
      id={id}
      mode="tags"
      value={(value ?? []).map((v) => String(v / scale))}
      onChange={(next) =>
        onChange?.(
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

const FIELDS = Object.keys(shiftSettingsInput.shape);

function ShiftSettingsForm({ initial }: { initial: ShiftSettings }) {
  const { t, locale } = useCtx();
  const { message } = App.useApp();
  const refresh = useRefreshAll();
  const canUpdate = useCan('settings.update');
  const [form] = Form.useForm<ShiftSettings>();
  const { problem, check, fail, edited } = useFormCheck(form, FIELDS, locale);
  const send = useMutation({
    mutationFn: (body: ShiftSettings) =>
      api('shifts/settings', { method: 'PUT', body, schema: written(shiftSettings) }),
  });
  const submit = async () => {
    const body = check(shiftSettingsInput);
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
    <Form<ShiftSettings>
      form={form}
      layout="vertical"
      requiredMark={false}
      disabled={!canUpdate || send.isPending}
      initialValues={initial}
      onValuesChange={edited}
      data-testid="shift-settings"
    >
      {problem && <Alert type="error" showIcon title={problem} style={{ marginBottom: 16 }} />}
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item
            name="require_shift"
            valuePropName="checked"
            label={t('shifts.settings.requireShift')}
            htmlFor="shift-require"
            extra={t('shifts.settings.requireShiftHelp')}
          >
            <Switch id="shift-require" data-testid="require-shift" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="blind_close"
            valuePropName="checked"
            label={t('shifts.settings.blindClose')}
            htmlFor="shift-blind"
            extra={t('shifts.settings.blindCloseHelp')}
          >
            <Switch id="shift-blind" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="threshold_usd_cents" label={t('shifts.settings.thresholdUsd')} htmlFor="shift-threshold-usd">
            <UsdInput id="shift-threshold-usd" data-testid="shift-threshold-usd" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="threshold_khr" label={t('shifts.settings.thresholdKhr')} htmlFor="shift-threshold-khr">
            <RielInput id="shift-threshold-khr" data-testid="shift-threshold-khr" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="usd_denominations" label={t('shifts.settings.usdNotes')} htmlFor="shift-usd-notes">
            <NotesSelect id="shift-usd-notes" currency="usd" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="khr_denominations" label={t('shifts.settings.khrNotes')} htmlFor="shift-khr-notes">
            <NotesSelect id="shift-khr-notes" currency="khr" />
          </Form.Item>
        </Col>
      </Row>
      {canUpdate && (
        <Button
          type="primary"
          icon={<SaveOutlined />}
          loading={send.isPending}
          onClick={() => void submit()}
          data-testid="shift-settings-save"
        >
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
