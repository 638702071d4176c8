import type { ResolvedColorMode } from './colorMode.ts';

/** WCAG's minimum for text (docs/ARCHITECTURE.md, "Contrast"). */
export const TEXT_CONTRAST = 4.5;

export const PAGE = { light: '#ffffff', dark: '#141414' } as const;
export const DARK_TEXT = '#141414';

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

export interface Readable {
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

/**
 * An administrator's colour made readable: as text on the page and on its own tint (the selected
 * menu item), and as a fill under white (or dark) text, every pair at least 4.5:1. The colour is
 * moved towards black in light mode and towards white in dark mode, in small steps, only as far
 * as needed. `derive` is the colour drawn from a seed (antd's algorithm in the app, theme.ts; the
 * seed itself on the sign-in page, which draws its own button).
 */
export function readableColour(
  colour: string,
  mode: ResolvedColorMode,
  derive: (seed: string) => string = (seed) => seed,
): Readable {
  const dark = mode === 'dark';
  let seed = colour;
  let result: Readable = { seed, drawn: seed, onFill: '#ffffff', tint: tintOf(seed, mode) };
  for (let step = 0; step <= 40; step++) {
    const drawn = derive(seed);
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
  return result;
}
