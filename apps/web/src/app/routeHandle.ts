import { useMatches } from 'react-router';
import type { ColorMode } from '../lib/colorMode.ts';

/** Route metadata: a page may force a colour mode (spec section 2). */
export interface RouteHandle {
  colorMode?: ColorMode;
}

/** The deepest route that forces a colour mode wins. */
export function useForcedColorMode(): ColorMode | undefined {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const mode = (matches[i].handle as RouteHandle | undefined)?.colorMode;
    if (mode) return mode;
  }
  return undefined;
}
