import { LockOutlined } from '@ant-design/icons';
import { messageResponse, PASSWORD_MIN, passwordChangeInput } from '@depot/contracts';
import { Alert, App, Button, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useCtx } from '../../kit/useCtx.ts';
import { useFormCheck } from '../../lib/forms.ts';
import { api } from '../../lib/http.ts';

const FIELDS = Object.keys(passwordChangeInput.shape);

/**
 * The one way a user changes their own password: on their profile, and on `/password` when an
 * administrator's reset obliges them to before any other screen. `POST /api/me/password`; the
 * browser checks only the shared schema (filled in, long enough, confirmed), the server whether it
 * is strong enough (`assertStrongPassword`), and its refusal shows on its field in its own words.
 */
export function PasswordForm({ onChanged }: { onChanged?: () => void }) {
  const { t, locale } = useCtx();
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const { problem, check, fail, edited } = useFormCheck(form, FIELDS, locale);
  const [saving, setSaving] = useState(false);
  const submit = async () => {
    const body = check(passwordChangeInput);
    if (!body) return;
    setSaving(true);
    try {
      const answer = await api('me/password', { method: 'POST', body, schema: messageResponse });
      form.resetFields();
      void message.success(answer.message);
      onChanged?.();
    } catch (error) {
      fail(error);
    } finally {
      setSaving(false);
    }
  };
  const field = (name: string, label: string, autoComplete: string) => (
    <Form.Item name={name} label={label}>
      <Input.Password autoComplete={autoComplete} data-testid={`password-${name}`} />
    </Form.Item>
  );
  return (
    <Form
      form={form}
      layout="vertical"
      requiredMark={false}
      onFinish={() => void submit()}
      onValuesChange={edited}
      data-testid="password-form"
    >
      {problem && <Alert type="error" showIcon title={problem} style={{ marginBottom: 16 }} />}
      <Typography.Paragraph type="secondary">{t('profile.passwordHelp', { min: PASSWORD_MIN })}</Typography.Paragraph>
      {field('current_password', t('profile.current_password'), 'current-password')}
      {field('password', t('profile.new_password'), 'new-password')}
      {field('password_confirmation', t('profile.password_confirmation'), 'new-password')}
      <Button type="primary" htmlType="submit" icon={<LockOutlined />} loading={saving} data-testid="password-save">
        {t('profile.changePassword')}
      </Button>
    </Form>
  );
}
