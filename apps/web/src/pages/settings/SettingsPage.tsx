import { SaveOutlined } from '@ant-design/icons';
import {
  BUNDLED_FONTS,
  PRODUCT_IMAGE_MAX_MB,
  type PublicSettings,
  publicSettings,
  type SettingsImage,
  settingsInput,
  single,
  written,
} from '@depot/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  ColorPicker,
  ConfigProvider,
  Flex,
  Form,
  Input,
  Result,
  Row,
  Select,
  Skeleton,
  Switch,
  Tag,
  Typography,
  theme,
} from 'antd';
import { useState } from 'react';
import { ImageInput } from '../../kit/inputs.tsx';
import { failureMessage } from '../../kit/queries.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { useFormCheck } from '../../lib/forms.ts';
import { ApiError, api, upload } from '../../lib/http.ts';
import { fontStack, showSettings } from '../../lib/settings.ts';
import { contrastWarnings, themeFor } from '../../lib/theme.ts';
import { LabelSettingsCard } from '../labels/LabelSettingsCard.tsx';

/**
 * `/settings` (administrators): the system title in Khmer and English, the font, the footer, the
 * logo and favicon, the colours with a live preview in light and dark, whether dark mode is
 * offered, and the business details printed on receipts and tax invoices. A save writes the one
 * settings query's data, so every screen (header, login page, receipts, favicon) follows at once.
 */
const adminSettingsKey = ['settings', 'admin'] as const;

type Values = PublicSettings;
const FIELDS = Object.keys(settingsInput.shape);

/** The theme as it will look, in one colour mode: a header with the title, buttons, a link, a tag. */
function Preview({ values, mode }: { values: Values; mode: 'light' | 'dark' }) {
  return (
    <ConfigProvider theme={themeFor(values, mode)}>
      <PreviewBody values={values} mode={mode} />
    </ConfigProvider>
  );
}

/** Inside the preview's own theme: its tokens, not the page's, paint it. */
function PreviewBody({ values, mode }: { values: Values; mode: 'light' | 'dark' }) {
  const { t, locale } = useCtx();
  // real colours, not the page's CSS variables, which would resolve to the page's theme
  const token = theme.getDesignToken(themeFor(values, mode));
  const title = locale === 'kh' ? values.system_title_kh : values.system_title;
  return (
    <div
      data-testid={`preview-${mode}`}
      style={{
        borderRadius: 8,
        overflow: 'hidden',
        border: `1px solid ${token.colorBorderSecondary}`,
        background: token.colorBgLayout,
        color: token.colorText,
        fontFamily: fontStack(values.font_family),
      }}
    >
      <div
        style={{
          display: 'flex',
          alignItems: 'center',
          paddingInline: 16,
          height: 48,
          background: mode === 'dark' ? '#141414' : '#ffffff',
          borderBottom: `1px solid ${token.colorBorderSecondary}`,
        }}
      >
        <Typography.Text strong>{title}</Typography.Text>
      </div>
      <div style={{ padding: 16 }}>
        <Flex gap={8} wrap align="center">
          <Button type="primary">{t('settings.previewPrimary')}</Button>
          <Button>{t('kit.cancel')}</Button>
          <Typography.Link>{t('settings.previewLink')}</Typography.Link>
          <Tag color="processing">{t('settings.previewTag')}</Tag>
        </Flex>
        <Typography.Paragraph type="secondary" style={{ margin: '12px 0 0' }}>
          {values.footer_text}
        </Typography.Paragraph>
      </div>
    </div>
  );
}

/** The logo or the favicon: uploaded as soon as it is chosen, removed at once. */
function PictureSetting({
  kind,
  value,
  label,
  help,
}: {
  kind: SettingsImage;
  value: string | null;
  label: string;
  help: string;
}) {
  const { t, locale } = useCtx();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const change = async (next: string | File | null | undefined) => {
    setBusy(true);
    try {
      let answer: { message: string; data: PublicSettings };
      if (next instanceof File) {
        const form = new FormData();
        form.append('image', next);
        answer = await upload(`settings/${kind}`, form, { schema: written(publicSettings) });
      } else {
        answer = await api(`settings/${kind}`, { method: 'DELETE', schema: written(publicSettings) });
      }
      showSettings(client, answer.data);
      client.setQueryData(adminSettingsKey, answer.data);
      message.success(answer.message);
    } catch (error) {
      const detail =
        error instanceof ApiError && error.body?.errors
          ? Object.values(error.body.errors).flat().join(' ')
          : failureMessage(error, locale);
      message.error(`${t('errors.updateSettings')}: ${detail}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Form.Item label={label}>
      <ImageInput
        value={value}
        onChange={(next) => void change(next)}
        disabled={busy}
        maxMb={PRODUCT_IMAGE_MAX_MB}
        help={help}
        testId={kind}
      />
    </Form.Item>
  );
}

function SettingsForm({ initial }: { initial: Values }) {
  const { t, locale } = useCtx();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm<Values>();
  const watched = Form.useWatch([], form) as Partial<Values> | undefined;
  const values: Values = { ...initial, ...(watched ?? {}) };
  const { problem, setProblem, check, fail, edited } = useFormCheck(form, FIELDS, locale);
  const [saving, setSaving] = useState(false);

  const submit = async () => {
    const body = check(settingsInput);
    if (!body) return;
    setSaving(true);
    try {
      const answer = await api('settings', { method: 'PUT', body, schema: written(publicSettings) });
      // the one settings query: the header, the theme, the favicon and the receipts follow now
      showSettings(client, answer.data);
      client.setQueryData(adminSettingsKey, answer.data);
      message.success(answer.message);
    } catch (error) {
      if (error instanceof ApiError && error.status === 422) fail(error);
      else setProblem(`${t('errors.updateSettings')}: ${failureMessage(error, locale)}`);
    } finally {
      setSaving(false);
    }
  };

  const colour = (name: 'primary_color' | 'secondary_color' | 'background_color', label: string) => (
    <Col xs={24} md={8}>
      <Form.Item
        name={name}
        label={label}
        getValueFromEvent={(color: { toHexString(): string }) => color.toHexString()}
      >
        <ColorPicker showText disabledAlpha data-testid={name} />
      </Form.Item>
    </Col>
  );

  return (
    <Form
      form={form}
      layout="vertical"
      initialValues={initial}
      onFinish={() => void submit()}
      onValuesChange={edited}
      data-testid="settings-form"
    >
      {problem && <Alert type="error" showIcon title={problem} style={{ marginBottom: 16 }} />}
      <Row gutter={24}>
        <Col xs={24} xl={14}>
          <Card title={t('settings.identity')} style={{ marginBottom: 16 }}>
            <Row gutter={16}>
              <Col xs={24} md={12}>
                <Form.Item name="system_title_kh" label={t('settings.system_title_kh')} required>
                  <Input maxLength={100} lang="km" data-testid="system_title_kh" />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="system_title" label={t('settings.system_title')} required>
                  <Input maxLength={100} lang="en" data-testid="system_title" />
                </Form.Item>
              </Col>
            </Row>
            <Row gutter={16}>
              <Col xs={24} md={12}>
                <Form.Item name="font_family" label={t('settings.font_family')}>
                  <Select
                    data-testid="font_family"
                    virtual={false}
                    options={BUNDLED_FONTS.map((font) => ({
                      value: font,
                      label: <span style={{ fontFamily: fontStack(font) }}>{font} · ខ្មែរ</span>,
                    }))}
                  />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="footer_text" label={t('settings.footer_text')}>
                  <Input maxLength={200} data-testid="footer_text" />
                </Form.Item>
              </Col>
            </Row>
            <Row gutter={16}>
              <Col xs={24} md={12}>
                <PictureSetting
                  kind="logo"
                  value={initial.logo_url}
                  label={t('settings.logo')}
                  help={t('settings.logoHelp')}
                />
              </Col>
              <Col xs={24} md={12}>
                <PictureSetting
                  kind="favicon"
                  value={initial.favicon_url}
                  label={t('settings.favicon')}
                  help={t('settings.faviconHelp')}
                />
              </Col>
            </Row>
          </Card>
          <Card title={t('settings.business')} style={{ marginBottom: 16 }}>
            <Typography.Paragraph type="secondary">{t('settings.businessHelp')}</Typography.Paragraph>
            <Row gutter={16}>
              <Col xs={24} md={12}>
                <Form.Item name="store_name" label={t('settings.store_name')}>
                  <Input maxLength={100} data-testid="store_name" />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="vat_number" label={t('settings.vat_number')}>
                  <Input maxLength={30} data-testid="vat_number" />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="store_address" label={t('settings.store_address')}>
                  <Input maxLength={255} data-testid="store_address" />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="store_phone" label={t('settings.store_phone')}>
                  <Input maxLength={30} data-testid="store_phone" />
                </Form.Item>
              </Col>
            </Row>
          </Card>
        </Col>
        <Col xs={24} xl={10}>
          <Card title={t('settings.appearance')} style={{ marginBottom: 16 }}>
            <Row gutter={16}>
              {colour('primary_color', t('settings.primary_color'))}
              {colour('secondary_color', t('settings.secondary_color'))}
              {colour('background_color', t('settings.background_color'))}
            </Row>
            {contrastWarnings(values).map((warning) => {
              const params = {
                name: t(`settings.${warning.field}`),
                ratio: warning.ratio.toFixed(2),
                shown: warning.shown,
              };
              return (
                <Alert
                  key={warning.field}
                  type="warning"
                  showIcon
                  style={{ marginBottom: 16 }}
                  data-testid={`contrast-${warning.field}`}
                  title={
                    warning.field === 'background_color'
                      ? t('settings.contrastBackground', params)
                      : t('settings.contrastColour', params)
                  }
                />
              );
            })}
            <Form.Item
              name="dark_mode"
              label={t('settings.dark_mode')}
              valuePropName="checked"
              extra={t('settings.darkModeHelp')}
            >
              <Switch data-testid="dark_mode" />
            </Form.Item>
            <Form.Item
              name="khmer_numerals"
              label={t('settings.khmer_numerals')}
              valuePropName="checked"
              extra={t('settings.khmerNumeralsHelp')}
            >
              <Switch data-testid="khmer_numerals" />
            </Form.Item>
            <Typography.Title level={3} style={{ fontSize: 16 }}>
              {t('settings.preview')}
            </Typography.Title>
            <Flex vertical gap={12}>
              <Preview values={values} mode="light" />
              <Preview values={values} mode="dark" />
            </Flex>
          </Card>
        </Col>
      </Row>
      <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={saving} data-testid="settings-save">
        {t('kit.save')}
      </Button>
    </Form>
  );
}

export function SettingsPage() {
  const { t, locale } = useCtx();
  const query = useQuery({
    queryKey: adminSettingsKey,
    queryFn: async ({ signal }) => (await api('settings', { signal, schema: single(publicSettings) })).data,
  });
  return (
    <Flex vertical gap={16}>
      <Typography.Title level={3} style={{ margin: 0 }}>
        {t('menu.settings')}
      </Typography.Title>
      {query.isError && !query.data ? (
        <Result
          status="error"
          title={t('errors.settings')}
          subTitle={failureMessage(query.error, locale)}
          extra={
            <Button type="primary" loading={query.isFetching} onClick={() => void query.refetch()} data-testid="retry">
              {t('common.retry')}
            </Button>
          }
        />
      ) : query.data ? (
        <SettingsForm initial={query.data} />
      ) : (
        <Skeleton active />
      )}
      <LabelSettingsCard />
    </Flex>
  );
}
