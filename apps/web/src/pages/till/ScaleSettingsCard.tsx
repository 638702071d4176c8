import { DeleteOutlined, PlusOutlined, SaveOutlined } from '@ant-design/icons';
import {
  COMMON_SCALE_LAYOUT,
  encodeScaleBarcode,
  SCALE_BODY_DIGITS,
  SCALE_VALUE_KINDS,
  type ScaleLayout,
  type ScaleSettings,
  scaleSettings,
  written,
} from '@depot/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Flex, Form, InputNumber, Select, Skeleton, Typography } from 'antd';
import { useCtx } from '../../kit/useCtx.ts';
import { useCan } from '../../lib/access.tsx';
import { useFormCheck } from '../../lib/forms.ts';
import { api } from '../../lib/http.ts';
import { useScaleQuery } from './scale.ts';

const PREFIXES = Array.from({ length: 10 }, (_, i) => String(20 + i));

/** How a label of the layout reads: "20 00042 01250 K" as code, value and check digit. */
function sample(layout: Partial<ScaleLayout>): string | null {
  const full = { ...COMMON_SCALE_LAYOUT, ...layout };
  if (!full.code_length || full.code_length >= SCALE_BODY_DIGITS) return null;
  const filled = { ...full, value_length: SCALE_BODY_DIGITS - full.code_length };
  const value = full.kind === 'weight' ? 1250 : 375;
  try {
    const code = encodeScaleBarcode(filled, '42', Math.min(value, 10 ** filled.value_length - 1));
    return `${code.slice(0, 2)} ${code.slice(2, 2 + filled.code_length)} ${code.slice(2 + filled.code_length, 12)} ${code[12]}`;
  } catch {
    return null;
  }
}

function ScaleSettingsForm({ initial }: { initial: ScaleSettings }) {
  const { t, locale } = useCtx();
  const { message } = App.useApp();
  const client = useQueryClient();
  const canUpdate = useCan('settings.update');
  const [form] = Form.useForm<ScaleSettings>();
  const { problem, check, fail, edited } = useFormCheck(form, ['layouts'], locale);
  const send = useMutation({
    mutationFn: (body: ScaleSettings) => api('scale/settings', { method: 'PUT', body, schema: written(scaleSettings) }),
  });
  const layouts = Form.useWatch('layouts', form) ?? initial.layouts;
  const kinds = { weight: t('scale.kinds.weight'), price: t('scale.kinds.price') };
  const submit = async () => {
    const value = form.getFieldsValue(true) as ScaleSettings;
    // the value takes the digits the code leaves
    const body = check(scaleSettings, {
      layouts: (value.layouts ?? []).map((l) => ({ ...l, value_length: SCALE_BODY_DIGITS - (l.code_length ?? 0) })),
    });
    if (!body) return;
    try {
      const done = await send.mutateAsync(body);
      void message.success(done.message);
      await client.invalidateQueries({ queryKey: ['scale', 'settings'] });
    } catch (error) {
      fail(error);
    }
  };
  return (
    <Form<ScaleSettings>
      form={form}
      layout="vertical"
      requiredMark={false}
      disabled={!canUpdate || send.isPending}
      initialValues={initial}
      onValuesChange={edited}
      data-testid="scale-settings"
    >
      <Typography.Paragraph type="secondary">{t('scale.settingsHelp')}</Typography.Paragraph>
      {problem && <Alert type="error" showIcon title={problem} style={{ marginBottom: 16 }} />}
      <Form.List name="layouts">
        {(fields, { add, remove }) => (
          <Flex vertical gap={8}>
            {fields.map((field, index) => {
              const shown = sample(layouts[index] ?? {});
              return (
                <Flex key={field.key} gap={8} wrap align="flex-end" data-testid={`scale-layout-${index}`}>
                  <Form.Item name={[field.name, 'prefix']} label={t('scale.prefix')} style={{ marginBottom: 0 }}>
                    <Select options={PREFIXES.map((p) => ({ value: p, label: p }))} style={{ width: 80 }} />
                  </Form.Item>
                  <Form.Item
                    name={[field.name, 'code_length']}
                    label={t('scale.codeLength')}
                    style={{ marginBottom: 0 }}
                  >
                    <InputNumber<number> min={1} max={SCALE_BODY_DIGITS - 1} precision={0} style={{ width: 90 }} />
                  </Form.Item>
                  <Form.Item name={[field.name, 'kind']} label={t('scale.kind')} style={{ marginBottom: 0 }}>
                    <Select
                      options={SCALE_VALUE_KINDS.map((k) => ({ value: k, label: kinds[k] }))}
                      style={{ width: 130 }}
                    />
                  </Form.Item>
                  <Form.Item name={[field.name, 'decimals']} label={t('scale.decimals')} style={{ marginBottom: 0 }}>
                    <Select options={[0, 1, 2, 3].map((d) => ({ value: d, label: String(d) }))} style={{ width: 70 }} />
                  </Form.Item>
                  <Flex vertical style={{ minWidth: 150 }}>
                    <Typography.Text type="secondary">{t('scale.sample')}</Typography.Text>
                    <Typography.Text code data-testid={`scale-sample-${index}`}>
                      {shown ?? '—'}
                    </Typography.Text>
                  </Flex>
                  {canUpdate && (
                    <Button
                      icon={<DeleteOutlined />}
                      aria-label={t('scale.remove', { line: index + 1 })}
                      onClick={() => remove(field.name)}
                    />
                  )}
                </Flex>
              );
            })}
            {canUpdate && (
              <Flex gap={8}>
                <Button
                  icon={<PlusOutlined />}
                  onClick={() => {
                    const used = new Set(layouts.map((l) => l?.prefix));
                    add({ ...COMMON_SCALE_LAYOUT, prefix: PREFIXES.find((p) => !used.has(p)) ?? '20' });
                  }}
                >
                  {t('scale.add')}
                </Button>
                <Button
                  type="primary"
                  icon={<SaveOutlined />}
                  loading={send.isPending}
                  onClick={() => void submit()}
                  data-testid="scale-settings-save"
                >
                  {t('kit.save')}
                </Button>
              </Flex>
            )}
          </Flex>
        )}
      </Form.List>
    </Form>
  );
}

/** The store's scale barcode layouts, beside the sale and shift settings (settings.update to save). */
export function ScaleSettingsCard() {
  const { t } = useCtx();
  const query = useScaleQuery();
  return (
    <Card title={t('scale.title')}>
      {query.data ? (
        <ScaleSettingsForm key={JSON.stringify(query.data)} initial={{ layouts: query.data }} />
      ) : (
        <Skeleton active />
      )}
    </Card>
  );
}
