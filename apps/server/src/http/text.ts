import type { FastifyInstance } from 'fastify';
import { FieldError } from './errors.ts';

/**
 * Text no database keeps: a NUL character (PostgreSQL refuses it in text) or half of a UTF-16
 * surrogate pair (not Unicode at all; neither database can store it as sent).
 */
const LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function isBadText(text: string): boolean {
  return text.includes('\u0000') || LONE.test(text);
}

/** The path ("items.0.note") of the first bad string in a value read from a request, or null. */
export function badTextPath(value: unknown, path: string[] = [], depth = 0): string | null {
  const here = () => (path.length ? path.join('.') : '_');
  if (typeof value === 'string') return isBadText(value) ? here() : null;
  if (value === null || typeof value !== 'object' || depth > 64) return null;
  if (Buffer.isBuffer(value)) return null;
  for (const [key, item] of Object.entries(value)) {
    if (isBadText(key))
      return [...path, key.replaceAll('\u0000', '\ufffd').replace(/[\ud800-\udfff]/g, '\ufffd')].join('.');
    const found = badTextPath(item, [...path, key], depth + 1);
    if (found) return found;
  }
  return null;
}

/** The 422 for a bad string at `field`, in the request's language. */
export const badText = (field: string) => new FieldError({ [field]: [{ key: 'validation.characters' }] });

/** Throws the 422 when `value` holds a bad string anywhere (the import's cells, a multipart field). */
export function refuseBadText(value: unknown, field?: string): void {
  const found = badTextPath(value, field ? [field] : []);
  if (found) throw badText(found);
}

/**
 * Every route, once: the query string, the path parameters and the parsed body are refused with a
 * 422 naming the field before any schema or handler sees them. (Multipart parts are read by the
 * handler: `readUpload` checks their text fields.)
 */
export function registerTextGuard(app: FastifyInstance): void {
  // a callback, not an async hook: it runs on every request and never waits
  app.addHook('preValidation', (request, _reply, done) => {
    const found = badTextPath(request.params) ?? badTextPath(request.query) ?? badTextPath(request.body);
    done(found ? badText(found) : undefined);
  });
}
