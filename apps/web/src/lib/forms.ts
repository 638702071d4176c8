import { issuesToErrors, type Locale } from '@depot/contracts';
import type { FormInstance } from 'antd';
import type { Rule } from 'antd/es/form/index.js';
import type { z } from 'zod';

/** An antd rule that runs the server's zod schema for one field, with the shared localized messages. */
export function zodRule(schema: z.ZodType, locale: Locale): Rule {
  return {
    validator: async (_rule, value: unknown) => {
      const result = schema.safeParse(value, { reportInput: true });
      if (result.success) return;
      const [first] = Object.values(issuesToErrors(result.error.issues, locale));
      throw new Error(first?.[0]);
    },
  };
}

/**
 * Puts Laravel-style `errors` (from zod in the browser or a 422 from the server) on their fields.
 * Returns the messages that belong to no field, for an Alert. `names` lists the form's fields when
 * some may still be empty (and so absent from the form's values).
 */
export function applyFieldErrors(
  form: FormInstance,
  errors: Record<string, string[]>,
  names: Iterable<string> = Object.keys(form.getFieldsValue(true)),
): string[] {
  const known = new Set(names);
  const fields: { name: string[]; errors: string[] }[] = [];
  const rest: string[] = [];
  for (const [key, messages] of Object.entries(errors)) {
    if (known.has(key.split('.')[0])) fields.push({ name: key.split('.'), errors: messages });
    else rest.push(...messages);
  }
  form.setFields(fields);
  return rest;
}
