import fs from 'node:fs';
import path from 'node:path';
import { GLOSSARY, messages, oneSubscript, otherSpelling } from '@depot/contracts';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const KHMER_RUN = /[\u1780-\u17FF][\u1780-\u17FF\u200B ]*/g;

/** Every file people's words come from: the catalogues, the server's messages, receipts, exports. */
function sources(): { file: string; text: string }[] {
  const out: { file: string; text: string }[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== 'test') walk(file);
      } else if (/\.(tsx?|json)$/.test(entry.name) && !/\.test\.|glossary\.ts$|samples\.data\.ts$/.test(entry.name)) {
        const text = fs.readFileSync(file, 'utf8');
        if (KHMER_RUN.test(text)) out.push({ file: path.relative(ROOT, file), text });
        KHMER_RUN.lastIndex = 0;
      }
    }
  };
  for (const dir of ['apps/web/src', 'apps/server/src', 'packages/contracts/src']) walk(path.join(ROOT, dir));
  return out;
}

const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const flatten = (tree: object, prefix = ''): [string, string][] =>
  Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'object' && value ? flatten(value, `${prefix}${key}.`) : [[`${prefix}${key}`, String(value)]],
  );

const files = sources();
/** The Khmer text of each file, run by run (comments included: they are read too). */
const runs = files.flatMap(({ file, text }) => (text.match(KHMER_RUN) ?? []).map((run) => ({ file, run })));

describe('the Khmer glossary (../shared/KHMER.md)', () => {
  it('reads the catalogues, the server messages and the printed documents', () => {
    const read = files.map((f) => f.file);
    expect(read).toEqual(
      expect.arrayContaining([
        'apps/web/src/locales/kh.json',
        'packages/contracts/src/messages.ts',
        'apps/server/src/modules/products/products.transfer.ts',
        'apps/server/src/modules/prices/prices.transfer.ts',
        'apps/server/src/modules/profile/profile.pdf.ts',
        'apps/web/src/lib/antdKhmer.ts',
      ]),
    );
    expect(runs.length).toBeGreaterThan(1000);
  });

  it('reads the PDF and print templates, whose words are messages or catalogue keys', () => {
    const pdfs = ['apps/server/src/modules/shifts/shifts.pdf.ts', 'apps/server/src/modules/credit/credit.pdf.ts'];
    for (const file of pdfs) {
      const keys = [...read(file).matchAll(/t\(\s*'([\w.]+)'/g)].map((m) => m[1] as string);
      expect(keys.length, file).toBeGreaterThan(3);
      expect(keys.filter((key) => !(key in messages))).toEqual([]);
    }
    // the receipt and the tax invoice print catalogue keys (print.*), which the catalogue check reads
    expect(read('apps/web/src/pages/orders/receipts.tsx')).toMatch(/t\('print\.receipt', KH\)/);
  });

  it('names every sheet of a workbook from the messages, in both languages', () => {
    // the kit's workbook names its data sheet by the key its caller gives (products.transfer.ts)
    for (const file of ['apps/server/src/kit/spreadsheet.ts', 'apps/server/src/modules/prices/prices.transfer.ts']) {
      const sheets = [...read(file).matchAll(/addWorksheet\((both\([\w.']+\)|[^,)]+)/g)].map((m) =>
        (m[1] as string).trim(),
      );
      expect(sheets.length, file).toBeGreaterThan(1);
      expect(sheets.filter((name) => !/^both\(('import\.sheet\.\w+'|book\.name)\)$/.test(name))).toEqual([]);
    }
    expect(read('apps/server/src/modules/products/products.transfer.ts')).toMatch(/name: 'import\.sheet\.products'/);
    const names = Object.entries(messages).filter(([key]) => key.startsWith('import.sheet.'));
    expect(names.length).toBeGreaterThan(2);
    for (const [, { kh }] of names) expect(kh).toMatch(/^[\u1780-\u17FF]/);
  });

  it('has one word for the till’s and credit’s terms, and the catalogue uses it', () => {
    const catalogue = files.find((f) => f.file === 'apps/web/src/locales/kh.json')?.text ?? '';
    const terms = [
      'shift',
      'till',
      'cash drawer',
      'float',
      'pay-in',
      'pay-out',
      'credit limit',
      'statement (of account)',
      'cash over / short',
      'credit available',
      'low stock',
    ];
    const missing = terms.filter((en) => {
      const term = GLOSSARY.find((t) => t.en === en);
      return !term || !catalogue.includes(term.kh[0] as string);
    });
    expect(missing).toEqual([]);
    expect(catalogue).toContain('ហួសថ្ងៃកំណត់ 1–30 ថ្ងៃ');
  });

  it('never writes a word it says not to', () => {
    const found = GLOSSARY.flatMap((term) =>
      (term.not ?? []).flatMap((not) =>
        runs.filter(({ run }) => not.test(run)).map(({ file, run }) => `${term.en}: ${not} in ${file}: ${run.trim()}`),
      ),
    );
    expect(found).toEqual([]);
  });

  it('spells each glossary word one way (្ដ and ្ត are not mixed)', () => {
    const mixed = GLOSSARY.flatMap((term) =>
      term.kh
        .filter((word) => otherSpelling(word) !== word)
        .flatMap((word) =>
          runs
            .filter(({ run }) => run.includes(otherSpelling(word)))
            .map(({ file, run }) => `${word} as ${otherSpelling(word)} in ${file}: ${run.trim()}`),
        ),
    );
    expect(mixed).toEqual([]);
  });

  it('spells every other word one way too: no syllable appears with both subscripts', () => {
    const forms = new Map<string, Set<string>>();
    for (const { run } of runs) {
      for (const match of run.matchAll(/[\u1780-\u17B3]\u17D2[\u178A\u178F][\u17B6-\u17C5]?/g)) {
        const key = oneSubscript(match[0]);
        forms.set(key, (forms.get(key) ?? new Set()).add(match[0]));
      }
    }
    const both = [...forms.values()].filter((set) => set.size > 1).map((set) => [...set].join(' / '));
    expect(both).toEqual([]);
  });

  it('catches each word the second read found, should it come back', () => {
    // the forbidden form, as it was written, and the word that replaced it
    const found: [string, string][] = [
      ['បានដឹកជញ្ជូន', 'បានបញ្ជូនចេញ'],
      ['ឡូត៍ជិតផុតកំណត់', 'ឡូតជិតផុតកំណត់'],
      ['មូលប្បទានប័ត្រ', 'មូលប្បទានបត្រ'],
      ['កាត', 'កាតធនាគារ'],
      ['ការបង់តាម KHQR', 'ស្កេន KHQR'],
      ['ការបង់ប្រាក់តាមវិធីសាស្ត្រ', 'តាមវិធីបង់ប្រាក់'],
      ['កម្រិតបញ្ជាទិញឡើងវិញ', 'កម្រិតបញ្ជាទិញបន្ថែម'],
      ['ស្តុកទាប', 'ស្តុកជិតអស់'],
      ['បានលុបចោលការលក់', 'បានបោះបង់ការលក់'],
      ['នៅលើម៉ាស៊ីនលក់នេះ', 'នៅលើកន្លែងគិតលុយនេះ'],
      ['មុនពេលម៉ាស៊ីនគិតលុយទទួល', 'មុនពេលកន្លែងគិតលុយទទួល'],
      ['ការលក់បើកនៅហាងចម្បង', 'កន្លែងគិតលុយបើកនៅហាងចម្បង'],
      ['តួនាទីការងារ', 'មុខតំណែង'],
      ['ថ្ងៃចូលធ្វើការ', 'ថ្ងៃចូលបម្រើការងារ'],
      ['ស្កែន', 'ស្កេន'],
      ['ឲ្យ', 'ឱ្យ'],
      ['ប្រាក់ដែលប្រគល់', 'ប្រាក់ទទួលពីអតិថិជន'],
      ['លម្អៀងវេន', 'ប្រាក់លើស/ខ្វះតាមវេន'],
      ['ហួសសម័យ', 'ហួសពេល'],
      ['កម្រិតពន្លឺប្រៀបធៀប', 'កម្រិតផ្ទុយពណ៌'],
      ['{{to}} នៃ {{total}}', '{{to}} ក្នុងចំណោម {{total}}'],
      ['មិនទាន់ធ្វើសមកាលកម្ម', 'មិនទាន់បានផ្ញើទៅប្រព័ន្ធ'],
      ['កំពុងអានអត្រា', 'កំពុងផ្ទុកអត្រា'],
      ['ជំហានរៀល', 'កម្រិតបង្គត់រៀល'],
      ['នៅសល់អាចជំពាក់', 'ឥណទាននៅសល់'],
      ['ការបញ្ជាទិញដែលបានផ្អាក', 'ការលក់ដែលបានផ្អាក'],
      ['យឺត 1–30 ថ្ងៃ', 'ហួសថ្ងៃកំណត់ 1–30 ថ្ងៃ'],
    ];
    const caught = (text: string) => GLOSSARY.some((term) => (term.not ?? []).some((not) => not.test(text)));
    expect(found.filter(([old]) => !caught(old)).map(([old]) => old)).toEqual([]);
    expect(found.filter(([, now]) => caught(now)).map(([, now]) => now)).toEqual([]);
    expect(caught('ស្តុកលក់យឺត')).toBe(false);
    expect(caught('កាតាឡុកទំនិញ')).toBe(false);
  });

  it('writes Latin digits, Khmer punctuation and no other word for a few the read found', () => {
    const khmerTexts = [
      ...flatten(JSON.parse(read('apps/web/src/locales/kh.json'))),
      ...Object.entries(messages).map(([key, m]) => [key, m.kh] as [string, string]),
    ];
    // one key shows the Khmer digits themselves, as an example of the setting
    const digits = khmerTexts.filter(([key, text]) => key !== 'settings.khmerNumeralsHelp' && /[០-៩]/.test(text));
    expect(digits).toEqual([]);
    expect(khmerTexts.filter(([, text]) => /[;“”"]/.test(text))).toEqual([]);
    const catalogue = Object.fromEntries(flatten(JSON.parse(read('apps/web/src/locales/kh.json'))));
    expect(catalogue['import.guide.yes']).toBeUndefined();
    expect(messages['import.guide.yes'].kh).toBe('ចាំបាច់');
    expect(messages['report.method.card'].kh).toBe('កាតធនាគារ');
    expect(catalogue['print.paid']).toBe('ប្រាក់បានបង់');
    expect(catalogue['menu.orders']).toBe('បញ្ជីលក់');
    expect(catalogue['pos.rate']).toBe('1 $ = {{rate}}');
    for (const key of ['stock.searchHint', 'combos.searchHint', 'lines.find', 'pos.searchHint'])
      expect(catalogue[key], key).toContain('ឈ្មោះ, SKU ឬបាកូដ');
  });

  it('fails on a mixed spelling (the check can fail)', () => {
    expect(otherSpelling('អត្រាប្ដូរប្រាក់')).toBe('អត្រាប្តូរប្រាក់');
    expect(otherSpelling(otherSpelling('ស្តុកម្ដង'))).toBe('ស្តុកម្ដង');
    expect(oneSubscript('ប្តូរ')).toBe(oneSubscript('ប្ដូរ'));
  });
});
