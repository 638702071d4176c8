import { QuestionCircleFilled } from '@ant-design/icons';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { HomeButton } from '../components/HomeButton.tsx';
import { StatusPage } from '../components/StatusPage.tsx';

/** Spec section 2: "Page Not Found", then the path that was asked for. */
export function NotFoundPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <StatusPage
      testId="page-not-found"
      icon={QuestionCircleFilled}
      tone="info"
      title={t('pages.notFound.title')}
      message={
        <>
          {t('pages.notFound.message')} <Typography.Text code>{pathname}</Typography.Text>
        </>
      }
      actions={<HomeButton />}
    />
  );
}
