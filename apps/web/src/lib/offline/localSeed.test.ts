import type { ProductSnapshotAnswer } from '@depot/contracts';
import { describe, expect, it } from 'vitest';
import { rowsOfAnswer, seedCatalogue } from './localSeed.ts';
import { CURSOR } from './localSnapshot.ts';
import { outboxDb, resetOutboxDb } from './outbox.ts';

/** A new till's bulk write of the server's snapshot (fake-indexeddb; in the browser it runs in the catalogue worker). */

const answer = (n: number): ProductSnapshotAnswer => {
  const ids = Array.from({ length: n }, (_, i) => i + 1);
  return {
    cursor: `2026-11-28T10:00:00.000Z~${n}`,
    units: [
      { id: 3, name_en: 'Can', name_kh: 'កំប៉ុង', decimals: 0 },
      { id: 4, name_en: 'Box', name_kh: 'ប្រអប់', decimals: 0 },
    ],
    id: ids,
    name_en: ids.map((id) => `Beer ${id}`),
    name_kh: ids.map((id) => `ស្រាបៀរ ${id}`),
    sku: ids.map((id) => `BEER-${id}`),
    barcode: ids.map((id) => (id % 2 ? `885${id}` : null)),
    category_id: ids.map(() => 7),
    thumbnail_url: ids.map(() => null),
    unit: ids.map((id) => id % 2),
    price_usd_cents: ids.map((id) => 100 + id),
    taxable: ids.map((id) => id % 3 === 0),
    serial_tracked: ids.map(() => false),
    updated_at: ids.map(() => '2026-11-28T09:00:00.000Z'),
  };
};
const bytesOf = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).buffer as ArrayBuffer;

let n = 0;
async function freshDb() {
  const db = resetOutboxDb(`depot-till-seed-${++n}`);
  await db.open();
  return db;
}

describe('the first sync’s bulk write', () => {
  it('shows the index before it writes, then keeps every row, the snapshot and the cursor in one go', async () => {
    const db = await freshDb();
    let keptWhenShown = -1;
    let shownSize = 0;
    const made = await seedCatalogue(db.name, bytesOf(answer(3000)), (shown) => {
      shownSize = shown[0].ids.length;
      // nothing written yet when the till may search it
      void db.products.count().then((count) => {
        keptWhenShown = count;
      });
    });
    expect(shownSize).toBe(3000);
    expect(keptWhenShown).toBe(0);
    expect(made?.[0].ids.length).toBe(3000);
    expect(await db.products.count()).toBe(3000);
    expect(await db.products.get(6)).toEqual({
      id: 6,
      name_en: 'Beer 6',
      name_kh: 'ស្រាបៀរ 6',
      sku: 'BEER-6',
      barcode: null,
      category_id: 7,
      thumbnail_url: null,
      unit_id: 3,
      unit_name_en: 'Can',
      unit_name_kh: 'កំប៉ុង',
      unit_decimals: 0,
      price_usd_cents: 106,
      taxable: true,
      serial_tracked: false,
      updated_at: '2026-11-28T09:00:00.000Z',
    });
    expect((await db.meta.get(CURSOR))?.value).toBe('2026-11-28T10:00:00.000Z~3000');
    const snapshot = await db.snapshot.get('products');
    expect(snapshot && 'version' in snapshot ? snapshot.version : null).toBe(
      Number((await db.meta.get('catalogue_version'))?.value),
    );
  });

  it('writes nothing where another tab synced first (a cursor kept)', async () => {
    const db = await freshDb();
    await db.meta.put({ name: CURSOR, value: '2026-11-28T11:00:00.000Z~9' });
    await db.products.put({ ...(rowsOfAnswer(answer(1))[0] as object), id: 99 } as never);
    expect(await seedCatalogue(db.name, bytesOf(answer(10)))).toBeNull();
    expect(await db.products.count()).toBe(1);
    expect((await db.meta.get(CURSOR))?.value).toBe('2026-11-28T11:00:00.000Z~9');
    expect(outboxDb().name).toBe(db.name);
  });

  it('refuses an answer whose columns disagree, writing nothing', async () => {
    const db = await freshDb();
    const bad = { ...answer(5), sku: ['A'] };
    await expect(seedCatalogue(db.name, bytesOf(bad))).rejects.toThrow('not in the expected shape');
    await expect(seedCatalogue(db.name, bytesOf({ ...answer(2), unit: [0, 9] }))).rejects.toThrow();
    expect(await db.products.count()).toBe(0);
  });
});
