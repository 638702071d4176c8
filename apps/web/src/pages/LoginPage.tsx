import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { issuesToErrors, type LoginBody, loginBody, translate } from '@depot/contracts';
import { Alert, Button, Form, theme } from 'antd';
// The two inputs alone: the `Input` namespace drags TextArea, OTP and Search into the sign-in bundle.
import Input, { type InputProps } from 'antd/es/input/Input.js';
import Password from 'antd/es/input/Password.js';
import { type ComponentType, type ReactNode, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { landingPath } from '../lib/access.tsx';
import { login } from '../lib/auth.ts';
import { applyFieldErrors, zodRule } from '../lib/forms.ts';
import { localeFromPath, localePath } from '../lib/locale.ts';

interface Field {
  name: keyof LoginBody;
  Control: ComponentType<InputProps>;
  icon: ReactNode;
  autoComplete: string;
  autoFocus?: boolean;
}

/** The two fields, in order; each is checked by its own part of the server's schema. */
const fields: readonly Field[] = [
  { name: 'name', Control: Input, icon: <UserOutlined />, autoComplete: 'username', autoFocus: true },
  { name: 'password', Control: Password, icon: <LockOutlined />, autoComplete: 'current-password' },
];

export function LoginPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const locale = localeFromPath(pathname);
  const navigate = useNavigate();
  const { token } = theme.useToken();
  const [form] = Form.useForm<LoginBody>();
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const rules = useMemo(
    () => Object.fromEntries(fields.map(({ name }) => [name, [zodRule(loginBody.shape[name], locale)]])),
    [locale],
  );

  // Messages already on screen follow a language switch.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the language is the trigger, not an input
  useEffect(() => {
    const shown = form
      .getFieldsError()
      .filter((field) => field.errors.length > 0)
      .map((field) => field.name);
    if (shown.length > 0) form.validateFields(shown).catch(() => {});
  }, [form, locale]);

  const onFinish = async (values: LoginBody) => {
    // The same schema the server applies; antd's rules ran it per field, this gives the trimmed body.
    const parsed = loginBody.safeParse(values, { reportInput: true });
    if (!parsed.success) {
      applyFieldErrors(form, issuesToErrors(parsed.error.issues, locale));
      return;
    }
    setError(null);
    setSubmitting(true);
    const result = await login(parsed.data);
    if (result.ok) {
      await navigate(localePath(landingPath(), locale));
      return;
    }
    setSubmitting(false);
    const unplaced = result.errors ? applyFieldErrors(form, result.errors) : [];
    if (result.errors && unplaced.length === 0) return;
    setError(unplaced[0] ?? result.message ?? translate('error.server', locale));
  };

  return (
    <Form<LoginBody>
      form={form}
      data-testid="login-form"
      layout="vertical"
      size="large"
      requiredMark={false}
      onFinish={onFinish}
      onValuesChange={() => setError(null)}
      disabled={submitting}
    >
      <p style={{ marginTop: 0, marginBottom: 24, textAlign: 'center', color: token.colorTextSecondary }}>
        {t('login.subtitle')}
      </p>
      {error && <Alert data-testid="login-error" type="error" showIcon title={error} style={{ marginBottom: 24 }} />}
      {fields.map(({ name, Control, icon, autoComplete, autoFocus }) => (
        <Form.Item<LoginBody> key={name} name={name} label={t(`login.${name}`)} rules={rules[name]}>
          <Control
            data-testid={`login-${name}`}
            prefix={icon}
            placeholder={t(`login.${name}Placeholder`)}
            autoComplete={autoComplete}
            autoFocus={autoFocus}
          />
        </Form.Item>
      ))}
      <Button data-testid="login-submit" type="primary" htmlType="submit" block loading={submitting}>
        {t('login.submit')}
      </Button>
    </Form>
  );
}
