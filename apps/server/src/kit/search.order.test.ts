import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, bearer, login, useTestApp } from '../test/harness.ts';
import { TOTAL_CAP, walkBound } from './search.ts';

/**
 * The products' search index kept in the list's order (migration 0028): every term carries its
 * product's English name as sort key, written in the transaction of each write, and a common
 * word's pages read from it agree with the database's own order of the same products.
 */
const ctx = useTestApp();
let headers: Record<string, string>;
const ids: Record<string, number> = {};

async function send(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  const res = await ctx.app.inject({ method, url, headers, payload });
  return { status: res.statusCode, body: res.json() };
}

const product = (over: object = {}) => ({
  name_en: 'Angkor Beer 330ml',
  name_kh: 'ស្រាបៀរអង្គរ',
  sku: 'ANG-330',
  category_id: ids.food,
  unit_id: ids.pack,
  price_usd_cents: 100,
  cost_usd_cents: 50,
  ...over,
});

/** The product's terms in the index and the sort key each carries. */
const indexed = async (id: number) =>
  ctx.db
    .selectFrom('search_terms')
    .select(['term', 'sort_key'])
    .where('resource', '=', 'products')
    .where('record_id', '=', id)
    .orderBy('term')
    .execute();

const skus = async (query: string) => {
  const res = await send('GET', `/api/products?${query}`);
  expect(res.status).toBe(200);
  return { skus: res.body.data.map((p: { sku: string }) => p.sku) as string[], meta: res.body.meta };
};

function multipart(content: string) {
  const boundary = '----depot-search';
  return {
    payload: Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="products.csv"\r\nContent-Type: text/csv\r\n\r\n${content}\r\n--${boundary}--\r\n`,
    ),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

async function importCsv(rows: string[][]) {
  const { payload, type } = multipart(rows.map((r) => r.join(',')).join('\r\n'));
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/products/import',
    headers: { ...headers, 'content-type': type },
    payload,
  });
  return { status: res.statusCode, body: res.json() };
}

beforeAll(async () => {
  headers = { ...bearer((await login(ctx.app, 'admin', ADMIN_PASSWORD)).token), 'x-localization': 'en' };
  ids.food = (await send('POST', '/api/categories', { name_en: 'Food', name_kh: 'អាហារ' })).body.data.id;
  ids.pack = (await send('POST', '/api/units', { name_en: 'Pack', name_kh: 'កញ្ចប់', short_name: 'pk' })).body.data.id;
});

describe('search index in the list order', () => {
  it('follows create, rename, deactivate, delete, restore and import, each term with the name as sort key', async () => {
    const made = await send('POST', '/api/products', product());
    expect(made.status).toBe(201);
    const id = made.body.data.id as number;
    const terms = await indexed(id);
    expect(terms.map((t) => t.term)).toContain('angkor');
    expect(new Set(terms.map((t) => t.sort_key))).toEqual(new Set(['Angkor Beer 330ml']));

    expect((await send('PUT', `/api/products/${id}`, product({ name_en: 'Cambodia Lager 330ml' }))).status).toBe(200);
    expect(new Set((await indexed(id)).map((t) => t.sort_key))).toEqual(new Set(['Cambodia Lager 330ml']));
    expect((await indexed(id)).map((t) => t.term)).not.toContain('angkor');
    expect((await skus('search=lager')).skus).toEqual(['ANG-330']);
    expect((await skus('search=angkor%20beer')).skus).toEqual([]);

    expect(
      (await send('PUT', `/api/products/${id}`, product({ name_en: 'Cambodia Lager 330ml', status: 'inactive' })))
        .status,
    ).toBe(200);
    expect((await skus('search=lager&filter[status]=inactive')).skus).toEqual(['ANG-330']);
    expect((await skus('search=lager&filter[status]=active')).skus).toEqual([]);

    expect((await send('DELETE', `/api/products/${id}`)).status).toBe(200);
    expect((await skus('search=lager')).skus).toEqual([]);
    expect((await skus('search=lager&trashed=only')).skus).toEqual(['ANG-330']);

    const imported = await importCsv([
      ['name_en', 'name_kh', 'sku', 'category', 'unit', 'price_usd'],
      ['Kampot Pepper 100g', 'ម្រេចកំពត', 'PEP-100', 'Food', 'pk', '3'],
    ]);
    expect(imported.status).toBe(200);
    const pepper = (await skus('search=pep-100')).skus;
    expect(pepper).toEqual(['PEP-100']);
    const pepperId = (
      await ctx.db.selectFrom('products').select('id').where('sku', '=', 'PEP-100').executeTakeFirstOrThrow()
    ).id;
    expect(new Set((await indexed(pepperId)).map((t) => t.sort_key))).toEqual(new Set(['Kampot Pepper 100g']));

    // an import that updates by SKU renames in its transaction too
    await importCsv([
      ['name_en', 'name_kh', 'sku', 'category', 'unit', 'price_usd'],
      ['Red Kampot Pepper', 'ម្រេចក្រហម', 'PEP-100', 'Food', 'pk', '3'],
    ]);
    expect(new Set((await indexed(pepperId)).map((t) => t.sort_key))).toEqual(new Set(['Red Kampot Pepper']));
    expect((await skus('search=red%20pepper')).skus).toEqual(['PEP-100']);
  });

  it('reads a common word’s pages in the list’s order and counts its total a little past the page, a lower bound', async () => {
    // 1,150 noodles in two words ("noodles", "noodlesoup"), made by one import
    const rows = [['name_en', 'name_kh', 'sku', 'category', 'unit', 'price_usd', 'status']];
    for (let i = 0; i < 1150; i++) {
      const word = i % 3 === 0 ? 'Noodlesoup' : 'Noodles';
      // names out of the SKUs' order, some equal, so the order is the name's then the id's
      const name = `${word} ${(i * 7919) % 600}`;
      rows.push([
        name,
        `មី ${i}`,
        `NDL-${String(i).padStart(4, '0')}`,
        'Food',
        'pk',
        String(1 + (i % 9)),
        i % 10 === 0 ? 'inactive' : 'active',
      ]);
    }
    const imported = await importCsv(rows);
    expect(imported.status).toBe(200);
    expect(imported.body.data.created).toBe(1150);

    /** The database's own order of the products whose names begin with the prefix, no search. */
    const expected = async (where: string, order: 'asc' | 'desc', offset: number, status?: string, limit = 20) =>
      (
        await ctx.db
          .selectFrom('products')
          .select('sku')
          .where(sql.ref('name_en'), 'like', `${where}%`)
          .where('deleted_at', 'is', null)
          .$if(status !== undefined, (q) => q.where('status', '=', status as 'active'))
          .orderBy('name_en', order)
          .orderBy('id', order)
          .limit(limit)
          .offset(offset)
          .execute()
      ).map((r) => r.sku);

    // "noodles" begins both words (and their compact forms "noodles12"): its first page, the third, descending
    let page = await skus('search=noodles');
    expect(page.skus).toEqual(await expected('Noodles', 'asc', 0));
    // counted past the page's end to 201 matches: "1–20 of more than 200", ten pages to go to
    expect(walkBound(20)).toBe(200);
    expect(page.meta).toMatchObject({ total: 200, total_is_lower_bound: true, last_page: 10 });
    expect((await skus('search=noodles&page=3')).skus).toEqual(await expected('Noodles', 'asc', 40));
    // a page further on counts further: page 50 ends at the 1,000th, more than 1,100 are known
    page = await skus('search=noodles&page=50');
    expect(page.skus).toEqual(await expected('Noodles', 'asc', 980));
    expect(page.meta).toMatchObject({ total: 1100, total_is_lower_bound: true });
    // near the end every match is walked: the total is exact
    page = await skus('search=noodles&page=55');
    expect(page.skus).toEqual(await expected('Noodles', 'asc', 1080));
    expect(page.meta.total).toBe(1150);
    expect(page.meta.total_is_lower_bound).toBeUndefined();
    expect((await skus('search=NOODLES&sort=-name_en')).skus).toEqual(await expected('Noodles', 'desc', 0));
    // a shorter prefix walks the same terms
    expect((await skus('search=nood')).skus).toEqual(await expected('Noodles', 'asc', 0));
    expect((await skus('search=nood&page=2&sort=-name_en')).skus).toEqual(await expected('Noodles', 'desc', 20));
    // a filter narrows the walk: 115 inactive, counted exactly
    page = await skus('search=nood&filter[status]=inactive&per_page=100');
    expect(page.skus).toEqual(await expected('Noodles', 'asc', 0, 'inactive', 100));
    expect(page.meta.total).toBe(115);
    expect(page.meta.total_is_lower_bound).toBeUndefined();
    // the lower bound counts under the filter: 1,035 active, more than 200 on the first page,
    // exactly 1,035 once the walk reaches past them
    page = await skus('search=noodles&filter[status]=active');
    expect(page.skus).toEqual(await expected('Noodles', 'asc', 0, 'active'));
    expect(page.meta).toMatchObject({ total: 200, total_is_lower_bound: true });
    page = await skus('search=noodles&filter[status]=active&per_page=100&page=10');
    expect(page.skus).toEqual(await expected('Noodles', 'asc', 900, 'active', 100));
    expect(page.meta.total).toBe(1035);
    expect(page.meta.total_is_lower_bound).toBeUndefined();
    // another order than the name's: every match sorted, the same total
    page = await skus('search=noodles&sort=sku');
    expect(page.skus.slice(0, 3)).toEqual(['NDL-0000', 'NDL-0001', 'NDL-0002']);
    expect(page.meta).toMatchObject({ total: TOTAL_CAP, total_is_lower_bound: true });
    // a word with a number drives by the number: exact, whatever the common word
    page = await skus('search=noodlesoup%2059&per_page=100');
    // the number begins a word of either name: the English one's or the Khmer one's (មី <i>)
    const soup59 = rows.slice(1).filter((r) => /^Noodlesoup /.test(r[0]) && /(^| )59/.test(`${r[0]} ${r[1]}`));
    expect(soup59.length).toBeGreaterThan(0);
    expect(page.skus.sort()).toEqual(soup59.map((r) => r[2]).sort());
    expect(page.meta.total).toBe(page.skus.length);
    expect(page.meta.total_is_lower_bound).toBeUndefined();
  });

  it('gives each later page the records one long page holds there, in every order (ids found first, then joined)', async () => {
    // the noodles above: names, prices and statuses repeated, so ties are broken by id
    const deleted = (await send('GET', '/api/products?search=NDL-0003')).body.data[0].id;
    expect((await send('DELETE', `/api/products/${deleted}`)).status).toBe(200);
    for (const sort of ['name_en', '-price', 'sku', '-status']) {
      for (const narrow of ['', '&trashed=only', '&filter[status]=inactive', '&search=noodlesoup']) {
        const long = await skus(`per_page=50&sort=${sort}${narrow}`);
        const pages: string[] = [];
        for (const page of [1, 2, 3, 4, 5])
          pages.push(...(await skus(`per_page=10&page=${page}&sort=${sort}${narrow}`)).skus);
        expect(pages, `${sort}${narrow}`).toEqual(long.skus);
      }
    }
  }, 120_000);
});
