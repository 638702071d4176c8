import { useMatches } from 'react-router';
import type { ColorMode } from '../lib/colorMode.ts';

/** Route metadata: a page may force a colour mode (spec section 2). */
export interface RouteHandle {
  colorMode?: ColorMode;
  /** The page fills the window under the header, without the footer (the till). */
  fullHeight?: boolean;
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

/** Whether the page asks for the whole height of the window. */
export function useFullHeight(): boolean {
  return useMatches().some((match) => (match.handle as RouteHandle | undefined)?.fullHeight === true);
}
