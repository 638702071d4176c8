import type { PublicSettings } from '@depot/contracts';
import { type ThemeConfig, theme } from 'antd';
import type { ResolvedColorMode } from './colorMode.ts';
import { fontStack } from './settings.ts';

/** WCAG's minimum for text (docs/ARCHITECTURE.md, "Contrast"). */
export const TEXT_CONTRAST = 4.5;

const PAGE = { light: '#ffffff', dark: '#141414' } as const;
const DARK_TEXT = '#141414';

function rgb(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1, 7), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function hex([r, g, b]: number[]): string {
  return `#${[r, g, b]
    .map((c) =>
      Math.round(Math.min(255, Math.max(0, c)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

function luminance(colour: string): number {
  const [r, g, b] = rgb(colour).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio of two opaque colours (#rrggbb), 1 to 21. */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** A step towards black (amount < 0) or white (amount > 0). */
function shade(colour: string, amount: number): string {
  const target = amount < 0 ? 0 : 255;
  return hex(rgb(colour).map((c) => c + (target - c) * Math.abs(amount)));
}

interface Readable {
  /** The seed given to antd, moved towards black (light) or white (dark) as little as needed. */
  seed: string;
  /** The colour antd draws from it (its dark algorithm derives its own). */
  drawn: string;
  /** Text on a solid fill of it: white, or near-black on a light fill in dark mode. */
  onFill: string;
  /** Its faint tint behind it as text (the selected menu item, a selected option). */
  tint: string;
}

/** A faint tint of a colour on the page: mostly page, a little colour. */
function tintOf(colour: string, mode: ResolvedColorMode): string {
  const page = rgb(PAGE[mode]);
  const share = mode === 'dark' ? 0.2 : 0.1;
  return hex(rgb(colour).map((c, i) => c * share + page[i] * (1 - share)));
}

const cache = new Map<string, Readable>();

/**
 * An administrator's colour made readable: as text on the page and on its own tint (the selected
 * menu item), and as a fill under white (or dark) text, every pair at least 4.5:1. The colour is
 * moved towards black in light mode and towards white in dark mode, in small steps, only as far
 * as needed; antd's own derivation is asked each time, so what is checked is what is drawn.
 */
export function readable(colour: string, mode: ResolvedColorMode): Readable {
  const key = `${colour}${mode}`;
  const known = cache.get(key);
  if (known) return known;
  const dark = mode === 'dark';
  const algorithm = dark ? theme.darkAlgorithm : theme.defaultAlgorithm;
  let seed = colour;
  let result: Readable = { seed, drawn: seed, onFill: '#ffffff', tint: tintOf(seed, mode) };
  for (let step = 0; step <= 40; step++) {
    const token = theme.getDesignToken({ algorithm, token: { colorPrimary: seed } });
    const drawn = token.colorPrimary;
    const onFill = contrast('#ffffff', drawn) >= TEXT_CONTRAST ? '#ffffff' : DARK_TEXT;
    const tint = tintOf(drawn, mode);
    result = { seed, drawn, onFill, tint };
    const ok =
      contrast(drawn, PAGE[mode]) >= TEXT_CONTRAST &&
      contrast(drawn, tint) >= TEXT_CONTRAST &&
      contrast(onFill, drawn) >= TEXT_CONTRAST;
    if (ok) break;
    seed = shade(seed, dark ? 0.06 : -0.06);
  }
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
      Layout: dark
        ? { headerBg: '#141414', siderBg: '#141414', triggerBg: '#1f1f1f', triggerColor: 'rgba(255, 255, 255, 0.85)' }
        : { headerBg: '#ffffff', siderBg: '#ffffff', triggerBg: '#ffffff', triggerColor: '#1f2937' },
    },
  };
}
