import { DesktopOutlined, MoonOutlined, SunOutlined } from '@ant-design/icons';
import { Segmented } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useForcedColorMode } from '../app/routeHandle.ts';
import { COLOR_MODES, type ColorMode, setColorModePreference, useColorModePreference } from '../lib/colorMode.ts';
import { useSettings } from '../lib/settings.ts';

const icons: Record<ColorMode, ReactNode> = {
  light: <SunOutlined />,
  dark: <MoonOutlined />,
  system: <DesktopOutlined />,
};

/** Light, dark or the device's setting. Hidden when the settings do not allow dark mode. */
export function ColorModeSwitch() {
  const { t } = useTranslation();
  const { settings } = useSettings();
  const forced = useForcedColorMode();
  const preference = useColorModePreference();
  if (!settings.dark_mode) return null;

  return (
    <Segmented<ColorMode>
      data-testid="color-mode"
      aria-label={t('colorMode.label')}
      value={forced ?? preference}
      disabled={Boolean(forced)}
      onChange={setColorModePreference}
      options={COLOR_MODES.map((mode) => ({
        value: mode,
        tooltip: t(`colorMode.${mode}`),
        label: (
          <span data-testid={`color-mode-${mode}`} role="img" aria-label={t(`colorMode.${mode}`)}>
            {icons[mode]}
          </span>
        ),
      }))}
    />
  );
}
