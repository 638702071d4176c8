import { Alert, Card } from 'antd';
import { useNavigate } from 'react-router';
import { useCtx } from '../../kit/useCtx.ts';
import { landingPath, useSession } from '../../lib/access.tsx';
import { localePath } from '../../lib/locale.ts';
import { session } from '../../lib/session.ts';
import { PasswordForm } from './PasswordForm.tsx';

/**
 * `/password`: a new password of the user's own, required after an administrator's reset before any
 * screen (guard.ts; the server holds the session to it, access.ts PASSWORD_CHANGE_ROUTES). The same
 * form as the profile's; once changed, the user goes on to their
 * role's first screen.
 */
export function PasswordPage() {
  const { t, locale } = useCtx();
  const navigate = useNavigate();
  const { mustChangePassword } = useSession();
  const changed = () => {
    session.passwordChanged();
    void navigate(localePath(landingPath(), locale), { replace: true });
  };
  return (
    <Card title={t('password.title')} style={{ maxWidth: 480 }}>
      {mustChangePassword && (
        <Alert type="warning" showIcon title={t('password.mustChange')} style={{ marginBottom: 16 }} />
      )}
      <PasswordForm onChanged={changed} />
    </Card>
  );
}
