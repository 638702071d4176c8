import { useTranslation } from 'react-i18next';

/** While a screen's code loads. Plain markup: it must not wait for the chunks it stands in for. */
export function Splash() {
  const { t } = useTranslation();
  return (
    <div aria-busy="true" style={{ display: 'grid', placeItems: 'center', minHeight: '60vh', opacity: 0.6 }}>
      {t('app.loading')}
    </div>
  );
}
