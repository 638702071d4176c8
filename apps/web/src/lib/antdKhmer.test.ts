import { describe, expect, it } from 'vitest';
import { antdKhmer } from './antdKhmer.ts';

/** Formats and codes, not words. */
const NOT_WORDS = new Set([
  'locale',
  'yearFormat',
  'dayFormat',
  'cellMeridiemFormat',
  'fieldDateFormat',
  'fieldDateTimeFormat',
  'fieldYearFormat',
  'fieldQuarterFormat',
  'fieldMonthFormat',
  'fieldWeekFormat',
  'fieldTimeFormat',
  'monthFormat',
  'dateFormat',
  'dateTimeFormat',
  'decadeFormat',
]);

function words(tree: unknown, path = ''): [string, string][] {
  if (typeof tree === 'string') return [[path, tree]];
  if (tree && typeof tree === 'object') {
    return Object.entries(tree).flatMap(([key, value]) =>
      NOT_WORDS.has(key) ? [] : words(value, path ? `${path}.${key}` : key),
    );
  }
  return [];
}

describe("antd's Khmer pack as Depot shows it", () => {
  const all = words(antdKhmer);

  it('has no English left (the pager’s "Page Size", the transfer’s "items", form messages)', () => {
    const english = all.filter(([, text]) => /[A-Za-z]{2,}/.test(text.replace(/\$\{\w+\}|\bQR\b/g, '')));
    expect(english).toEqual([]);
    expect(antdKhmer.Pagination?.page_size).toBe('ចំនួនក្នុងមួយទំព័រ');
    expect(antdKhmer.Form?.defaultValidateMessages?.required).toBe('ប្រអប់នេះត្រូវតែបំពេញ!');
  });

  it('has none of the pack’s typos', () => {
    const typos = all.filter(([, text]) => /បញ្ចី|បិតបាំង|ជោកជ័យ|ដួលរលំ|ចប់ផ្ដើម|ច្បាស់|ត្រលប់/.test(text));
    expect(typos).toEqual([]);
  });
});
