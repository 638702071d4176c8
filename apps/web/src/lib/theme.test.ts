import { DEFAULT_SETTINGS } from '@depot/contracts';
import { theme } from 'antd';
import { describe, expect, it } from 'vitest';
import { contrast, contrastWarnings, readable, TEXT_CONTRAST, themeFor } from './theme.ts';

function solid(rgba: string, under: string): string {
  const m = /rgba\((\d+),\s*(\d+),\s*(\d+),\s*([\d.]+)\)/.exec(rgba);
  if (!m) return rgba;
  const a = Number(m[4]);
  const u = [1, 3, 5].map((i) => Number.parseInt(under.slice(i, i + 2), 16));
  return `#${[1, 2, 3]
    .map((i, k) =>
      Math.round(Number(m[i]) * a + u[k] * (1 - a))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

describe('the theme’s contrast', () => {
  it('measures as WCAG does', () => {
    expect(contrast('#ffffff', '#000000')).toBeCloseTo(21, 0);
    expect(contrast('#ffffff', '#16a34a')).toBeCloseTo(3.29, 1);
  });

  for (const mode of ['light', 'dark'] as const) {
    for (const colour of [DEFAULT_SETTINGS.primary_color, '#facc15', '#7dd3fc', '#1e3a8a', '#ff0000']) {
      it(`draws ${colour} readable in ${mode}: text on the page and its tint, and a fill under its text`, () => {
        const page = mode === 'dark' ? '#141414' : '#ffffff';
        const tokens = theme.getDesignToken(themeFor({ ...DEFAULT_SETTINGS, primary_color: colour }, mode));
        expect(contrast(tokens.colorPrimary, page)).toBeGreaterThanOrEqual(TEXT_CONTRAST);
        expect(contrast(tokens.colorPrimary, tokens.colorPrimaryBg)).toBeGreaterThanOrEqual(TEXT_CONTRAST);
        expect(contrast(tokens.colorTextLightSolid, tokens.colorPrimary)).toBeGreaterThanOrEqual(TEXT_CONTRAST);
      });

      it(`draws a tooltip's text readable on its spotlight in ${mode}, under ${colour}`, () => {
        const config = themeFor({ ...DEFAULT_SETTINGS, primary_color: colour }, mode);
        const tokens = theme.getDesignToken(config);
        // the Tooltip's own tokens over the global ones, as antd merges them
        const text = config.components?.Tooltip?.colorTextLightSolid ?? tokens.colorTextLightSolid;
        const page = mode === 'dark' ? '#141414' : '#ffffff';
        expect(contrast(text, solid(tokens.colorBgSpotlight, page))).toBeGreaterThanOrEqual(TEXT_CONTRAST);
      });

      it(`draws an unchecked switch's words readable on its track in ${mode}, under ${colour}`, () => {
        const config = themeFor({ ...DEFAULT_SETTINGS, primary_color: colour }, mode);
        const tokens = theme.getDesignToken(config);
        // antd draws the unchecked track in colorTextQuaternary, its words in colorTextLightSolid
        const track = config.components?.Switch?.colorTextQuaternary ?? tokens.colorTextQuaternary;
        const page = mode === 'dark' ? '#141414' : '#ffffff';
        expect(contrast(tokens.colorTextLightSolid, solid(track, page))).toBeGreaterThanOrEqual(TEXT_CONTRAST);
      });
    }

    it(`keeps secondary text, placeholders and links readable in ${mode}`, () => {
      const tokens = theme.getDesignToken(themeFor(DEFAULT_SETTINGS, mode));
      const page = mode === 'dark' ? '#141414' : '#ffffff';
      for (const text of [tokens.colorTextDescription, tokens.colorTextTertiary, tokens.colorTextPlaceholder]) {
        expect(contrast(solid(text, page), page)).toBeGreaterThanOrEqual(TEXT_CONTRAST);
      }
      expect(contrast(tokens.colorLink, page)).toBeGreaterThanOrEqual(TEXT_CONTRAST);
      expect(contrast(tokens.colorWarningText, tokens.colorWarningBg)).toBeGreaterThanOrEqual(TEXT_CONTRAST);
      expect(contrast(tokens.colorError, page)).toBeGreaterThanOrEqual(TEXT_CONTRAST);
    });
  }

  it('turns antd’s fades and slides off when the device asks for less motion, and only then', () => {
    expect(theme.getDesignToken(themeFor(DEFAULT_SETTINGS, 'light')).motion).not.toBe(false);
    expect(theme.getDesignToken(themeFor(DEFAULT_SETTINGS, 'dark', { reducedMotion: true })).motion).toBe(false);
  });

  it('warns about a chosen colour that fails 4.5:1, and names what is shown instead', () => {
    expect(contrastWarnings(DEFAULT_SETTINGS)).toEqual([]);
    expect(
      contrastWarnings({ ...DEFAULT_SETTINGS, primary_color: '#16a34a', secondary_color: '#3b82f6' }).map(
        (w) => w.field,
      ),
    ).toEqual(['primary_color', 'secondary_color']);
    const [warning] = contrastWarnings({ ...DEFAULT_SETTINGS, primary_color: '#facc15', secondary_color: '#1d4ed8' });
    expect(warning.field).toBe('primary_color');
    expect(warning.ratio).toBeLessThan(2);
    expect(warning.shown).toBe(readable('#facc15', 'light').seed);
    expect(contrastWarnings({ ...DEFAULT_SETTINGS, primary_color: '#166534', secondary_color: '#1d4ed8' })).toEqual([]);
  });
});
