/**
 * The till's local search (apps/web/src/lib/offline/localIndex.ts) over a generated catalogue of
 * 100,000 products by default: the index's build time (what a cold start adds after reading
 * IndexedDB), then every keystroke of searches typed a letter at a time (English, Khmer as typed
 * with ្ត for ្ដ and a zero-width space, a SKU, a barcode), p50/p99 per keystroke, and a scanned
 * code's lookup. The floor, in the same run: a plain array filter over the same rows (each row's
 * normalized text precomputed, `includes` of the normalized typing, the first 50).
 *
 *   npm run bench:till-search
 *   npm run bench:till-search -- --products 200000 --rounds 5
 */

import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { gtinCheckDigit, normal } from '@depot/contracts';
import { CatalogueIndex } from '../apps/web/src/lib/offline/localIndex.ts';

const { values } = parseArgs({
  options: {
    products: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '3' },
  },
});
const count = Number(values.products);
const rounds = Number(values.rounds);

const khmer = ['ទឹក', 'ស្រាបៀរ', 'អង្ករ', 'ប្រេង', 'ស្ករ', 'អំបិល', 'មី', 'ត្រី', 'សាប៊ូ', 'កាហ្វេ', 'តែ', 'ទឹកដោះគោ'];
const english = ['Water', 'Beer', 'Rice', 'Oil', 'Sugar', 'Salt', 'Noodles', 'Fish', 'Soap', 'Coffee', 'Tea', 'Milk'];
const brands = ['Angkor', 'Cambodia', 'Vital', 'Dragon', 'Lotus', 'Golden', 'Mekong', 'Apsara'];

const rows = Array.from({ length: count }, (_, i) => {
  const w = i % english.length;
  const b = Math.floor(i / english.length) % brands.length;
  const body = `885${String(i).padStart(9, '0')}`;
  return {
    id: i + 1,
    name_en: `${brands[b]} ${english[w]} ${i}`,
    name_kh: `${khmer[w]}${brands[b] === 'Angkor' ? 'អង្គរ' : ''} ${i}${i % 7 === 0 ? ' ក្ដាម' : ''}`,
    sku: `SKU-${String(i).padStart(6, '0')}`,
    barcode: `${body}${gtinCheckDigit(body)}`,
    category_id: 1 + (i % 20),
  };
});

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
const ms = (n: number) => `${n.toFixed(3)} ms`;

// build
const builds: number[] = [];
let index = new CatalogueIndex(rows);
for (let r = 0; r < rounds; r++) {
  const start = performance.now();
  index = new CatalogueIndex(rows);
  builds.push(performance.now() - start);
}
const floorBuilds: number[] = [];
let haystacks: string[] = [];
for (let r = 0; r < rounds; r++) {
  const start = performance.now();
  haystacks = rows.map((row) => normal(`${row.name_en} ${row.name_kh} ${row.sku} ${row.barcode}`));
  floorBuilds.push(performance.now() - start);
}

/** The floor: a plain filter, the first 50 rows whose text contains what was typed. */
function floorSearch(text: string, limit = 50) {
  const typed = normal(text.trim());
  const found: number[] = [];
  for (let i = 0; i < haystacks.length && found.length < limit; i++) if (haystacks[i].includes(typed)) found.push(i);
  return found;
}

const searches = [
  'Noodles 50010',
  'angkor beer',
  'ស្រាបៀរអង្គរ',
  'ក្តាម ៧',
  'ស្រា\u200Bបៀរ 4',
  'SKU-04217',
  '885000099991',
  'zzz nothing',
];
const keystrokes = searches.flatMap((text) => [...text].map((_, i) => text.slice(0, i + 1)));

function timeEach(search: (text: string) => unknown) {
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const typed of keystrokes) {
      const start = performance.now();
      search(typed);
      times.push(performance.now() - start);
    }
  }
  return times.sort((a, b) => a - b);
}

const indexed = timeEach((text) => index.search(text, 50));
const floor = timeEach((text) => floorSearch(text));

const codes = Array.from({ length: 1000 }, (_, k) => rows[(k * 97) % count].barcode);
const lookups: number[] = [];
const floorLookups: number[] = [];
for (const code of codes) {
  let start = performance.now();
  index.byCode(code);
  lookups.push(performance.now() - start);
  start = performance.now();
  rows.find((row) => row.barcode === code);
  floorLookups.push(performance.now() - start);
}
lookups.sort((a, b) => a - b);
floorLookups.sort((a, b) => a - b);

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
console.log(`till search over ${count.toLocaleString('en')} products, ${keystrokes.length} keystrokes × ${rounds}`);
console.log(
  `  index build          median ${ms(median(builds))}  (floor: normalized texts ${ms(median(floorBuilds))})`,
);
console.log(
  `  keystroke (index)    p50 ${ms(percentile(indexed, 0.5))}  p99 ${ms(percentile(indexed, 0.99))}  max ${ms(indexed.at(-1) ?? 0)}`,
);
console.log(
  `  keystroke (floor)    p50 ${ms(percentile(floor, 0.5))}  p99 ${ms(percentile(floor, 0.99))}  max ${ms(floor.at(-1) ?? 0)}`,
);
console.log(`  scanned code (index) p50 ${ms(percentile(lookups, 0.5))}  p99 ${ms(percentile(lookups, 0.99))}`);
console.log(
  `  scanned code (floor) p50 ${ms(percentile(floorLookups, 0.5))}  p99 ${ms(percentile(floorLookups, 0.99))}`,
);
const used = process.memoryUsage();
console.log(`  heap used ${(used.heapUsed / 1e6).toFixed(0)} MB (rows, index and floor texts)`);
