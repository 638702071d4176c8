import fs from 'node:fs';
import path from 'node:path';
import { GLOSSARY, oneSubscript, otherSpelling } from '@depot/contracts';
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
      ]),
    );
    expect(runs.length).toBeGreaterThan(1000);
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
    ];
    const missing = terms.filter((en) => {
      const term = GLOSSARY.find((t) => t.en === en);
      return !term || !catalogue.includes(term.kh[0] as string);
    });
    expect(missing).toEqual([]);
    expect(catalogue).toContain('យឺត 1–30 ថ្ងៃ');
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

  it('fails on a mixed spelling (the check can fail)', () => {
    expect(otherSpelling('អត្រាប្ដូរប្រាក់')).toBe('អត្រាប្តូរប្រាក់');
    expect(otherSpelling(otherSpelling('ស្តុកម្ដង'))).toBe('ស្តុកម្ដង');
    expect(oneSubscript('ប្តូរ')).toBe(oneSubscript('ប្ដូរ'));
  });
});
