import { Alert, Button } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

export const BUILD_ID = typeof __BUILD_ID__ === 'string' ? __BUILD_ID__ : 'dev';
const POLL_MS = 5 * 60 * 1000;

async function latestBuildId(): Promise<string | null> {
  try {
    const response = await fetch('/builds/latest.json', { cache: 'no-store' });
    if (!response.ok) return null;
    const body: unknown = await response.json();
    const id = (body as { id?: unknown } | null)?.id;
    return typeof id === 'string' ? id : null;
  } catch {
    return null;
  }
}

/** Offers a reload when a newer build is deployed; never forces one (a cashier may be mid-sale). */
export function NewVersionNotice() {
  const { t } = useTranslation();
  const [available, setAvailable] = useState(false);
  const [dismissed, setDismissed] = useState(false);

  useEffect(() => {
    let active = true;
    const check = async () => {
      const id = await latestBuildId();
      if (active && id && id !== BUILD_ID) setAvailable(true);
    };
    const onVisible = () => {
      if (document.visibilityState === 'visible') void check();
    };
    void check();
    const timer = setInterval(check, POLL_MS);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      active = false;
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, []);

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
