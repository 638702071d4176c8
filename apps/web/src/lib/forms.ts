import { issuesToErrors, type Locale } from '@depot/contracts';
import { useMutation } from '@tanstack/react-query';
import type { FormInstance } from 'antd';
import type { Rule } from 'antd/es/form/index.js';
import { useState } from 'react';
import type { z } from 'zod';
import { failureMessage, useWritten } from '../kit/queries.ts';
import { ApiError, api, newIdempotencyKey } from './http.ts';

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

/** `items.0.quantity` → `['items', 0, 'quantity']`: a list's fields are named by their index, a number. */
export function namePath(key: string): (string | number)[] {
  return key.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

/**
 * Puts Laravel-style `errors` (from zod in the browser or a 422 from the server) on their fields.
 * Returns the messages that belong to no field on screen, for an Alert. `names` lists the form's
 * fields when some may still be empty (and so absent from the form's values).
 */
export function applyFieldErrors(
  form: FormInstance,
  errors: Record<string, string[]>,
  names: Iterable<string> = Object.keys(form.getFieldsValue(true)),
): string[] {
  const known = new Set(names);
  // the fields on screen: a message for one not shown (a line's product, a hidden field) goes above
  const shown = new Set(form.getFieldsError().map((field) => field.name.join('.')));
  const fields: { name: (string | number)[]; errors: string[] }[] = [];
  const rest: string[] = [];
  for (const [key, messages] of Object.entries(errors)) {
    if (known.has(key.split('.')[0]) && shown.has(key)) fields.push({ name: namePath(key), errors: messages });
    else rest.push(...messages);
  }
  // the verdict is whole: a field it does not name is right now
  const named = new Set(Object.keys(errors));
  for (const field of form.getFieldsError()) {
    if (field.errors.length > 0 && !named.has(field.name.join('.'))) fields.push({ name: field.name, errors: [] });
  }
  form.setFields(fields);
  return rest;
}

/** The schema's verdict on a whole form: the data it sends, or the messages keyed by field path. */
export function parseWith<S extends z.ZodType>(
  schema: S,
  value: unknown,
  locale: Locale,
): { data: z.output<S>; errors: null } | { data: null; errors: Record<string, string[]> } {
  const parsed = schema.safeParse(value, { reportInput: true });
  if (parsed.success) return { data: parsed.data, errors: null };
  return { data: null, errors: issuesToErrors(parsed.error.issues, locale) };
}

/**
 * The one way a form shows what is wrong (the kit's FormPage and every other antd Form): the shared
 * zod schema's messages and a 422's (Khmer or English, from the server) on the fields `names` lists,
 * through `applyFieldErrors`; the rest, and any other failure in the server's words, in `problem`
 * for an Alert above the form.
 * - `check(schema, value?)`: the data to send, or null with the messages placed.
 * - `fail(error, rename?)`: a failed save placed (`rename` maps the server's keys to the form's).
 * - `place(errors, otherwise?)`: messages placed; `otherwise` above the form when all found a field.
 * - `edited`: the Form's `onValuesChange`, clearing what was said about a field the user changed.
 */
export function useFormCheck(form: FormInstance, names: readonly string[], locale: Locale) {
  const [problem, setProblem] = useState<string | null>(null);
  const place = (errors: Record<string, string[]>, otherwise: string | null = null) => {
    const rest = applyFieldErrors(form, errors, names);
    setProblem(rest.length > 0 ? rest.join(' ') : otherwise);
  };
  const check = <S extends z.ZodType>(schema: S, value: unknown = form.getFieldsValue(true)): z.output<S> | null => {
    const parsed = parseWith(schema, value, locale);
    if (parsed.errors) {
      place(parsed.errors);
      return null;
    }
    setProblem(null);
    return parsed.data;
  };
  const fail = (error: unknown, rename: (key: string) => string = (key) => key) => {
    if (error instanceof ApiError && error.status === 422 && error.body?.errors) {
      place(Object.fromEntries(Object.entries(error.body.errors).map(([key, messages]) => [rename(key), messages])));
      return;
    }
    setProblem(failureMessage(error, locale));
  };
  /** For the Form's `onValuesChange`: a field changed loses its message, and the one above goes. */
  const edited = (changed: object) => {
    setProblem(null);
    const stale = form.getFieldsError().filter((field) => field.errors.length > 0 && holds(changed, field.name));
    if (stale.length > 0) form.setFields(stale.map((field) => ({ name: field.name, errors: [] })));
  };
  return { problem, setProblem, place, check, fail, edited };
}

/**
 * A dialog's one write (a purchase received or paid, stock adjusted): the form's messages as
 * `useFormCheck` places them, and `save(body, rename?)`, which posts `body` to `path` with one
 * Idempotency-Key for the dialog (Save again after a lost answer does not write twice). Written, the
 * server's message is shown, every list read again and `onDone` called; refused, the refusal is
 * placed on the form (`rename` as for `fail`).
 */
export function useFormWrite<T extends { message: string }>(
  form: FormInstance,
  names: readonly string[],
  locale: Locale,
  write: { path: string; schema: z.ZodType<T>; onDone: () => void },
) {
  const errors = useFormCheck(form, names, locale);
  const written = useWritten();
  const [key] = useState(newIdempotencyKey);
  const send = useMutation({
    mutationFn: (body: unknown) => api(write.path, { method: 'POST', body, schema: write.schema, idempotencyKey: key }),
  });
  const save = async (body: unknown, rename?: (key: string) => string) => {
    errors.setProblem(null);
    try {
      void written(await send.mutateAsync(body));
      write.onDone();
    } catch (error) {
      errors.fail(error, rename);
    }
  };
  return { ...errors, save, saving: send.isPending };
}

/** Whether `values` (antd's changed values: only the changed path is set) has `path`. */
function holds(values: unknown, path: (string | number)[]): boolean {
  let at = values;
  for (const part of path) {
    if (at === null || typeof at !== 'object' || !(part in at)) return false;
    at = (at as Record<string | number, unknown>)[part];
  }
  return true;
}

/**
 * A quantity field in its unit ("1.250" kg) whose form value stays in the unit's steps (1250 g), as
 * the API takes it: spread on the `Form.Item`, with `precision={decimals}` on its InputNumber.
 */
export function inSteps(decimals: number): {
  getValueProps: (value: number | null | undefined) => { value: number | null | undefined };
  normalize: (value: number | null | undefined) => number | null | undefined;
} {
  const scale = 10 ** decimals;
  return {
    getValueProps: (value) => ({ value: value == null ? value : value / scale }),
    normalize: (value) => (value == null ? value : Math.round(value * scale)),
  };
}
