import type { PublicSettings } from '@depot/contracts';
import { type ThemeConfig, theme } from 'antd';
import type { ResolvedColorMode } from './colorMode.ts';
import { contrast, DARK_TEXT, PAGE, type Readable, readableColour, TEXT_CONTRAST } from './contrast.ts';
import { fontStack } from './publicSettings.ts';

export { contrast, TEXT_CONTRAST };

const cache = new Map<string, Readable>();

/**
 * An administrator's colour made readable (lib/contrast.ts `readableColour`), antd's own derivation
 * asked each time, so what is checked is what is drawn.
 */
export function readable(colour: string, mode: ResolvedColorMode): Readable {
  const key = `${colour}${mode}`;
  const known = cache.get(key);
  if (known) return known;
  const algorithm = mode === 'dark' ? theme.darkAlgorithm : theme.defaultAlgorithm;
  const result = readableColour(
    colour,
    mode,
    (seed) => theme.getDesignToken({ algorithm, token: { colorPrimary: seed } }).colorPrimary,
  );
  cache.set(key, result);
  return result;
}

/** What the settings editor warns about: a chosen colour that fails 4.5:1 as it stands. */
export function contrastWarnings(
  settings: Pick<PublicSettings, 'primary_color' | 'secondary_color' | 'background_color'>,
): { field: 'primary_color' | 'secondary_color' | 'background_color'; ratio: number; shown: string }[] {
  const warnings: ReturnType<typeof contrastWarnings> = [];
  for (const field of ['primary_color', 'secondary_color'] as const) {
    const chosen = settings[field];
    const ratio = Math.min(contrast(chosen, PAGE.light), contrast('#ffffff', chosen));
    if (ratio < TEXT_CONTRAST) warnings.push({ field, ratio, shown: readable(chosen, 'light').seed });
  }
  // body text (near-black) and secondary text (60 %) on the background of light pages
  const ratio = contrast('#666666', settings.background_color);
  if (ratio < TEXT_CONTRAST) warnings.push({ field: 'background_color', ratio, shown: settings.background_color });
  return warnings;
}

/** An unchecked switch's track under its words (`onFill`): a mid grey under white, a light one under dark text. */
function switchTrack(onFill: string, mode: ResolvedColorMode): string {
  const midGrey = mode === 'dark' ? '#5c5c5c' : '#737373';
  return contrast(onFill, midGrey) >= TEXT_CONTRAST ? midGrey : '#d9d9d9';
}

/**
 * antd tokens from the system settings: green primary, blue-ish secondary for info and links, every
 * text at least 4.5:1 on its background in light and dark (secondary text, placeholders, warning
 * and error text included), whatever colours an administrator picks.
 */
export function themeFor(
  settings: PublicSettings,
  mode: ResolvedColorMode,
  { reducedMotion = false }: { reducedMotion?: boolean } = {},
): ThemeConfig {
  const dark = mode === 'dark';
  const primary = readable(settings.primary_color, mode);
  const secondary = readable(settings.secondary_color, mode);
  const faint = dark ? 'rgba(255, 255, 255, 0.62)' : 'rgba(0, 0, 0, 0.62)';
  return {
    algorithm: dark ? theme.darkAlgorithm : theme.defaultAlgorithm,
    token: {
      colorPrimary: primary.seed,
      colorInfo: secondary.seed,
      colorLink: secondary.seed,
      colorTextLightSolid: primary.onFill,
      colorPrimaryBg: primary.tint,
      colorTextTertiary: faint,
      colorTextDescription: faint,
      colorTextPlaceholder: dark ? 'rgba(255, 255, 255, 0.55)' : 'rgba(0, 0, 0, 0.56)',
      // antd's red is 3.3:1 on white and 4.3:1 on black: a deeper red on light pages, a lighter one on dark
      ...(dark
        ? { colorError: '#ff7875' }
        : {
            colorWarningText: '#ad4e00',
            colorErrorText: '#cf1322',
            colorSuccessText: '#237804',
            colorError: '#cf1322',
          }),
      fontFamily: fontStack(settings.font_family),
      // Read at arm's length on a shop counter; Khmer script needs the size more than Latin does.
      fontSize: 16,
      borderRadius: 8,
      ...(dark ? {} : { colorBgLayout: settings.background_color }),
      // the device asks for less motion: no fades, slides or waves
      ...(reducedMotion ? { motion: false } : {}),
    },
    components: {
      // antd's default header and sider are navy; these follow the page instead.
      // dark text on the light red fill of a dangerous primary button in dark mode
      ...(dark ? { Button: { dangerColor: DARK_TEXT } } : {}),
      // a tooltip is drawn on antd's spotlight, near black in light mode and dark grey in dark: white
      // text on it, not the text for a fill of the primary colour (dark on a light primary)
      Tooltip: { colorTextLightSolid: '#ffffff' },
      // an unchecked switch's words ("No serial") are drawn on its track in the text for a primary fill:
      // antd's light grey track is 1.8:1 under white; a grey that reads 4.5:1 or more under that text
      Switch: { colorTextQuaternary: switchTrack(primary.onFill, mode) },
      Layout: dark
        ? { headerBg: '#141414', siderBg: '#141414', triggerBg: '#1f1f1f', triggerColor: 'rgba(255, 255, 255, 0.85)' }
        : { headerBg: '#ffffff', siderBg: '#ffffff', triggerBg: '#ffffff', triggerColor: '#1f2937' },
    },
  };
}
