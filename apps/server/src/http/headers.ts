import { randomBytes } from 'node:crypto';
import type { BroadcastingConfig } from '@depot/contracts';
import fastifyHelmet from '@fastify/helmet';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** This response's script nonce: the only inline scripts that run are the ones the server wrote. */
    cspNonce: string;
  }
}

/** The request's own host, for the WebSocket of the embedded real-time endpoint (old Safari does not count ws: as 'self'). */
function sameHost(request: FastifyRequest): string[] {
  const host = request.headers.host ?? '';
  return /^[A-Za-z0-9.:[\]-]{1,255}$/.test(host) ? [`ws://${host}`, `wss://${host}`] : [];
}

/** Where an external Pusher-compatible server is reached, when one is configured. */
function pusherSources(config: BroadcastingConfig): string[] {
  if (config.broadcaster !== 'pusher') return [];
  const clean = (s: string) => /^[A-Za-z0-9.-]{1,255}$/.test(s);
  if (config.host && clean(config.host)) {
    const port = config.port ? `:${config.port}` : '';
    return [`ws://${config.host}${port}`, `wss://${config.host}${port}`, `https://${config.host}${port}`];
  }
  if (config.cluster && clean(config.cluster)) {
    return [`wss://ws-${config.cluster}.pusher.com`, `https://sockjs-${config.cluster}.pusher.com`];
  }
  return [];
}

/**
 * The Content-Security-Policy of every answer. Scripts: the app's own files and the inline scripts
 * the server writes into index.html with this response's nonce; nothing else (no eval; WebAssembly
 * only, `'wasm-unsafe-eval'`: the stock count's camera decoder, zxing-wasm, served by the app). Styles: the
 * app's files and inline styles (antd's CSS-in-JS writes <style> elements at run time). Pictures:
 * the app's, uploads, data: (QR codes) and blob: (pictures chosen before upload, captures).
 * Connections: the API and the real-time WebSocket. No page may frame the app.
 */
export function contentSecurityPolicy(request: FastifyRequest, broadcasting: BroadcastingConfig): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${request.cspNonce}' 'wasm-unsafe-eval'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src ${["'self'", ...sameHost(request), ...pusherSources(broadcasting)].join(' ')}`,
    "media-src 'self' blob:",
    "worker-src 'self' blob:",
    "manifest-src 'self'",
    "frame-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Helmet's options: no framing, no sniffing, no cross-origin reads of the API, HSTS behind HTTPS. */
const HELMET = {
  contentSecurityPolicy: false,
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'same-origin' },
  crossOriginEmbedderPolicy: false,
} as const;

/**
 * The headers helmet gives an answer with HELMET, asked of helmet once (its plugin on a bare
 * server). They never vary by request, and @fastify/helmet made its middlewares afresh for each
 * request (a tenth of a list page's own work); so they are written from this list instead.
 */
export async function helmetHeaders(): Promise<[string, string][]> {
  const bare = Fastify();
  await bare.register(fastifyHelmet, HELMET);
  bare.get('/', async () => '');
  const answer = await bare.inject({ method: 'GET', url: '/' });
  await bare.close();
  const fastifyOwn = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive']);
  return Object.entries(answer.headers)
    .filter(([name]) => !fastifyOwn.has(name))
    .map(([name, value]) => [name, String(value)]);
}

/** Nonces per draw of random bytes: one call of the random source per 256 answers, not one each. */
const NONCES_PER_DRAW = 256;
const NONCE_BYTES = 16;
let nonces = Buffer.alloc(0);
let next = 0;

/** A new nonce for each answer: 16 random bytes (base64), never given twice. */
export function cspNonce(): string {
  if (next >= nonces.length) {
    nonces = randomBytes(NONCE_BYTES * NONCES_PER_DRAW);
    next = 0;
  }
  const nonce = nonces.toString('base64', next, next + NONCE_BYTES);
  next += NONCE_BYTES;
  return nonce;
}

/**
 * The hardening headers of every answer (helmet's, above), the CSP with a new nonce, and the
 * answer's request id, in one hook run before anything else of the request.
 */
export async function registerHeaders(app: FastifyInstance, broadcasting: () => BroadcastingConfig): Promise<void> {
  const hardening = await helmetHeaders();
  app.decorateRequest('cspNonce', '');
  app.addHook('onRequest', (request, reply, done) => {
    const raw = reply.raw;
    for (const [name, value] of hardening) raw.setHeader(name, value);
    request.cspNonce = cspNonce();
    reply.header('x-request-id', request.id);
    reply.header('content-security-policy', contentSecurityPolicy(request, broadcasting()));
    done();
  });
}
