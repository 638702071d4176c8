import type { z } from 'zod';
import type { Locale } from './locales.ts';
import { type MessageKey, messages, translate } from './messages.ts';

type Issue = z.core.$ZodIssue;

/**
 * One localized message for one zod issue. Custom refinements name their message with
 * `params: { message: 'validation.password_mismatch' }`.
 * Parse with `{ reportInput: true }` so a missing value reads as "required" rather than "invalid".
 */
export function issueMessage(issue: Issue, locale: Locale): string {
  switch (issue.code) {
    case 'invalid_type':
      return translate(
        issue.input === undefined || issue.input === null ? 'validation.required' : 'validation.type',
        locale,
      );
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string') {
        const empty = typeof issue.input === 'string' && issue.input.length === 0;
        return empty ? translate('validation.required', locale) : translate('validation.string_min', locale, { min });
      }
      if (issue.origin === 'array' || issue.origin === 'set') return translate('validation.array_min', locale, { min });
      return translate('validation.number_min', locale, { min });
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') return translate('validation.string_max', locale, { max });
      return translate('validation.number_max', locale, { max });
    }
    case 'invalid_format':
      return translate(issue.format === 'email' ? 'validation.email' : 'validation.format', locale);
    case 'invalid_value':
      return translate('validation.choice', locale);
    case 'custom': {
      const key = (issue.params as { message?: string } | undefined)?.message;
      if (key && key in messages) return translate(key as MessageKey, locale);
      return translate('validation.format', locale);
    }
    default:
      return translate('validation.type', locale);
  }
}

/** Laravel's `errors` shape: `{ "field.path": ["message", …] }`. The root is keyed `_`. */
export function issuesToErrors(issues: readonly Issue[], locale: Locale): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const key = issue.path.length ? issue.path.map(String).join('.') : '_';
    const message = issueMessage(issue, locale);
    const list = errors[key] ?? [];
    if (!list.includes(message)) list.push(message);
    errors[key] = list;
  }
  return errors;
}
