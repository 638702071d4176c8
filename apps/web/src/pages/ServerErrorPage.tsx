import { CloseCircleFilled, ReloadOutlined } from '@ant-design/icons';
import { Button, Flex, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { HomeButton } from '../components/HomeButton.tsx';
import { ApiError } from '../lib/http.ts';

/**
 * Spec section 2: any error other than a missing page. Kept in the first bundle and free of heavy
 * components, because it must show even when the chunks of a screen cannot be loaded.
 * The request id lets support find the log line.
 */
export function ServerErrorPage({ error }: { error?: unknown }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const requestId = error instanceof ApiError ? error.body?.request_id : undefined;
  return (
    <Flex
      data-testid="page-server-error"
      vertical
      align="center"
      gap={16}
      style={{ padding: '64px 24px', textAlign: 'center', color: token.colorText }}
    >
      <CloseCircleFilled style={{ fontSize: 72, color: token.colorError }} />
      <h1 style={{ margin: 0, fontSize: token.fontSizeHeading3, fontWeight: 600 }}>{t('pages.serverError.title')}</h1>
      <p style={{ margin: 0, color: token.colorTextSecondary }}>{t('pages.serverError.message')}</p>
      {requestId && (
        <p style={{ margin: 0, color: token.colorTextSecondary }}>
          {t('pages.serverError.reference', { id: requestId })}
        </p>
      )}
      <Flex gap={8} wrap justify="center">
        <Button size="large" icon={<ReloadOutlined />} onClick={() => window.location.reload()}>
          {t('common.reload')}
        </Button>
        <HomeButton />
      </Flex>
    </Flex>
  );
}
