import { oneSubscript } from './glossary.ts';

/**
 * The words of a text as they are searched, one way on the server (its search index, kit/search.ts)
 * and on the till (its local catalogue): each word (lower-case, NFC), the parts of a word after a
 * dash, dot or slash ("coca-cola" → "cola", a SKU's number), a value without its spaces, and,
 * since Khmer is written without spaces between words, the ending of a Khmer word from each of its
 * consonants ("ស្រាបៀរអង្គរ" → "អង្គរ"). A search matches a record when every word typed begins
 * one of its terms.
 */
export const TERM_MAX = 64;

const isKhmerStart = (c: string) => c >= '\u1780' && c <= '\u17B3';
const COENG = '\u17D2';

/** Characters that show nothing: zero-width space, non-joiner, joiner, word joiner, BOM, soft hyphen. */
const INVISIBLE = /[\u200B-\u200D\u2060\uFEFF\u00AD]/g;

/**
 * A text as it is searched: NFC, lower-case, without what cannot be seen (a zero-width space
 * typed between Khmer words), and one of the look-alike subscripts ្ដ / ្ត (`oneSubscript`, the
 * glossary's). The terms and the words typed both go through it, so a crab typed with either subscript finds the other.
 */
export function normal(text: string): string {
  return oneSubscript(text.normalize('NFC').replace(INVISIBLE, '').toLowerCase());
}

/** The terms of one record, from the values of its searchable columns. */
export function termsOf(values: readonly (string | null | undefined)[]): string[] {
  const terms = new Set<string>();
  const add = (term: string) => {
    if (term) terms.add(term.slice(0, TERM_MAX));
  };
  for (const value of values) {
    if (!value) continue;
    const text = normal(value).trim();
    const compact = text.replace(/\s+/g, '');
    if (compact !== text) add(compact);
    for (const word of text.split(/[\s,;:()[\]{}"'“”‘’!?។៕]+/)) {
      add(word);
      for (let i = 1; i < word.length; i++) {
        const c = word[i];
        if ('-._/'.includes(word[i - 1]) && !'-._/'.includes(c)) add(word.slice(i));
        else if (isKhmerStart(c) && word[i - 1] !== COENG) add(word.slice(i));
      }
    }
  }
  return [...terms];
}

/** The words of a search as the terms are written; the longest (and numbers) first: they narrow most. */
export function searchWords(search: string): string[] {
  const words = [...new Set(normal(search).split(/\s+/).filter(Boolean))].map((w) => w.slice(0, TERM_MAX));
  const score = (w: string) => w.length + (/\d/.test(w) ? 0.5 : 0);
  return words.sort((a, b) => score(b) - score(a));
}

/**
 * The order the till's product search answers in, on the device (web lib/offline/localIndex.ts)
 * and on the server before the device has its catalogue (`GET /api/products/till`, sorted by
 * `TILL_ORDER`'s column, then id): by English name compared code unit by code unit, as SQLite
 * and PostgreSQL's "C" collation compare text, then id. Both show the first matches in this order,
 * so a till that has synced and one that has not answer a search alike.
 */
export const TILL_ORDER = 'name_en';

export function tillOrder(a: { name_en: string; id: number }, b: { name_en: string; id: number }): number {
  return a.name_en < b.name_en ? -1 : a.name_en > b.name_en ? 1 : a.id - b.id;
}
