import type { z } from 'zod';
import type { Locale } from './locales.ts';
import { type MessageKey, type MessageParams, messages, translate } from './messages.ts';
import { currentNumerals, type Numerals } from './numerals.ts';

type Issue = z.core.$ZodIssue;

/**
 * One localized message for one zod issue. Custom refinements name their message with
 * `params: { message: 'validation.password_mismatch' }`.
 * Parse with `{ reportInput: true }` so a missing value reads as "required" rather than "invalid".
 */
export function issueMessage(issue: Issue, locale: Locale, numerals: Numerals = currentNumerals()): string {
  const say = (key: MessageKey, params?: MessageParams) => translate(key, locale, params, numerals);
  switch (issue.code) {
    case 'invalid_type':
      return say(issue.input === undefined || issue.input === null ? 'validation.required' : 'validation.type');
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string') {
        const empty = typeof issue.input === 'string' && issue.input.length === 0;
        return empty ? say('validation.required') : say('validation.string_min', { min });
      }
      if (issue.origin === 'array' || issue.origin === 'set') return say('validation.array_min', { min });
      return say('validation.number_min', { min });
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') return say('validation.string_max', { max });
      return say('validation.number_max', { max });
    }
    case 'invalid_format':
      return say(issue.format === 'email' ? 'validation.email' : 'validation.format');
    case 'invalid_value':
      return say('validation.choice');
    case 'custom': {
      const key = (issue.params as { message?: string } | undefined)?.message;
      if (key && key in messages) return say(key as MessageKey);
      return say('validation.format');
    }
    default:
      return say('validation.type');
  }
}

/** Laravel's `errors` shape: `{ "field.path": ["message", …] }`. The root is keyed `_`. */
export function issuesToErrors(
  issues: readonly Issue[],
  locale: Locale,
  numerals: Numerals = currentNumerals(),
): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const key = issue.path.length ? issue.path.map(String).join('.') : '_';
    const text = issueMessage(issue, locale, numerals);
    const list = errors[key] ?? [];
    if (!list.includes(text)) list.push(text);
    errors[key] = list;
  }
  return errors;
}
