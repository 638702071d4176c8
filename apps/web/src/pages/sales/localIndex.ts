import { normal, searchWords } from '@depot/contracts';

/**
 * The till's in-memory search over its local catalogue (issue 13). It matches as the server's
 * index does (contracts searchText.ts `termsOf`): every word typed begins a term of the record,
 * a term being a word of its name, SKU or barcode, the part of a word after a dash, dot or slash,
 * the ending of a Khmer word from any of its consonants, or a value without its spaces; the text
 * goes through the same `normal` (invisible characters dropped, ្ដ/្ត one letter, lower case).
 *
 * Rather than the terms themselves (building them for 100,000 products took seconds: the bench),
 * each record keeps its normalized text, and a word matches where it occurs at a term's start.
 * The records are ranked once by English name (the server's default order); a bucket per first two
 * letters of a term lists the ranks that have one, so a search walks the smallest bucket of its
 * words in rank order, checks each candidate's text and stops at the limit.
 */
export interface Searchable {
  id: number;
  name_en: string;
  name_kh: string;
  sku: string;
  barcode: string | null;
}

/** Characters by what they do to terms: termsOf's split characters, its parts, Khmer starts. */
const SPLITS =
  ' \t\n\r\v\f\u00A0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF,;:()[]{}"\'“”‘’!?។៕';
const SPLIT = 1;
const PART = 2;
const KHMER = 4;
const CLASS = new Uint8Array(65536);
for (const c of SPLITS) CLASS[c.charCodeAt(0)] = SPLIT;
for (const c of '-._/') CLASS[c.charCodeAt(0)] = PART;
for (let code = 0x1780; code <= 0x17b3; code++) CLASS[code] = KHMER;
const COENG = 0x17d2;

/** Whether a term of the text starts at `p` (termsOf's rules). */
function termStart(text: string, p: number): boolean {
  const here = CLASS[text.charCodeAt(p)];
  if (here === SPLIT) return false;
  if (p === 0) return true;
  const code = text.charCodeAt(p - 1);
  const before = CLASS[code];
  if (before === SPLIT) return true;
  if (before === PART) return here !== PART;
  return here === KHMER && code !== COENG;
}

/** Whether the word holds a character that splits words: no term does. */
function splits(word: string): boolean {
  for (let i = 0; i < word.length; i++) if (CLASS[word.charCodeAt(i)] === SPLIT) return true;
  return false;
}

/** The first two letters at `p`, as one number: a bucket's key. */
const pair = (text: string, p: number) => text.charCodeAt(p) * 65536 + text.charCodeAt(p + 1);

/** A record's texts as searched: its values, one a line, and those without their spaces. */
interface Text {
  text: string;
  /** `\n` before each value that had spaces, without them. */
  compact: string;
}

/** A record's texts, and where its barcode begins in them (barcodes go in the sorted code list, not in buckets). */
function textOf(row: Searchable): Text & { codeAt: number; codeCompact: string } {
  let text = '';
  let compact = '';
  let codeAt = -1;
  let codeCompact = '';
  for (const value of [row.name_en, row.name_kh, row.sku, row.barcode]) {
    if (!value) continue;
    const one = normal(value).trim();
    if (value === row.barcode) codeAt = text ? text.length + 1 : 0;
    text += text ? `\n${one}` : one;
    const squeezed = one.replace(/\s+/g, '');
    if (squeezed !== one) {
      compact += `\n${squeezed}`;
      if (value === row.barcode) codeCompact = squeezed;
    }
  }
  return { text, compact, codeAt, codeCompact };
}

/** Whether a term of the record begins with the word. */
function matches({ text, compact }: Text, word: string, whole: boolean): boolean {
  if (whole) {
    for (let p = text.indexOf(word); p !== -1; p = text.indexOf(word, p + 1)) if (termStart(text, p)) return true;
  }
  return compact.length > 0 && compact.includes(`\n${word}`);
}

/** Above this many barcodes for a word, they are not sorted into rank order: the search walks every record. */
const CODES_SORTED = 5000;

/** The first index of a sorted list not below `word`. */
function lowerBound(list: readonly string[], word: string): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid] < word) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class CatalogueIndex<T extends Searchable> {
  /** The records in rank order (English name, then id). */
  readonly rows: T[];
  private readonly texts: Text[];
  /**
   * The ranks with a term of their names or SKU beginning with these two letters (a pair's code
   * units as one number), or this one letter (its code unit), ascending.
   */
  private readonly buckets = new Map<number, number[]>();
  /**
   * The terms of the barcodes, sorted, and their records' ranks: barcodes share long beginnings
   * ("885…"), so a typed barcode is a range of this list rather than a bucket of every record.
   */
  private readonly codeTerms: string[];
  private readonly codeRanks: Int32Array;
  private readonly byBarcode = new Map<string, T>();
  private readonly bySku = new Map<string, T>();
  /** The last search whose every candidate was checked, and all its matches. */
  private last: { words: string[]; ranks: number[] } | null = null;

  constructor(records: Iterable<T>) {
    const rows = [...records];
    rows.sort((a, b) => (a.name_en < b.name_en ? -1 : a.name_en > b.name_en ? 1 : a.id - b.id));
    this.rows = rows;
    const codes: { term: string; rank: number }[] = [];
    this.texts = rows.map((row, rank) => {
      if (row.barcode) this.byBarcode.set(row.barcode, row);
      this.bySku.set(row.sku.toLowerCase(), row);
      const { text, compact, codeAt, codeCompact } = textOf(row);
      const end = codeAt < 0 ? text.length : codeAt;
      for (let p = 0; p < text.length; p++) {
        if (!termStart(text, p)) continue;
        if (p >= end) codes.push({ term: text.slice(p), rank });
        else {
          this.note(text.charCodeAt(p), rank);
          if (p < text.length - 1) this.note(pair(text, p), rank);
        }
      }
      if (codeCompact) codes.push({ term: codeCompact, rank });
      for (const squeezed of compact.split('\n')) {
        if (squeezed.length > 1 && squeezed !== codeCompact) {
          this.note(squeezed.charCodeAt(0), rank);
          this.note(pair(squeezed, 0), rank);
        }
      }
      return { text, compact };
    });
    codes.sort((a, b) => (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
    this.codeTerms = codes.map((code) => code.term);
    this.codeRanks = Int32Array.from(codes, (code) => code.rank);
  }

  private note(key: number, rank: number) {
    const list = this.buckets.get(key);
    if (!list) this.buckets.set(key, [rank]);
    else if (list[list.length - 1] !== rank) list.push(rank);
  }

  /** The records with a barcode term beginning with the word: [from, to) of the code list. */
  private codeRange(word: string): [number, number] {
    return [lowerBound(this.codeTerms, word), lowerBound(this.codeTerms, `${word}\u{10FFFF}`)];
  }

  /** The ranks that may match the word: its rarest bucket with the barcodes it begins, ascending. */
  private candidatesOf(word: string): number[] | null {
    let bucket: number[] | null = null;
    // a term beginning with the word also has terms beginning with the word's own later terms
    // ("sku-04217" → "04217"): the rarest of their buckets
    for (let p = 0; p < word.length; p++) {
      if (!termStart(word, p)) continue;
      // two letters where the word has them, its last letter alone
      const found = this.buckets.get(p < word.length - 1 ? pair(word, p) : word.charCodeAt(p)) ?? [];
      if (!bucket || found.length < bucket.length) bucket = found;
    }
    if (!bucket) return null;
    const [from, to] = this.codeRange(word);
    if (from === to) return bucket;
    // a common beginning of barcodes ("885"): walking every record in order finds the first ones sooner
    if (to - from > CODES_SORTED) return null;
    const coded = Array.from(this.codeRanks.subarray(from, to)).sort((a, b) => a - b);
    const merged: number[] = [];
    let i = 0;
    let j = 0;
    while (i < bucket.length || j < coded.length) {
      const next = j >= coded.length || (i < bucket.length && bucket[i] <= coded[j]) ? bucket[i++] : coded[j++];
      if (merged[merged.length - 1] !== next) merged.push(next);
    }
    return merged;
  }

  get size(): number {
    return this.rows.length;
  }

  /**
   * The first `limit` records (in rank order) where every word typed begins a term, among those
   * `keep` keeps (a category); every record, in rank order, for an empty search.
   */
  search(text: string, limit = 50, keep?: (row: T) => boolean): T[] {
    const words = searchWords(text);
    let candidates: ArrayLike<number> | null = null;
    for (const word of words) {
      const found = this.candidatesOf(word);
      if (found && (!candidates || found.length < candidates.length)) candidates = found;
    }
    // typing on narrows: every match of the longer words was a match of the last complete search
    const last = this.last;
    if (
      last &&
      (!candidates || last.ranks.length < candidates.length) &&
      last.words.every((old) => words.some((word) => word.startsWith(old)))
    ) {
      candidates = last.ranks;
    }
    const whole = words.map((word) => !splits(word));
    const found: T[] = [];
    const all: number[] = [];
    const total = candidates ? candidates.length : this.rows.length;
    let i = 0;
    for (; i < total && found.length < limit; i++) {
      const rank = candidates ? candidates[i] : i;
      if (!words.every((word, w) => matches(this.texts[rank], word, whole[w]))) continue;
      all.push(rank);
      const row = this.rows[rank];
      if (!keep || keep(row)) found.push(row);
    }
    // every candidate was checked: the next keystroke starts from these
    if (i === total && words.length) this.last = { words, ranks: all };
    return found;
  }

  /** The record whose barcode is exactly the code, else whose SKU is, in any case (a scan, Enter). */
  byCode(code: string): T | undefined {
    return this.byBarcode.get(code) ?? this.bySku.get(code.toLowerCase());
  }
}
