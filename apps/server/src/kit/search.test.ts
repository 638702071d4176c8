import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, bearer, login, useTestApp } from '../test/harness.ts';
import { normal, rarestFirst, searchWords, termsOf } from './search.ts';

describe('search terms', () => {
  it('are the words, lower-case, with the parts after a dash and the value without its spaces', () => {
    expect(termsOf(['Coca-Cola Zero', 'ANG-330', '012 345 678', null]).sort()).toEqual(
      ['coca-cola', 'cola', 'zero', 'coca-colazero', 'ang-330', '330', '012', '345', '678', '012345678'].sort(),
    );
  });

  it('find a Khmer word inside a run of Khmer written without spaces, from any of its consonants', () => {
    const terms = termsOf(['ស្រាបៀរអង្គរ']);
    expect(terms).toContain('ស្រាបៀរអង្គរ');
    expect(terms).toContain('អង្គរ');
    // a consonant under a coeng (្គ) does not begin anything: the cluster stays whole
    expect(terms.some((t) => t.startsWith('គរ'))).toBe(false);
  });

  it('treat the look-alike subscripts ្ដ and ្ត as one letter: a word typed either way finds the other', () => {
    const terms = termsOf(['អត្រាប្ដូរប្រាក់']);
    for (const typed of ['ប្ដូរ', 'ប្តូរ']) {
      const [word] = searchWords(typed);
      expect(terms.some((term) => term.startsWith(word))).toBe(true);
    }
  });

  it('ignore what Khmer typing leaves invisible: subscript ដ typed as ត, zero-width spaces', () => {
    // ក្ដាម (coeng DA) and ក្តាម (coeng TA) look alike; most keyboards type the second
    expect(normal('ក្ដាម')).toBe(normal('ក្តាម'));
    expect(termsOf(['ក្ដាមសមុទ្រ'])).toEqual(termsOf(['ក្តាមសមុទ្រ']));
    // a zero-width space between Khmer words (as word processors insert) splits nothing
    const terms = termsOf(['ស្រាបៀរ\u200bអង្គរ\u200c']);
    expect(terms).toContain('ស្រាបៀរអង្គរ');
    expect(terms).toContain('អង្គរ');
    expect(terms.some((t) => /[\u200b\u200c]/.test(t))).toBe(false);
    expect(searchWords('\u200bក្ដាម\ufeff')).toEqual([normal('ក្តាម')]);
  });

  it('order the words of a search so that the one narrowing most drives', () => {
    expect(searchWords('  Water  50000 water ')).toEqual(['50000', 'water']);
    expect(searchWords('   ')).toEqual([]);
  });
});

const ctx = useTestApp();
let headers: Record<string, string>;

async function send(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  const res = await ctx.app.inject({ method, url, headers, payload });
  return { status: res.statusCode, body: res.json() };
}

const found = async (api: string, search: string) =>
  (await send('GET', `/api/${api}?per_page=100&search=${encodeURIComponent(search)}`)).body.data.map(
    (r: { name?: string; name_en?: string }) => r.name ?? r.name_en,
  );

describe('search through the API', () => {
  beforeAll(async () => {
    headers = { ...bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token), 'x-localization': 'en' };
  });

  it('finds a customer by the beginning of any word, by Khmer inside a word, and by a phone typed without spaces', async () => {
    await send('POST', '/api/customers', { name: 'Sok Dara', phone: '012 345 678' });
    await send('POST', '/api/customers', { name: 'ហាងលក់ដូរសុខា', phone: '097 000 111' });
    expect(await found('customers', 'dar')).toEqual(['Sok Dara']);
    expect(await found('customers', 'sok d')).toEqual(['Sok Dara']);
    expect(await found('customers', 'dara sok')).toEqual(['Sok Dara']);
    expect(await found('customers', '012345')).toEqual(['Sok Dara']);
    expect(await found('customers', '345 678')).toEqual(['Sok Dara']);
    expect(await found('customers', 'សុខា')).toEqual(['ហាងលក់ដូរសុខា']);
    expect(await found('customers', 'ara')).toEqual([]);
  });

  it('finds Khmer as people type it, whichever subscript and with zero-width spaces', async () => {
    await send('POST', '/api/customers', { name: 'ហាងក្ដាមកែប', phone: '012 999 000' });
    await send('POST', '/api/customers', { name: 'ម៉ូតូ\u200bក្តាម' });
    expect(await found('customers', 'ក្តាមកែប')).toEqual(['ហាងក្ដាមកែប']);
    expect(await found('customers', 'ក្ដាម\u200bកែប')).toEqual(['ហាងក្ដាមកែប']);
    expect(await found('customers', 'ម៉ូតូក្ដា')).toEqual(['ម៉ូតូ\u200bក្តាម']);
    expect(await found('customers', 'ក្ដាម')).toEqual(['ម៉ូតូ\u200bក្តាម', 'ហាងក្ដាមកែប']);
  });

  it('with a common word, drives by the rarest word and finds the same records in the same order', async () => {
    for (let i = 1; i <= 30; i++) await send('POST', '/api/brands', { name: `Noodle ${i}` });
    await send('POST', '/api/brands', { name: 'Rice 15' });
    const words = searchWords('noodle 1');
    expect(words).toEqual(['noodle', '1']);
    // "1" begins 11 brands' numbers, "noodle" 30 brands' names: the number drives
    expect(await rarestFirst(ctx.db, 'brands', words)).toEqual(['1', 'noodle']);
    const tens = ['Noodle 1', ...Array.from({ length: 10 }, (_, i) => `Noodle ${10 + i}`)];
    expect(await found('brands', 'noodle 1')).toEqual(tens);
    expect(await found('brands', '1 NOODLE')).toEqual(tens);
    expect(await found('brands', 'noodle 15')).toEqual(['Noodle 15']);
    expect(await found('brands', 'noodle')).toHaveLength(30);
  });

  it('follows a change of name at once, and a search of 100 characters is refused, not run', async () => {
    const made = await send('POST', '/api/brands', { name: 'Angkor Gold' });
    expect(await found('brands', 'gold')).toEqual(['Angkor Gold']);
    await send('PUT', `/api/brands/${made.body.data.id}`, { name: 'Cambodia Lager', status: 'active' });
    expect(await found('brands', 'gold')).toEqual([]);
    expect(await found('brands', 'lag')).toEqual(['Cambodia Lager']);
    const long = await send('GET', `/api/brands?search=${'x'.repeat(101)}`);
    expect(long.status).toBe(422);
  });
});

describe('list totals', () => {
  it('follow every write at once, though they are remembered between pages', async () => {
    const total = async () => (await send('GET', '/api/suppliers?per_page=10')).body.meta.total as number;
    const before = await total();
    expect(await total()).toBe(before);
    const made = await send('POST', '/api/suppliers', { name: 'Lucky Wholesale', type: 'company' });
    expect(await total()).toBe(before + 1);
    await ctx.app.inject({ method: 'DELETE', url: `/api/suppliers/${made.body.data.id}`, headers });
    expect(await total()).toBe(before);
    await send('POST', `/api/suppliers/${made.body.data.id}/restore`);
    expect(await total()).toBe(before + 1);
  });
});
