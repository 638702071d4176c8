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
  app.setSerializerCompiler(serializerCompiler);
}
