import { HomeOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { localeFromPath, localePath } from '../lib/locale.ts';

export function HomeButton() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  return (
    <Button
      type="primary"
      size="large"
      icon={<HomeOutlined aria-hidden />}
      onClick={() => navigate(localePath('/', localeFromPath(pathname)))}
    >
      {t('common.home')}
    </Button>
  );
}
