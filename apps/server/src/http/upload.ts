import type { FastifyRequest } from 'fastify';
import { AppError, FieldError } from './errors.ts';
import { refuseBadText } from './text.ts';

/** What a multipart request carried: the one expected file, and its text fields. */
export interface Upload {
  /** The file's bytes; null when no part had the expected name. */
  bytes: Buffer | null;
  fields: Record<string, string>;
}

/**
 * The one way an upload route reads its multipart body (a picture, an import). Whatever a client
 * sends, the answer is a client's error in its language, never a 500:
 * - not multipart, or no file under `field`: `bytes` is null (the route says the field is required);
 * - a file over `maxBytes`: the route's own `tooLarge` refusal (its message names the limit);
 * - too many parts, files or fields: 413;
 * - a body that is not multipart as declared (no boundary, cut short, broken part headers): 422 on `field`;
 * - a text field with a NUL or half a surrogate pair: 422 naming it, as for every JSON string.
 * Other files and parts are read and dropped, so the request is always consumed to its end.
 */
export async function readUpload(
  request: FastifyRequest,
  options: { field: string; maxBytes: number; tooLarge: () => Error },
): Promise<Upload> {
  const upload: Upload = { bytes: null, fields: {} };
  if (!request.isMultipart()) return upload;
  let refused: Error | null = null;
  try {
    const parts = request.parts({
      limits: { fileSize: options.maxBytes, files: 2, fields: 20, fieldSize: 64 * 1024, parts: 30 },
    });
    for await (const part of parts) {
      refuseBadText(part.fieldname, part.fieldname);
      if (part.type === 'file') {
        if (part.fieldname !== options.field || upload.bytes) {
          part.file.resume();
          continue;
        }
        upload.bytes = await part.toBuffer();
        if (part.file.truncated) {
          refused = options.tooLarge();
          throw refused;
        }
      } else if (typeof part.value === 'string') {
        refuseBadText(part.value, part.fieldname);
        upload.fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    throw error === refused ? error : uploadError(error, options);
  }
  return upload;
}

function uploadError(error: unknown, options: { field: string; tooLarge: () => Error }): Error {
  if (error instanceof AppError || error instanceof FieldError) return error;
  const code = (error as { code?: unknown }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return options.tooLarge();
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT') {
    return new AppError(413, 'error.payload_too_large');
  }
  // busboy's "Unexpected end of form", "Malformed part header", a missing boundary…
  return new FieldError({ [options.field]: [{ key: 'validation.upload' }] });
}
