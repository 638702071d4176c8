import { searchWords, termsOf } from '@depot/contracts';

/**
 * The till's in-memory search over its local catalogue (issue 13): the same terms as the server's
 * index (contracts searchText.ts: Khmer endings, invisible characters dropped, ្ដ/្ត one letter,
 * English in any case, SKU and barcode), so a search finds here what it finds there. The records
 * are ranked once by English name (the server's default order); the terms are one sorted array
 * with, per term, the ranks of the records that have it. A word typed is a binary search for the
 * range of terms it begins; the rarest word drives, the others narrow; the first `limit` ranks win.
 */
export interface Searchable {
  id: number;
  name_en: string;
  name_kh: string;
  sku: string;
  barcode: string | null;
}

export class CatalogueIndex<T extends Searchable> {
  /** The records in rank order (English name, then id). */
  readonly rows: T[];
  private readonly terms: string[];
  /** Term i's ranks are postings[offsets[i] .. offsets[i + 1]). */
  private readonly offsets: Int32Array;
  private readonly postings: Int32Array;
  private readonly byBarcode = new Map<string, T>();
  private readonly bySku = new Map<string, T>();

  constructor(records: Iterable<T>) {
    const rows = [...records];
    rows.sort((a, b) => (a.name_en < b.name_en ? -1 : a.name_en > b.name_en ? 1 : a.id - b.id));
    this.rows = rows;
    const byTerm = new Map<string, number[]>();
    let count = 0;
    rows.forEach((row, rank) => {
      if (row.barcode) this.byBarcode.set(row.barcode, row);
      this.bySku.set(row.sku.toLowerCase(), row);
      for (const term of termsOf([row.name_en, row.name_kh, row.sku, row.barcode])) {
        const list = byTerm.get(term);
        if (list) list.push(rank);
        else byTerm.set(term, [rank]);
        count++;
      }
    });
    this.terms = [...byTerm.keys()].sort();
    this.offsets = new Int32Array(this.terms.length + 1);
    this.postings = new Int32Array(count);
    let at = 0;
    this.terms.forEach((term, i) => {
      this.offsets[i] = at;
      for (const rank of byTerm.get(term) as number[]) this.postings[at++] = rank;
    });
    this.offsets[this.terms.length] = at;
  }

  get size(): number {
    return this.rows.length;
  }

  /** The first index of a term not below `word`. */
  private lowerBound(word: string): number {
    let lo = 0;
    let hi = this.terms.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.terms[mid] < word) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The postings of the terms a word begins: [from, to) in `postings`. */
  private range(word: string): [number, number] {
    const first = this.lowerBound(word);
    const end = this.lowerBound(`${word}\u{10FFFF}`);
    return [this.offsets[first], this.offsets[end]];
  }

  /**
   * The first `limit` records (in rank order) where every word typed begins a term, among those
   * `keep` keeps (a category); every record, in rank order, for an empty search.
   */
  search(text: string, limit = 50, keep?: (row: T) => boolean): T[] {
    const words = searchWords(text);
    const found: T[] = [];
    if (!words.length) {
      for (const row of this.rows) {
        if (keep && !keep(row)) continue;
        found.push(row);
        if (found.length >= limit) break;
      }
      return found;
    }
    const ranges = words.map((word) => this.range(word)).sort((a, b) => a[1] - a[0] - (b[1] - b[0]));
    const marks = new Uint8Array(this.rows.length);
    ranges.forEach(([from, to], i) => {
      for (let p = from; p < to; p++) {
        const rank = this.postings[p];
        // a record has a word's terms once or more: it counts once per word, in order
        if (marks[rank] === i) marks[rank] = i + 1;
      }
    });
    const all = ranges.length;
    for (let rank = 0; rank < marks.length; rank++) {
      if (marks[rank] !== all) continue;
      const row = this.rows[rank];
      if (keep && !keep(row)) continue;
      found.push(row);
      if (found.length >= limit) break;
    }
    return found;
  }

  /** The record whose barcode is exactly the code, else whose SKU is, in any case (a scan, Enter). */
  byCode(code: string): T | undefined {
    return this.byBarcode.get(code) ?? this.bySku.get(code.toLowerCase());
  }
}
