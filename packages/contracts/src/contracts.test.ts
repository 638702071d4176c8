import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loginBody } from './auth.ts';
import { toLocale } from './locales.ts';
import { messages, translate } from './messages.ts';
import { ACTIONS, DEFAULT_ROLES, PERMISSIONS, RESOURCES } from './permissions.ts';
import { findScreen, stripLocalePrefix } from './screens.ts';
import { issuesToErrors } from './validation.ts';

describe('permission vocabulary', () => {
  it('is generated as resource.action for every resource, unique, from the spec vocabulary', () => {
    expect(new Set(PERMISSIONS).size).toBe(PERMISSIONS.length);
    const expected = Object.values(RESOURCES).reduce((n, actions) => n + actions.length, 0);
    expect(PERMISSIONS.length).toBe(expected);
    for (const p of PERMISSIONS) {
      const [resource, action] = p.split('.');
      expect(Object.keys(RESOURCES)).toContain(resource);
      expect(ACTIONS).toContain(action);
    }
    expect(PERMISSIONS).toContain('sub_categories.restore');
  });

  it('gives the administrator everything and the others what their work needs', () => {
    const role = (name: string) => DEFAULT_ROLES.find((r) => r.name === name)?.permissions as readonly string[];
    expect(role('administrator')).toEqual(PERMISSIONS);
    expect(role('manager')).not.toContain('roles.update');
    expect(role('manager')).toContain('purchases.approve');
    expect(role('cashier')).toContain('orders.create');
    expect(role('cashier')).not.toContain('purchases.create');
    expect(role('stock_keeper')).toContain('stocks.update');
    expect(role('stock_keeper')).not.toContain('orders.create');
    for (const r of DEFAULT_ROLES) expect(r.permissions, r.name).toContain('dashboards.view');
  });
});

describe('message catalogue', () => {
  it('has a Khmer and an English text for every message, and the Khmer is Khmer', () => {
    for (const [key, text] of Object.entries(messages)) {
      expect(text.en.trim(), key).not.toBe('');
      expect(text.kh, key).toMatch(/[\u1780-\u17FF]/);
    }
  });

  it('fills placeholders and leaves unknown ones visible', () => {
    expect(translate('auth.throttled', 'en', { seconds: 42 })).toBe(
      'Too many failed sign-in attempts. Try again in 42 seconds.',
    );
    expect(translate('validation.string_min', 'en')).toBe('Must be at least {min} characters.');
  });
});

describe('validation messages', () => {
  const errors = (schema: z.ZodType, data: unknown, locale: 'en' | 'kh' = 'en') => {
    const result = schema.safeParse(data, { reportInput: true });
    if (result.success) return {};
    return issuesToErrors(result.error.issues, locale);
  };

  it('says "This field is required!" for a missing or empty value, and explains the other failures', () => {
    expect(errors(loginBody, {})).toEqual({
      name: ['This field is required!'],
      password: ['This field is required!'],
    });
    const schema = z.object({
      name: z.string().min(5).max(50),
      email: z.email(),
      status: z.enum(['active', 'inactive']),
      age: z.number().min(18),
    });
    expect(errors(schema, { name: 'abc', email: 'nope', status: 'gone', age: 3 })).toEqual({
      name: ['Must be at least 5 characters.'],
      email: ['Enter a valid email address.'],
      status: ['Choose one of the allowed values.'],
      age: ['Must be at least 18.'],
    });
    expect(errors(schema, { name: 'x'.repeat(51), email: 'a@b.co', status: 'active', age: 'old' }, 'kh')).toEqual({
      name: ['មិនត្រូវលើសពី 50 តួអក្សរ។'],
      age: ['តម្លៃមិនត្រឹមត្រូវ។'],
    });
  });

  it('names custom refinements by their message key, on the field they concern', () => {
    const schema = z
      .object({ password: z.string().min(8), confirm: z.string() })
      .refine((v) => v.password === v.confirm, {
        path: ['confirm'],
        params: { message: 'validation.password_mismatch' },
      });
    expect(errors(schema, { password: 'abcdefgh', confirm: 'abcdefgx' })).toEqual({
      confirm: ['The password confirmation does not match.'],
    });
  });
});

describe('locales and screens', () => {
  it('reads Khmer from both kh and km tags, English from en-*, and nothing else', () => {
    expect(toLocale('km-KH')).toBe('kh');
    expect(toLocale('kh')).toBe('kh');
    expect(toLocale('en_GB')).toBe('en');
    expect(toLocale('fr-FR')).toBeNull();
    expect(toLocale(undefined)).toBeNull();
  });

  it('finds a screen with or without the /en prefix', () => {
    expect(stripLocalePrefix('/en/dashboards')).toBe('/dashboards');
    expect(stripLocalePrefix('/en')).toBe('/');
    expect(stripLocalePrefix('/english')).toBe('/english');
    expect(findScreen('/en/dashboards')?.permission).toBe('dashboards.view');
    expect(findScreen('/login')?.layout).toBe('guest');
    expect(findScreen('/en')?.path).toBe('/');
    expect(findScreen('/dashboards/')?.path).toBe('/dashboards');
    expect(findScreen('/nowhere')).toBeUndefined();
  });
});
