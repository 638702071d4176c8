import { normal, searchWords, tillOrder } from '@depot/contracts';

/**
 * The till's in-memory search over its local catalogue (issue 13). It matches as the server's
 * index does (contracts searchText.ts `termsOf`): every word typed begins a term of the record,
 * a term being a word of its name, SKU or barcode, the part of a word after a dash, dot or slash,
 * the ending of a Khmer word from any of its consonants, or a value without its spaces; the text
 * goes through the same `normal` (invisible characters dropped, ្ដ/្ត one letter, lower case).
 *
 * Rather than the terms themselves (building them for 100,000 products took seconds: the bench),
 * each record keeps its normalized text, and a word matches where it occurs at a term's start.
 * The records are ranked once by English name, then id (contracts `tillOrder`, as the server's
 * till search); a bucket per first two letters of a term lists the ranks that have one, so a
 * search walks the smallest bucket of its words in rank order, checks each candidate's text and
 * stops at the limit.
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

/**
 * Whether a term of the record begins with the word (`lined`: the word after a `\n`, made once per
 * search: a string made per record checked was garbage enough at each key to bring collections
 * into the keystroke's time).
 */
function matches({ text, compact }: Text, word: string, whole: boolean, lined: string): boolean {
  if (whole) {
    for (let p = text.indexOf(word); p !== -1; p = text.indexOf(word, p + 1)) if (termStart(text, p)) return true;
  }
  return compact.length > 0 && compact.includes(lined);
}

/** Above this many barcodes for a word, they are not sorted into rank order: the search walks every record. */
const CODES_SORTED = 5000;

/**
 * Many strings kept as one: their text end to end and where each ends. IndexedDB reads one long
 * string and a typed array at the speed of a copy, where 100,000 strings or objects take seconds.
 */
export interface Joined {
  text: string;
  ends: Int32Array;
}

export function joined(list: readonly string[]): Joined {
  const ends = new Int32Array(list.length);
  let at = 0;
  for (let i = 0; i < list.length; i++) {
    at += list[i].length;
    ends[i] = at;
  }
  return { text: list.join(''), ends };
}

/** The i-th string of a joined list. */
export const joinedAt = ({ text, ends }: Joined, i: number): string => text.slice(i ? ends[i - 1] : 0, ends[i]);

/** Every string of a joined list. */
export function unjoined(list: Joined): string[] {
  const out = new Array<string>(list.ends.length);
  for (let i = 0; i < out.length; i++) out[i] = joinedAt(list, i);
  return out;
}

/** The first index of a sorted joined list not below `word`. */
function lowerBound(list: Joined, word: string): number {
  let lo = 0;
  let hi = list.ends.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (joinedAt(list, mid) < word) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * An index as data (what the device keeps, localSnapshot.ts): typed arrays and joined strings
 * only, so it is read back in one go and searched without building anything.
 */
export interface IndexData {
  /** Each record's normalized text, in rank order (English name, then id). */
  texts: Joined;
  /** Each record's values that had spaces, without them, each after a `\n` (empty for most). */
  compacts: Joined;
  /**
   * The ranks with a term of their names or SKU beginning with these two letters (a pair's code
   * units as one number), or this one letter (its code unit), ascending: the keys sorted, where
   * each key's ranks end in `bucketRanks`.
   */
  bucketKeys: Float64Array;
  bucketEnds: Int32Array;
  bucketRanks: Int32Array;
  /**
   * The terms of the barcodes, sorted, and their records' ranks: barcodes share long beginnings
   * ("885…"), so a typed barcode is a range of this list rather than a bucket of every record.
   */
  codeTerms: Joined;
  codeRanks: Int32Array;
  /** The barcodes exactly, and the SKUs in lower case, sorted (then by rank), and their ranks: a scan. */
  barcodes: Joined;
  barcodeRanks: Int32Array;
  skus: Joined;
  skuRanks: Int32Array;
}

/** Sorts codes (then ranks) into a joined list and its ranks. */
function sortedCodes(codes: { term: string; rank: number }[]): [Joined, Int32Array] {
  codes.sort((a, b) => (a.term < b.term ? -1 : a.term > b.term ? 1 : a.rank - b.rank));
  return [joined(codes.map((code) => code.term)), Int32Array.from(codes, (code) => code.rank)];
}

/** Builds the index of the records: them in rank order, and the index as data. */
export function indexData<T extends Searchable>(records: Iterable<T>): { rows: T[]; data: IndexData } {
  const rows = [...records];
  // the server's till search ranks alike (GET /api/products/till): one rule, contracts tillOrder
  rows.sort(tillOrder);
  const buckets = new Map<number, number[]>();
  const note = (key: number, rank: number) => {
    const list = buckets.get(key);
    if (!list) buckets.set(key, [rank]);
    else if (list[list.length - 1] !== rank) list.push(rank);
  };
  const codes: { term: string; rank: number }[] = [];
  const barcodes: { term: string; rank: number }[] = [];
  const skus: { term: string; rank: number }[] = [];
  const texts: string[] = [];
  const compacts: string[] = [];
  rows.forEach((row, rank) => {
    if (row.barcode) barcodes.push({ term: row.barcode, rank });
    skus.push({ term: row.sku.toLowerCase(), rank });
    const { text, compact, codeAt, codeCompact } = textOf(row);
    const end = codeAt < 0 ? text.length : codeAt;
    for (let p = 0; p < text.length; p++) {
      if (!termStart(text, p)) continue;
      if (p >= end) codes.push({ term: text.slice(p), rank });
      else {
        note(text.charCodeAt(p), rank);
        if (p < text.length - 1) note(pair(text, p), rank);
      }
    }
    if (codeCompact) codes.push({ term: codeCompact, rank });
    for (const squeezed of compact.split('\n')) {
      if (squeezed.length > 1 && squeezed !== codeCompact) {
        note(squeezed.charCodeAt(0), rank);
        note(pair(squeezed, 0), rank);
      }
    }
    texts.push(text);
    compacts.push(compact);
  });
  const keys = [...buckets.keys()].sort((a, b) => a - b);
  const bucketEnds = new Int32Array(keys.length);
  let total = 0;
  keys.forEach((key, i) => {
    total += (buckets.get(key) as number[]).length;
    bucketEnds[i] = total;
  });
  const bucketRanks = new Int32Array(total);
  for (let i = 0; i < keys.length; i++) bucketRanks.set(buckets.get(keys[i]) as number[], i ? bucketEnds[i - 1] : 0);
  const [codeTerms, codeRanks] = sortedCodes(codes);
  const [barcodeList, barcodeRanks] = sortedCodes(barcodes);
  const [skuList, skuRanks] = sortedCodes(skus);
  return {
    rows,
    data: {
      texts: joined(texts),
      compacts: joined(compacts),
      bucketKeys: Float64Array.from(keys),
      bucketEnds,
      bucketRanks,
      codeTerms,
      codeRanks,
      barcodes: barcodeList,
      barcodeRanks,
      skus: skuList,
      skuRanks,
    },
  };
}

const EMPTY = new Int32Array(0);

export class CatalogueIndex<T extends Searchable> {
  private readonly data: IndexData;
  /** The record of a rank (made from the kept columns when the index was read back). */
  private readonly rowAt: (rank: number) => T;
  private readonly texts: Text[];
  /** A bucket's key → its place in `bucketKeys`. */
  private readonly buckets = new Map<number, number>();
  /** The last search whose every candidate was checked, and all its matches. */
  private last: { words: string[]; ranks: number[] } | null = null;

  /** An index of the records, built here. */
  constructor(records: Iterable<T>);
  /** An index read back as data, its records made by `rowAt`. */
  constructor(records: null, kept: { data: IndexData; rowAt: (rank: number) => T });
  constructor(records: Iterable<T> | null, kept?: { data: IndexData; rowAt: (rank: number) => T }) {
    if (kept) {
      this.data = kept.data;
      this.rowAt = kept.rowAt;
    } else {
      const built = indexData(records ?? []);
      this.data = built.data;
      this.rowAt = (rank) => built.rows[rank];
    }
    const texts = unjoined(this.data.texts);
    const compacts = unjoined(this.data.compacts);
    this.texts = texts.map((text, rank) => ({ text, compact: compacts[rank] }));
    const keys = this.data.bucketKeys;
    for (let i = 0; i < keys.length; i++) this.buckets.set(keys[i], i);
  }

  /** A bucket's ranks, ascending (empty for none). */
  private bucket(key: number): Int32Array {
    const i = this.buckets.get(key);
    if (i === undefined) return EMPTY;
    return this.data.bucketRanks.subarray(i ? this.data.bucketEnds[i - 1] : 0, this.data.bucketEnds[i]);
  }

  /** The records with a barcode term beginning with the word: [from, to) of the code list. */
  private codeRange(word: string): [number, number] {
    return [lowerBound(this.data.codeTerms, word), lowerBound(this.data.codeTerms, `${word}\u{10FFFF}`)];
  }

  /** The ranks that may match the word: its rarest bucket with the barcodes it begins, ascending. */
  private candidatesOf(word: string): ArrayLike<number> | null {
    let bucket: Int32Array | null = null;
    // a term beginning with the word also has terms beginning with the word's own later terms
    // ("sku-04217" → "04217"): the rarest of their buckets
    for (let p = 0; p < word.length; p++) {
      if (!termStart(word, p)) continue;
      // two letters where the word has them, its last letter alone
      const found = this.bucket(p < word.length - 1 ? pair(word, p) : word.charCodeAt(p));
      if (!bucket || found.length < bucket.length) bucket = found;
    }
    if (!bucket) return null;
    const [from, to] = this.codeRange(word);
    if (from === to) return bucket;
    // a common beginning of barcodes ("885"): walking every record in order finds the first ones sooner
    if (to - from > CODES_SORTED) return null;
    const coded = Array.from(this.data.codeRanks.subarray(from, to)).sort((a, b) => a - b);
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
    return this.texts.length;
  }

  /** The first record, in rank order, that `accept` takes (a held order's stored combo by its id). */
  find(accept: (row: T) => boolean): T | undefined {
    for (let rank = 0; rank < this.size; rank++) {
      const row = this.rowAt(rank);
      if (accept(row)) return row;
    }
    return undefined;
  }

  /**
   * The first `limit` records (in rank order) where every word typed begins a term, among those
   * `accept` takes (a category); every record, in rank order, for an empty search.
   */
  search(text: string, limit = 50, accept?: (row: T) => boolean): T[] {
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
    const lined = words.map((word) => `\n${word}`);
    const found: T[] = [];
    const all: number[] = [];
    const total = candidates ? candidates.length : this.texts.length;
    let i = 0;
    for (; i < total && found.length < limit; i++) {
      const rank = candidates ? candidates[i] : i;
      const text = this.texts[rank];
      let w = 0;
      while (w < words.length && matches(text, words[w], whole[w], lined[w])) w++;
      if (w < words.length) continue;
      all.push(rank);
      const row = this.rowAt(rank);
      if (!accept || accept(row)) found.push(row);
    }
    // every candidate was checked: the next keystroke starts from these
    if (i === total && words.length) this.last = { words, ranks: all };
    return found;
  }

  /** The rank of the code in a sorted list of codes, or -1. */
  private static exact(list: Joined, ranks: Int32Array, code: string): number {
    const at = lowerBound(list, code);
    return at < ranks.length && joinedAt(list, at) === code ? ranks[at] : -1;
  }

  /** The record whose barcode is exactly the code, else whose SKU is, in any case (a scan, Enter). */
  byCode(code: string): T | undefined {
    let rank = CatalogueIndex.exact(this.data.barcodes, this.data.barcodeRanks, code);
    if (rank < 0) rank = CatalogueIndex.exact(this.data.skus, this.data.skuRanks, code.toLowerCase());
    return rank < 0 ? undefined : this.rowAt(rank);
  }
}
