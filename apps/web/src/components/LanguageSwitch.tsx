import { GlobalOutlined } from '@ant-design/icons';
import { type Locale, localeInfo } from '@depot/contracts';
import { Button, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { htmlLang, localeFromPath, saveLocaleCookie, switchLocalePath } from '../lib/locale.ts';

/** Shows the other language; goes to the same page (and query) under its prefix and remembers the choice. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const { pathname, search, hash } = useLocation();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const other: Locale = localeFromPath(pathname) === 'kh' ? 'en' : 'kh';

  const onClick = async () => {
    setBusy(true);
    try {
      // Load first, so the page never shows half of each language.
      await i18n.loadLanguages(other);
    } finally {
      setBusy(false);
    }
    saveLocaleCookie(other);
    await navigate(switchLocalePath(pathname, other, search + hash));
  };

  return (
    <Tooltip title={t('common.language')}>
      <Button data-testid="lang-switch" icon={<GlobalOutlined />} loading={busy} onClick={onClick}>
        <span lang={htmlLang(other)} className="lang-switch-name">
          {localeInfo[other].name}
        </span>
      </Button>
    </Tooltip>
  );
}
