import { Result, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { HomeButton } from '../components/HomeButton.tsx';

/** Spec section 2: "Page Not Found", then the path that was asked for. */
export function NotFoundPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <div data-testid="page-not-found">
      <Result
        status="404"
        title={t('pages.notFound.title')}
        subTitle={
          <>
            {t('pages.notFound.message')} <Typography.Text code>{pathname}</Typography.Text>
          </>
        }
        extra={<HomeButton />}
      />
    </div>
  );
}
