import {
  DEFAULT_LOCALE,
  type Locale,
  type MessageKey,
  type MessageParams,
  type Numerals,
  numeralsFor,
  toLocale,
  translate,
} from '@depot/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** The language of every message in the answer: X-Localization, then Accept-Language, then Khmer. */
    locale: Locale;
    /**
     * The numerals of the answer's messages: Khmer digits in Khmer with the `khmer_numerals` system
     * setting on (contracts numerals.ts `numeralsFor`), else Latin. Read once per request, when a
     * message is first written, never for an English answer.
     */
    numerals: () => Promise<Numerals>;
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

/** Messages in one reader's language and numerals (`messagesFor`), with both at hand for what needs them. */
export interface Say {
  (key: MessageKey, params?: MessageParams): string;
  readonly locale: Locale;
  readonly numerals: Numerals;
}

/** The request's reader's `Say`: for code that writes many messages (an import's rows). */
export async function messagesFor(request: FastifyRequest): Promise<Say> {
  const locale = request.locale;
  const numerals = await request.numerals();
  return Object.assign((key: MessageKey, params?: MessageParams) => translate(key, locale, params, numerals), {
    locale,
    numerals,
  });
}

/**
 * A message of the catalogue as the request's reader sees it: their language, their numerals. Every
 * message the server answers is written through here or `messagesFor` (the error handler, the routes'
 * messages, the imports' refusals).
 */
export async function say(request: FastifyRequest, key: MessageKey, params?: MessageParams): Promise<string> {
  return (await messagesFor(request))(key, params);
}

/**
 * `khmerNumerals` reads the setting (the settings service): asked only for a Khmer answer with a
 * message; a failure to read it leaves the digits Latin rather than failing the answer.
 */
export function registerLocale(app: FastifyInstance, khmerNumerals: () => Promise<boolean>): void {
  app.decorateRequest('locale', DEFAULT_LOCALE);
  app.decorateRequest('numerals', async () => 'latin' as Numerals);
  // a callback, not an async hook: it runs on every request and never waits
  app.addHook('onRequest', (request, _reply, done) => {
    request.locale = requestLocale(request);
    let numerals: Promise<Numerals> | null = null;
    request.numerals = () => {
      numerals ??=
        request.locale === 'en'
          ? Promise.resolve('latin')
          : khmerNumerals().then(
              (on) => numeralsFor(on, request.locale),
              () => 'latin' as const,
            );
      return numerals;
    };
    done();
  });
}
