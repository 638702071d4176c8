import { StopFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { HomeButton } from '../components/HomeButton.tsx';
import { StatusPage } from '../components/StatusPage.tsx';

export function NoPermissionPage() {
  const { t } = useTranslation();
  return (
    <StatusPage
      testId="page-no-permission"
      icon={StopFilled}
      tone="warning"
      title={t('pages.noPermission.title')}
      message={t('pages.noPermission.message')}
      actions={<HomeButton />}
    />
  );
}
