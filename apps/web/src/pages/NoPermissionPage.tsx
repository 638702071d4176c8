import { Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { HomeButton } from '../components/HomeButton.tsx';

export function NoPermissionPage() {
  const { t } = useTranslation();
  return (
    <div data-testid="page-no-permission">
      <Result
        status="403"
        title={t('pages.noPermission.title')}
        subTitle={t('pages.noPermission.message')}
        extra={<HomeButton />}
      />
    </div>
  );
}
