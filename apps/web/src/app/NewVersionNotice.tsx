import { Alert, Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNewVersion } from './newVersion.ts';

export { BUILD_ID } from './newVersion.ts';

/** Offers a reload when a newer build is deployed; never forces one (a cashier may be mid-sale). */
export function NewVersionNotice() {
  const { t } = useTranslation();
  const available = useNewVersion();
  const [dismissed, setDismissed] = useState(false);

  if (!available || dismissed) return null;
  return (
    <Alert
      data-testid="new-version"
      type="info"
      showIcon
      title={t('newVersion.title')}
      description={t('newVersion.description')}
      closable={{ onClose: () => setDismissed(true) }}
      action={
        <Button type="primary" data-testid="new-version-reload" onClick={() => window.location.reload()}>
          {t('newVersion.reload')}
        </Button>
      }
    />
  );
}
