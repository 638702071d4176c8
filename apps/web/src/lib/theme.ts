import type { PublicSettings } from '@depot/contracts';
import { type ThemeConfig, theme } from 'antd';
import type { ResolvedColorMode } from './colorMode.ts';
import { fontStack } from './settings.ts';

/** antd tokens from the system settings: green primary, blue-ish secondary for info and links. */
export function themeFor(settings: PublicSettings, mode: ResolvedColorMode): ThemeConfig {
  const dark = mode === 'dark';
  return {
    algorithm: dark ? theme.darkAlgorithm : theme.defaultAlgorithm,
    token: {
      colorPrimary: settings.primary_color,
      colorInfo: settings.secondary_color,
      colorLink: settings.secondary_color,
      fontFamily: fontStack(settings.font_family),
      // Read at arm's length on a shop counter; Khmer script needs the size more than Latin does.
      fontSize: 16,
      borderRadius: 8,
      ...(dark ? {} : { colorBgLayout: settings.background_color }),
    },
    components: {
      // antd's default header and sider are navy; these follow the page instead.
      Layout: dark
        ? { headerBg: '#141414', siderBg: '#141414', triggerBg: '#1f1f1f', triggerColor: 'rgba(255, 255, 255, 0.85)' }
        : { headerBg: '#ffffff', siderBg: '#ffffff', triggerBg: '#ffffff', triggerColor: '#1f2937' },
    },
  };
}
