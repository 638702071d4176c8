import { CloseCircleFilled, ReloadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { HomeButton } from '../components/HomeButton.tsx';
import { StatusPage } from '../components/StatusPage.tsx';
import { ApiError } from '../lib/http.ts';

/**
 * Spec section 2: any error other than a missing page. Kept in the first bundle and free of heavy
 * components, because it must show even when the chunks of a screen cannot be loaded.
 * The request id lets support find the log line.
 */
export function ServerErrorPage({ error }: { error?: unknown }) {
  const { t } = useTranslation();
  const requestId = error instanceof ApiError ? error.body?.request_id : undefined;
  return (
    <StatusPage
      testId="page-server-error"
      icon={CloseCircleFilled}
      tone="error"
      title={t('pages.serverError.title')}
      message={t('pages.serverError.message')}
      detail={requestId && t('pages.serverError.reference', { id: requestId })}
      actions={
        <>
          <Button size="large" icon={<ReloadOutlined aria-hidden />} onClick={() => window.location.reload()}>
            {t('common.reload')}
          </Button>
          <HomeButton />
        </>
      }
    />
  );
}
