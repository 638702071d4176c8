/// <reference types="vite/client" />

/** Set by vite.config.ts at build time; the new-version check compares it with builds/latest.json. */
declare const __BUILD_ID__: string;

interface DepotRuntimeConfig {
  /** Where the API lives, ending in a slash. */
  apiBase?: string;
}

interface Window {
  /** Injected by the server into index.html. */
  __DEPOT__?: DepotRuntimeConfig;
}
