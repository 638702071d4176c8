import fs from 'node:fs';
import path from 'node:path';
import { findScreen, titleOf } from '@depot/contracts';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { escapeHtml } from '../kit/html.ts';
import type { SettingsService } from '../modules/settings/settings.service.ts';
import type { Realtime } from '../realtime/realtime.ts';
import { notFound } from './errors.ts';

/** The screens the server answers with the sign-in page: where a visitor without a session lands. */
const SIGN_IN_PATHS = new Set(['/', '/app', '/login']);

/**
 * Serves the built web app: files under dist/ as they are (hashed assets cached for a year), and
 * index.html for every screen path with the run-time configuration injected. A path that is no
 * screen gets the same page with status 404, and the app shows its "Page Not Found".
 */
export async function registerWeb(
  app: FastifyInstance,
  distDir: string,
  settings: SettingsService,
  realtime: Realtime,
): Promise<void> {
  const read = (file: string) =>
    fs.existsSync(path.join(distDir, file)) ? fs.readFileSync(path.join(distDir, file), 'utf8') : null;
  const template = read('index.html');
  // the sign-in page on its own (apps/web signin.html): a fraction of the app's code; a build
  // without it sends the app, which has the same page
  const signInTemplate = read('signin.html') ?? template;
  if (template) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      // the build writes .br and .gz beside each script and stylesheet: a till on a slow link
      // downloads a quarter of the bytes, and the server spends no CPU compressing
      preCompressed: true,
      setHeaders(res, file) {
        const immutable = file.includes(`${path.sep}assets${path.sep}`) || file.includes(`${path.sep}fonts${path.sep}`);
        res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  } else {
    app.log.warn({ distDir }, 'the web app is not built: run `npm run build`; only the API is served');
  }

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0];
    if (pathname.startsWith('/api/') || (request.method !== 'GET' && request.method !== 'HEAD')) throw notFound();
    if (!template) {
      return reply.code(503).type('text/plain').send('The web app is not built. Run `npm run build` and restart.');
    }
    const english = pathname === '/en' || pathname.startsWith('/en/');
    const screen = findScreen(pathname);
    // `/` too: without a session it leads to the sign-in page, with one the page starts the app
    const page = screen && SIGN_IN_PATHS.has(screen.path) ? (signInTemplate ?? template) : template;
    const current = await settings.publicSettings();
    const config = JSON.stringify({ apiBase: '/api/', broadcasting: realtime.clientConfig() }).replace(/</g, '\\u003c');
    const html = page
      .replace('<html lang="km">', `<html lang="${english ? 'en' : 'km'}">`)
      .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(titleOf(current, english ? 'en' : 'kh'))}</title>`)
      .replace('</head>', `<script>window.__DEPOT__=${config}</script></head>`)
      // every script tag the page has gets this response's nonce (the CSP runs no other inline script)
      .replace(/<script(?=[\s>])/g, `<script nonce="${request.cspNonce}"`);
    return reply
      .code(screen ? 200 : 404)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(html);
  });
}
