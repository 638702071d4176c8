import { DEFAULT_LOCALE, type Locale, toLocale } from '@depot/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** The language of every message in the answer: X-Localization, then Accept-Language, then Khmer. */
    locale: Locale;
  }
}

export function requestLocale(request: FastifyRequest): Locale {
  const header = request.headers['x-localization'];
  const accept = request.headers['accept-language'];
  return (
    toLocale(Array.isArray(header) ? header[0] : header) ??
    toLocale(typeof accept === 'string' ? accept.split(',')[0] : undefined) ??
    DEFAULT_LOCALE
  );
}

export function registerLocale(app: FastifyInstance): void {
  app.decorateRequest('locale', DEFAULT_LOCALE);
  app.addHook('onRequest', async (request) => {
    request.locale = requestLocale(request);
  });
}
