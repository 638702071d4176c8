import { searchWords, termsOf } from '@depot/contracts';
import { describe, expect, it } from 'vitest';
import { CatalogueIndex } from './localIndex.ts';

const rows = [
  {
    id: 1,
    name_en: 'Angkor Beer 330ml',
    name_kh: 'ស្រាបៀរអង្គរ ៣៣០មល',
    sku: 'ANG-330',
    barcode: '8851959132012',
    category_id: 1,
  },
  { id: 2, name_en: 'Coca-Cola 330ml', name_kh: 'កូកាកូឡា', sku: 'COKE-330', barcode: '5449000000996', category_id: 1 },
  { id: 3, name_en: 'Crab paste', name_kh: 'ក្ដាមប្រៃ', sku: 'CRB-1', barcode: null, category_id: 2 },
  { id: 4, name_en: 'Anchor Beer', name_kh: 'ស្រាបៀរអាំងគ័រ', sku: 'ANC-1', barcode: '1111', category_id: 1 },
];

describe('the till’s local search', () => {
  const index = new CatalogueIndex(rows);
  const ids = (text: string, accept?: (row: (typeof rows)[number]) => boolean) =>
    index.search(text, 50, accept).map((row) => row.id);

  it('finds English in any case by the beginning of a word, every word typed, in name order', () => {
    expect(ids('beer')).toEqual([4, 1]);
    expect(ids('BEER ang')).toEqual([1]);
    expect(ids('be an')).toEqual([4, 1]);
    expect(ids('cola')).toEqual([2]); // a word after a dash
    expect(ids('eer')).toEqual([]); // not the middle of a word
  });

  it('finds Khmer from any of its words’ beginnings, whatever invisible characters or subscript was typed', () => {
    expect(ids('អង្គរ')).toEqual([1]); // the ending of ស្រាបៀរអង្គរ
    expect(ids('ស្រាបៀរ')).toEqual([4, 1]);
    expect(ids('ស្រា\u200Bបៀរ')).toEqual([4, 1]); // a zero-width space typed inside
    expect(ids('ក្តាម')).toEqual([3]); // typed with ្ត, stored with ្ដ
  });

  it('finds by SKU and barcode, and a scanned code exactly', () => {
    expect(ids('coke-330')).toEqual([2]);
    expect(ids('885195')).toEqual([1]);
    expect(index.byCode('8851959132012')?.id).toBe(1);
    expect(index.byCode('crb-1')?.id).toBe(3);
    expect(index.byCode('885195913201')).toBeUndefined();
  });

  it('keeps to a category, shows the first ones with nothing typed, and stops at the limit', () => {
    expect(ids('', (row) => row.category_id === 2)).toEqual([3]);
    expect(ids('')).toEqual([4, 1, 2, 3]);
    expect(index.search('', 2).map((row) => row.id)).toEqual([4, 1]);
    expect(index.search('beer', 1).map((row) => row.id)).toEqual([4]);
  });
});

describe('the till’s local search and the server’s terms', () => {
  it('matches exactly where a term of the server’s index (termsOf) begins with every word', () => {
    const names = [
      'Coca-Cola Zero (330ml)',
      'ស្រាបៀរអង្គរ កំប៉ុង',
      'ទឹកដោះគោ ស្រស់',
      'A.B/C-D 12',
      'ក្ដាមប្រៃ, ត្រីឆ្អើរ!',
      'Tiger  Crystal',
      '885 123 456',
    ];
    const rows = names.map((name, i) => ({
      id: i + 1,
      name_en: name,
      name_kh: names[(i + 3) % names.length],
      sku: `S-${i}.x`,
      barcode: i % 2 ? null : `88${i}`,
    }));
    const index = new CatalogueIndex(rows);
    const typed = [
      'c',
      'co',
      'cola',
      'zero',
      '(330ml)',
      '330',
      'អង្គរ',
      'គរ',
      'បៀ',
      'ង្គ',
      'ដោះ',
      'ោះ',
      'b',
      'c-d',
      'd',
      'ក្តាម',
      'ត្រី',
      'ឆ្អើរ',
      'crystal',
      'tigercr',
      '885123',
      '123',
      'x',
      's-3',
      '.x',
      '884',
      '88',
    ];
    for (const text of typed) {
      const words = searchWords(text);
      const expected = rows
        .filter((row) => {
          const terms = termsOf([row.name_en, row.name_kh, row.sku, row.barcode]);
          return words.every((word) => terms.some((term) => term.startsWith(word)));
        })
        .map((row) => row.id)
        .sort();
      expect(
        index
          .search(text)
          .map((row) => row.id)
          .sort(),
        text,
      ).toEqual(expected);
    }
  });
});
