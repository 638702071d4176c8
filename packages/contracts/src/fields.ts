import { z } from 'zod';

/**
 * The optional fields of forms, one definition each: empty (null, undefined or '') is stored as
 * null, text is trimmed.
 */
export const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => (v ? v : null));

/** A phone number as people write them (digits, spaces, dashes, a leading +), 6 to 20 characters. */
export const optionalPhone = z
  .string()
  .trim()
  .regex(/^\+?[0-9][0-9 -]{5,19}$/)
  .nullish()
  .or(z.literal(''))
  .transform((v) => (v ? v : null));

/** A calendar day, YYYY-MM-DD. */
export const optionalDate = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .nullish()
  .or(z.literal(''))
  .transform((v) => (v ? v : null));
