import type { FastifyInstance } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { RequestValidationError } from './errors.ts';

/**
 * Request schemas are zod schemas. Parsing keeps the input on each issue so that a missing value
 * is told apart from a wrong one ("This field is required!" vs "The value is not valid.");
 * messages are chosen later, in the request's language, by the error handler.
 */
export function registerValidation(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema }) => (data) => {
    const result = (schema as z.ZodType).safeParse(data, { reportInput: true });
    return result.success ? { value: result.data } : { error: new RequestValidationError(result.error.issues) };
  });
  // an answer its maker keeps and sends again unchanged (`keepsItsJson`) is checked and written once
  // per route: later sends reuse the text
  app.setSerializerCompiler((route) => {
    const serialize = serializerCompiler(route as Parameters<typeof serializerCompiler>[0]);
    const written = new WeakMap<object, string>();
    return (data: unknown) => {
      if (typeof data !== 'object' || data === null || !kept.has(data)) return serialize(data);
      let json = written.get(data);
      if (json === undefined) {
        json = serialize(data);
        written.set(data, json);
      }
      return json;
    };
  });
}

const kept = new WeakSet<object>();

/**
 * Marks an answer that is remembered and sent again as it is, never changed: its response schema
 * check and JSON are then made once (per route), not on every request. Only for objects nobody
 * changes after this (freeze them when in doubt).
 */
export function keepsItsJson<T extends object>(answer: T): T {
  kept.add(answer);
  return answer;
}
