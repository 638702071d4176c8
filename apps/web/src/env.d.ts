/// <reference types="vite/client" />

/** Set by vite.config.ts at build time; the new-version check compares it with builds/latest.json. */
declare const __BUILD_ID__: string;

interface DepotRuntimeConfig {
  /** Where the API lives, ending in a slash. */
  apiBase?: string;
  /** The broadcaster (`reverb`: Depot's own endpoint; `pusher`: an external server); never its secret. */
  broadcasting?: import('@depot/contracts').BroadcastingConfig;
}

interface Window {
  /** Injected by the server into index.html. */
  __DEPOT__?: DepotRuntimeConfig;
}

/** `md5` 2.3 (no types of its own): a KHQR's md5, made on the till's device while offline. */
declare module 'md5' {
  export default function md5(message: string): string;
}

/** The sign-in page's words from the two catalogues (vite.config.ts `signInTexts`). */
declare module 'virtual:sign-in-texts' {
  const texts: Record<import('@depot/contracts').Locale, Record<import('./signin/keys.ts').SignInKey, string>>;
  export default texts;
}
