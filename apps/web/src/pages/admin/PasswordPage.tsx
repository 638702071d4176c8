import { messageResponse, PASSWORD_MIN, passwordChangeInput } from '@depot/contracts';
import { Alert, App, Button, Card, Form, Input } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { failureMessage } from '../../kit/queries.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { useSession } from '../../lib/access.tsx';
import { ApiError, api } from '../../lib/http.ts';
import { localePath } from '../../lib/locale.ts';
import { session } from '../../lib/session.ts';

/** A new password of the user's own: required after an administrator's reset, before any screen. */
export function PasswordPage() {
  const { t, locale } = useCtx();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const { mustChangePassword } = useSession();
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const submit = async (values: Record<string, string>) => {
    setErrors({});
    setProblem(null);
    const parsed = passwordChangeInput.safeParse(values);
    if (!parsed.success) {
      const next: Record<string, string[]> = {};
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0]);
        next[key] = [
          key === 'password_confirmation'
            ? t('password.mismatch')
            : key === 'password'
              ? t('password.short', { min: PASSWORD_MIN })
              : t('password.required'),
        ];
      }
      setErrors(next);
      return;
    }
    setSaving(true);
    try {
      const answer = await api('me/password', { method: 'POST', body: parsed.data, schema: messageResponse });
      void message.success(answer.message);
      session.passwordChanged();
      void navigate(localePath('/dashboards', locale), { replace: true });
    } catch (error) {
      if (error instanceof ApiError && error.status === 422 && error.body?.errors) setErrors(error.body.errors);
      else setProblem(failureMessage(error, locale));
    } finally {
      setSaving(false);
    }
  };
  const item = (name: string, label: string, autoComplete: string) => (
    <Form.Item
      name={name}
      label={label}
      validateStatus={errors[name] ? 'error' : undefined}
      help={errors[name]?.join(' ')}
    >
      <Input.Password autoComplete={autoComplete} data-testid={`password-${name}`} />
    </Form.Item>
  );
  return (
    <Card title={t('password.title')} style={{ maxWidth: 480 }}>
      {mustChangePassword && (
        <Alert type="warning" showIcon title={t('password.mustChange')} style={{ marginBottom: 16 }} />
      )}
      {problem && <Alert type="error" showIcon title={problem} style={{ marginBottom: 16 }} />}
      <Form layout="vertical" onFinish={submit} requiredMark={false}>
        {item('current_password', t('password.current'), 'current-password')}
        {item('password', t('fields.password'), 'new-password')}
        {item('password_confirmation', t('fields.password_confirmation'), 'new-password')}
        <Button type="primary" htmlType="submit" loading={saving} data-testid="password-save">
          {t('password.save')}
        </Button>
      </Form>
    </Card>
  );
}
