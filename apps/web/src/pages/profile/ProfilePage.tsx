import { DownloadOutlined, SaveOutlined } from '@ant-design/icons';
import {
  GENDERS,
  PRODUCT_IMAGE_MAX_MB,
  type Profile,
  profile,
  profileInput,
  single,
  userImage,
  written,
} from '@depot/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
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
  Result,
  Row,
  Select,
  Skeleton,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { DateInput, ImageInput } from '../../kit/inputs.tsx';
import { failureMessage } from '../../kit/queries.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { formatDate } from '../../lib/dates.ts';
import { useFormCheck } from '../../lib/forms.ts';
import { ApiError, api, download, upload } from '../../lib/http.ts';
import { session } from '../../lib/session.ts';
import { PasswordForm } from './PasswordForm.tsx';

/**
 * `/profiles`: the signed-in user's own profile. Their picture (uploaded at once), contact and the
 * profile extras of spec section 3, a new password (the current one first; their other sign-ins
 * end), and the profile as a PDF in the page's language, printed by the server.
 */
const profileKey = ['profile'] as const;
const PROFILE_FIELDS = Object.keys(profileInput.shape);

type Details = Omit<Profile, 'store' | 'roles'>;

function Picture({ data }: { data: Profile }) {
  const { t, locale } = useCtx();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const change = async (next: string | File | null | undefined) => {
    setBusy(true);
    try {
      let answer: { message: string; data: { profile_image: string | null } };
      if (next instanceof File) {
        const form = new FormData();
        form.append('image', next);
        answer = await upload(`users/${data.id}/image`, form, { schema: written(userImage) });
      } else {
        answer = await api(`users/${data.id}/image`, { method: 'DELETE', schema: written(userImage) });
      }
      client.setQueryData(profileKey, { ...data, profile_image: answer.data.profile_image });
      session.setAvatar(answer.data.profile_image);
      message.success(answer.message);
    } catch (error) {
      const detail =
        error instanceof ApiError && error.body?.errors
          ? Object.values(error.body.errors).flat().join(' ')
          : failureMessage(error, locale);
      message.error(detail);
    } finally {
      setBusy(false);
    }
  };
  return (
    <ImageInput
      value={data.profile_image}
      onChange={(next) => void change(next)}
      disabled={busy}
      maxMb={PRODUCT_IMAGE_MAX_MB}
      help={t('profile.pictureHelp', { mb: PRODUCT_IMAGE_MAX_MB })}
      round
      testId="avatar"
    />
  );
}

function DetailsForm({ data }: { data: Profile }) {
  const { t, locale } = useCtx();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm();
  const { problem, check, fail, edited } = useFormCheck(form, PROFILE_FIELDS, locale);
  const [saving, setSaving] = useState(false);
  const submit = async () => {
    const body = check(profileInput);
    if (!body) return;
    setSaving(true);
    try {
      const answer = await api('profile', { method: 'PUT', body, schema: written(profile) });
      client.setQueryData(profileKey, answer.data);
      message.success(answer.message);
    } catch (error) {
      fail(error);
    } finally {
      setSaving(false);
    }
  };
  const genderLabel = (g: (typeof GENDERS)[number]) =>
    ({ male: t('profile.genders.male'), female: t('profile.genders.female'), other: t('profile.genders.other') })[g];
  const text = (name: keyof Details, label: string, max: number) => (
    <Col xs={24} md={12}>
      <Form.Item name={name} label={label}>
        <Input maxLength={max} data-testid={`profile-${name}`} />
      </Form.Item>
    </Col>
  );
  return (
    <Form
      form={form}
      layout="vertical"
      initialValues={data}
      onFinish={() => void submit()}
      onValuesChange={edited}
      data-testid="profile-form"
    >
      {problem && <Alert type="error" showIcon title={problem} style={{ marginBottom: 16 }} />}
      <Typography.Title level={3} style={{ fontSize: 16 }}>
        {t('profile.personal')}
      </Typography.Title>
      <Row gutter={16}>
        {text('full_name', t('profile.full_name'), 100)}
        <Col xs={24} md={6}>
          <Form.Item name="gender" label={t('profile.gender')}>
            <Select
              allowClear
              data-testid="profile-gender"
              virtual={false}
              options={GENDERS.map((g) => ({ value: g, label: genderLabel(g) }))}
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={6}>
          <Form.Item name="date_of_birth" label={t('profile.date_of_birth')}>
            <DateInput />
          </Form.Item>
        </Col>
        {text('nationality', t('profile.nationality'), 60)}
        {text('timezone', t('profile.timezone'), 60)}
      </Row>
      <Typography.Title level={3} style={{ fontSize: 16 }}>
        {t('profile.contact')}
      </Typography.Title>
      <Row gutter={16}>
        {text('email', t('profile.email'), 150)}
        {text('phone', t('profile.phone'), 20)}
        {text('address', t('profile.address'), 255)}
        {text('location', t('profile.location'), 120)}
      </Row>
      <Typography.Title level={3} style={{ fontSize: 16 }}>
        {t('profile.emergency')}
      </Typography.Title>
      <Row gutter={16}>
        {text('emergency_contact_name', t('profile.emergency_contact_name'), 100)}
        {text('emergency_contact_relationship', t('profile.emergency_contact_relationship'), 60)}
        {text('emergency_contact_phone', t('profile.emergency_contact_phone'), 20)}
        {text('emergency_contact_email', t('profile.emergency_contact_email'), 150)}
      </Row>
      <Typography.Title level={3} style={{ fontSize: 16 }}>
        {t('profile.about')}
      </Typography.Title>
      <Form.Item name="bio" label={t('profile.bio')}>
        <Input.TextArea rows={3} maxLength={1000} data-testid="profile-bio" />
      </Form.Item>
      <Form.Item name="skills" label={t('profile.skills')}>
        <Input.TextArea rows={2} maxLength={500} data-testid="profile-skills" />
      </Form.Item>
      <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={saving} data-testid="profile-save">
        {t('kit.save')}
      </Button>
    </Form>
  );
}

function PdfButton({ name }: { name: string }) {
  const { t, locale } = useCtx();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  return (
    <Button
      icon={<DownloadOutlined />}
      loading={busy}
      data-testid="profile-pdf"
      onClick={async () => {
        setBusy(true);
        try {
          await download('profile/pdf', `profile-${name}.pdf`);
        } catch (error) {
          message.error(failureMessage(error, locale));
        } finally {
          setBusy(false);
        }
      }}
    >
      {t('profile.downloadPdf')}
    </Button>
  );
}

export function ProfilePage() {
  const { t, locale } = useCtx();
  const query = useQuery({
    queryKey: profileKey,
    queryFn: async ({ signal }) => (await api('profile', { signal, schema: single(profile) })).data,
  });
  const data = query.data;
  if (query.isError && !data) {
    return (
      <Result
        status="error"
        title={t('errors.profile')}
        subTitle={failureMessage(query.error, locale)}
        extra={
          <Button type="primary" loading={query.isFetching} onClick={() => void query.refetch()} data-testid="retry">
            {t('common.retry')}
          </Button>
        }
      />
    );
  }
  if (!data) return <Skeleton active />;
  return (
    <Flex vertical gap={16}>
      <Card>
        <Flex gap={24} wrap align="flex-start" justify="space-between">
          <Flex vertical gap={4}>
            <Typography.Title level={3} style={{ margin: 0 }} data-testid="profile-title">
              {data.full_name ?? data.name}
            </Typography.Title>
            <Typography.Text type="secondary">
              {[data.name, data.position, data.store?.name].filter(Boolean).join(' · ')}
            </Typography.Text>
            <Flex gap={4} wrap>
              {data.roles.map((role) => (
                <Tag key={role.name} color="green">
                  {locale === 'kh' ? role.label_kh : role.label_en}
                </Tag>
              ))}
            </Flex>
          </Flex>
          <PdfButton name={data.name} />
        </Flex>
        <div style={{ marginTop: 16 }}>
          <Picture data={data} />
        </div>
        {data.join_date && (
          <Descriptions
            size="small"
            style={{ marginTop: 16 }}
            items={[
              {
                key: 'join',
                label: t('profile.join_date'),
                children: data.join_date ? formatDate(data.join_date, locale) : '—',
              },
            ]}
          />
        )}
      </Card>
      <Row gutter={16}>
        <Col xs={24} xl={16}>
          <Card title={t('profile.details')} style={{ marginBottom: 16 }}>
            <DetailsForm data={data} />
          </Card>
        </Col>
        <Col xs={24} xl={8}>
          <Card title={t('profile.changePassword')}>
            <PasswordForm />
          </Card>
        </Col>
      </Row>
    </Flex>
  );
}
