import {
  issuesToErrors,
  type Locale,
  type MessageKey,
  type MessageParams,
  type Numerals,
  translate,
} from '@depot/contracts';
import type { FastifyError, FastifyInstance } from 'fastify';
import type { z } from 'zod';
// request.locale and request.numerals are declared there
import type {} from './locale.ts';

/**
 * Message parameters; a `{ key }` is itself translated (an entity's name inside a sentence), and a
 * `{ en, kh }` pair is a record's own name in both languages (a product's). Numbers and amounts
 * (`{ usd }`, `{ khr }`) are written by `translate` in the answer's numerals.
 */
export type ErrorParams = Record<string, MessageParams[string] | { key: MessageKey } | Record<Locale, string>>;

function resolveParams(params: ErrorParams | undefined, locale: Locale, numerals: Numerals): MessageParams | undefined {
  if (!params) return undefined;
  const resolve = (value: ErrorParams[string]): MessageParams[string] => {
    if (typeof value !== 'object' || 'usd' in value || 'khr' in value) return value;
    return 'key' in value ? translate(value.key, locale, undefined, numerals) : value[locale];
  };
  return Object.fromEntries(Object.entries(params).map(([name, value]) => [name, resolve(value)]));
}

/** An answer the client is meant to see: a status and a message from the catalogue. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly key: MessageKey,
    readonly params?: ErrorParams,
    readonly extra: { headers?: Record<string, string>; body?: Record<string, unknown> } = {},
  ) {
    super(key);
  }
}

/** 422 with errors on named fields, for rules a schema cannot express (uniqueness, references). */
export class FieldError extends Error {
  constructor(readonly fields: Record<string, { key: MessageKey; params?: MessageParams }[]>) {
    super('validation');
  }
}

/** Raised by the validator compiler; localized in the error handler with the request's locale. */
export class RequestValidationError extends Error {
  readonly statusCode = 422;
  constructor(readonly issues: readonly z.core.$ZodIssue[]) {
    super('validation');
  }
}

/** An answer given before to the same request (an idempotent retry), sent again as it was. */
export class StoredAnswer extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: string,
  ) {
    super('stored answer');
  }
}

export const notFound = () => new AppError(404, 'error.not_found');
export const forbidden = () => new AppError(403, 'auth.forbidden');
export const unauthenticated = () => new AppError(401, 'auth.unauthenticated');

function validationBody(errors: Record<string, string[]>, locale: Locale, numerals: Numerals) {
  return { message: translate('validation.failed', locale, undefined, numerals), errors };
}

/** Framework errors a client can cause, with the message to answer them. */
const clientErrors: Record<number, MessageKey> = {
  400: 'error.bad_request',
  404: 'error.not_found',
  405: 'error.not_found',
  413: 'error.payload_too_large',
  415: 'error.bad_request',
  429: 'error.too_many_requests',
};

/**
 * Every error leaves as a localized message, in the request's language and numerals (locale.ts); a
 * 500 carries only the request id to quote.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler(async (error: FastifyError | AppError | FieldError | RequestValidationError, request, reply) => {
    const locale = request.locale;
    if (error instanceof StoredAnswer) {
      return reply
        .code(error.statusCode)
        .header('content-type', 'application/json; charset=utf-8')
        .header('idempotent-replayed', 'true')
        .send(error.body);
    }
    const numerals = await request.numerals();
    const say = (key: MessageKey, params?: MessageParams) => translate(key, locale, params, numerals);
    if (error instanceof RequestValidationError) {
      return reply.code(422).send(validationBody(issuesToErrors(error.issues, locale, numerals), locale, numerals));
    }
    if (error instanceof FieldError) {
      const errors = Object.fromEntries(
        Object.entries(error.fields).map(([field, list]) => [field, list.map((m) => say(m.key, m.params))]),
      );
      return reply.code(422).send(validationBody(errors, locale, numerals));
    }
    if (error instanceof AppError) {
      if (error.extra.headers) reply.headers(error.extra.headers);
      return reply
        .code(error.statusCode)
        .send({ ...error.extra.body, message: say(error.key, resolveParams(error.params, locale, numerals)) });
    }
    // A unique index caught what the service's own check did not see (two writes at once).
    const code = (error as { code?: unknown }).code;
    if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505') {
      return reply.code(409).send({ message: say('resource.conflict') });
    }
    // a number no column can hold (PostgreSQL's integer is 32 bits; SQLite's 64): the client's
    // value, not the server's fault. Schemas bound the ids they know; this answers the rest.
    if (code === '22003' || code === '22P02' || code === '22008') {
      return reply.code(422).send(validationBody({ _: [say('validation.type')] }, locale, numerals));
    }
    const status = (error as FastifyError).statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const key = clientErrors[status] ?? 'error.bad_request';
      const retry = Number(reply.getHeader('retry-after') ?? 0);
      return reply.code(status).send({ message: say(key, { seconds: retry }) });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ message: say('error.server'), request_id: request.id });
  });
}
