import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { defineConfig } from 'vitest/config';
import { SIGN_IN_KEYS } from './src/signin/keys.ts';

const buildId = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

/** The running app polls this file and offers a reload when its id differs from the one it was built with. */
function buildManifest(): Plugin {
  return {
    name: 'depot-build-manifest',
    apply: 'build',
    generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: 'builds/latest.json',
        source: JSON.stringify({ id: buildId, timestamp: Date.now() }),
      });
    },
  };
}

/**
 * Writes `.br` and `.gz` beside each script and stylesheet, so a static server can send them
 * compressed without compressing per request (e.g. @fastify/static `preCompressed: true`).
 */
function precompress(): Plugin {
  return {
    name: 'depot-precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist';
      for (const fileName of Object.keys(bundle)) {
        if (!/\.(js|css|svg)$/.test(fileName)) continue;
        const file = path.join(dir, fileName);
        const source = fs.readFileSync(file);
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(source, { level: 9 }));
        fs.writeFileSync(
          `${file}.br`,
          zlib.brotliCompressSync(source, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
      }
    },
  };
}

/**
 * `virtual:sign-in-texts`: the sign-in page's words (signin/keys.ts) from the two catalogues, and
 * nothing else of them, so the first page a user opens does not load every screen's words. A key
 * missing from a catalogue fails the build.
 */
function signInTexts(): Plugin {
  const id = 'virtual:sign-in-texts';
  return {
    name: 'depot-sign-in-texts',
    resolveId: (source) => (source === id ? `\0${id}` : undefined),
    load(resolved) {
      if (resolved !== `\0${id}`) return undefined;
      const texts: Record<string, Record<string, string>> = {};
      for (const locale of ['kh', 'en']) {
        const file = path.resolve(import.meta.dirname, `src/locales/${locale}.json`);
        this.addWatchFile(file);
        const catalogue: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
        texts[locale] = {};
        for (const key of SIGN_IN_KEYS) {
          const text = key
            .split('.')
            .reduce<unknown>((tree, part) => (tree as Record<string, unknown>)?.[part], catalogue);
          if (typeof text !== 'string') throw new Error(`locales/${locale}.json has no "${key}" (signin/keys.ts)`);
          texts[locale][key] = text;
        }
      }
      return `export default ${JSON.stringify(texts)};`;
    },
  };
}

const SIGN_IN_ENTRY = path.resolve(import.meta.dirname, 'src/signin/main.tsx');
/**
 * Not followed: the contracts' index imports every module of theirs and the page needs few (the
 * group takes those it uses with the modules that use them). Their zod configuration is followed:
 * it must run before any schema is made, so it goes first into the same chunk.
 */
const SHAKEN = /[\\/](packages[\\/]contracts[\\/]src[\\/](?!zod-config\.ts)|node_modules[\\/]zod[\\/])/;
let signInGraph: Set<string> | null = null;

/**
 * The modules the sign-in page imports before it shows (not those it imports later): one chunk
 * besides its entry, so that the page costs a few requests, not twenty. The app needs most of
 * them too (React, the session, the HTTP client) and loads the same chunk.
 */
function signInChunk(id: string, ctx: { getModuleInfo(id: string): { importedIds: readonly string[] } | null }) {
  if (!signInGraph) {
    const seen = new Set<string>();
    const queue = [SIGN_IN_ENTRY];
    for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
      if (seen.has(next) || SHAKEN.test(next)) continue;
      seen.add(next);
      queue.push(...(ctx.getModuleInfo(next)?.importedIds ?? []));
    }
    seen.delete(SIGN_IN_ENTRY);
    signInGraph = seen;
  }
  return signInGraph.has(id) ? 'signin-base' : null;
}

export default defineConfig({
  plugins: [
    react(),
    signInTexts(),
    buildManifest(),
    precompress(),
    // The till opens with no connection: the service worker keeps the built files, the
    // pages as the server last sent them (with their run-time configuration, nonce and CSP), and
    // the answers of the API's reads, each tried on the network first. Registered by lib/pwa.ts.
    VitePWA({
      strategies: 'generateSW',
      injectRegister: false,
      registerType: 'prompt',
      manifest: {
        name: 'Depot',
        short_name: 'Depot',
        start_url: '/pos',
        display: 'standalone',
        background_color: '#ffffff',
        theme_color: '#1677ff',
        icons: [{ src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' }],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,svg,woff2,woff,ttf}'],
        globIgnores: ['**/*.br', '**/*.gz', 'builds/**'],
        maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
        // index.html as built has no configuration: pages come from the server (below) instead
        navigateFallback: null,
        cleanupOutdatedCaches: true,
        // a new build takes over at once: pages and API reads come from the network first anyway
        skipWaiting: true,
        clientsClaim: true,
        runtimeCaching: [
          {
            urlPattern: ({ request, url }) => request.mode === 'navigate' && !url.pathname.startsWith('/api/'),
            handler: 'NetworkFirst',
            options: { cacheName: 'depot-pages', networkTimeoutSeconds: 4 },
          },
          {
            // not the health check: it asks whether the server answers (lib/http.ts), a kept answer would
            // lie; not the catalogue's snapshot: megabytes the till keeps in IndexedDB (localSeed.ts)
            urlPattern: ({ url }) =>
              url.pathname.startsWith('/api/') &&
              !url.pathname.startsWith('/api/auth') &&
              url.pathname !== '/api/health' &&
              url.pathname !== '/api/products/snapshot',
            method: 'GET',
            handler: 'NetworkFirst',
            options: {
              cacheName: 'depot-api',
              // no time limit: a slow server is waited for, only a failed request reads the kept answer
              expiration: { maxEntries: 500, maxAgeSeconds: 7 * 24 * 3600 },
            },
          },
        ],
      },
    }),
  ],
  define: { __BUILD_ID__: JSON.stringify(buildId) },
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
  // antd, react-dom and zod together exceed Vite's default warning size.
  build: {
    chunkSizeWarningLimit: 700,
    // two pages: the app, and the sign-in page on its own (the server sends it for `/login` and `/`)
    rolldownOptions: {
      input: {
        index: path.resolve(import.meta.dirname, 'index.html'),
        signin: path.resolve(import.meta.dirname, 'signin.html'),
      },
      output: { codeSplitting: { groups: [{ name: signInChunk }] } },
    },
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    // a file's first test compiles the lazy screens, on a machine that also runs the other suites:
    // a slow test is a benchmark's business (bench/), not a failure here
    testTimeout: 20_000,
  },
});
