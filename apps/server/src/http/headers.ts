import { randomBytes } from 'node:crypto';
import type { BroadcastingConfig } from '@depot/contracts';
import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance, FastifyRequest } from 'fastify';

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
 * the server writes into index.html with this response's nonce; nothing else (no eval). Styles: the
 * app's files and inline styles (antd's CSS-in-JS writes <style> elements at run time). Pictures:
 * the app's, uploads, data: (QR codes) and blob: (pictures chosen before upload, captures).
 * Connections: the API and the real-time WebSocket. No page may frame the app.
 */
export function contentSecurityPolicy(request: FastifyRequest, broadcasting: BroadcastingConfig): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${request.cspNonce}'`,
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

/**
 * The hardening headers of every answer (helmet: no framing, no sniffing, no cross-origin reads
 * of the API, HSTS behind HTTPS) and the CSP above, with a new nonce per request.
 */
export async function registerHeaders(app: FastifyInstance, broadcasting: () => BroadcastingConfig): Promise<void> {
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: false,
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
  });
  app.decorateRequest('cspNonce', '');
  app.addHook('onRequest', async (request, reply) => {
    request.cspNonce = randomBytes(16).toString('base64');
    reply.header('content-security-policy', contentSecurityPolicy(request, broadcasting()));
  });
}
