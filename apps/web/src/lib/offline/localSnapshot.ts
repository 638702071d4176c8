import type { SoldProduct } from '../../pages/till/cart.ts';
import { CatalogueIndex, type IndexData, indexData, type Joined, joined, joinedAt } from './localIndex.ts';

/**
 * The till's catalogue as it is read at a cold start (issue 13). The table `products` (one row a
 * product, what the sync writes, localCatalogue.ts) stays the source of truth; after a sync that
 * changed it, the whole of it is rewritten here, in the table `snapshot` of the same database, as
 * two records of typed arrays and joined strings: the search index already built (localIndex.ts
 * `IndexData`) with the columns a tile and a cart line need, and the stock last known of each.
 * IndexedDB reads them as a copy (100,000 products: some tens of MB, a fraction of a second),
 * where 100,000 row objects took 1.5-2.5 s and their index another second on the main thread.
 * The snapshot is built from the table in one transaction (`buildSnapshot`), in a Web Worker
 * where there is one (catalogue.worker.ts), so the till keeps selling meanwhile.
 */

/** A product as the till keeps it: what it sells with, and the stock it last saw, in which store. */
export type LocalProduct = SoldProduct & { stock_store?: number };
/** A product as the products table keeps it: with the time of the server's copy (an older one is not taken back). */
export type ProductRow = LocalProduct & { updated_at: string };

/** Meta: the cursor the next changes are read after (changes.ts). */
export const CURSOR = 'catalogue_cursor';

/** Meta: a counter each sync that changed the products table moves (the snapshot says which it saw). */
export const VERSION = 'catalogue_version';
/** Meta: the snapshot now kept (its `built`): the stock record is written for it only. */
export const BUILT = 'catalogue_built';

interface Unit {
  id: number;
  en: string;
  kh: string;
  /** Decimals of its quantities (kg: 3); 0 when the kept row predates them. */
  decimals: number;
}

export interface ProductSnapshot {
  name: 'products';
  /** The catalogue's VERSION it was built from: another one means rows changed since. */
  version: number;
  /** Its own id: the stock record goes with it. */
  built: number;
  index: IndexData;
  /** By rank (the index's order): */
  ids: Float64Array;
  categories: Float64Array;
  prices: Float64Array;
  taxable: Uint8Array;
  /** Sold by serial (1); absent in a snapshot kept before serials existed. */
  serials?: Uint8Array;
  namesEn: Joined;
  namesKh: Joined;
  skus: Joined;
  /** Empty for none. */
  barcodes: Joined;
  thumbs: Joined;
  /** Each product's unit, a place in `units`. */
  unitOf: Int32Array;
  units: Unit[];
}

/** The stock last known of each product of a snapshot (by rank; NaN for none), rewritten when the server tells more. */
export interface StockSnapshot {
  name: 'stock';
  built: number;
  stock: Float64Array;
  stores: Float64Array;
}

/** The snapshot of the kept rows (as the products table holds them). */
export function snapshotOf(records: readonly ProductRow[], version: number): [ProductSnapshot, StockSnapshot] {
  const { rows, data } = indexData(records);
  const n = rows.length;
  const built = Date.now() * 1000 + Math.floor(Math.random() * 1000);
  const units: Unit[] = [];
  const unitPlace = new Map<string, number>();
  const unitOf = new Int32Array(n);
  const stock = new Float64Array(n).fill(Number.NaN);
  const stores = new Float64Array(n).fill(Number.NaN);
  rows.forEach((row, rank) => {
    const decimals = row.unit_decimals ?? 0;
    const key = `${row.unit_id}\n${row.unit_name_en}\n${row.unit_name_kh}\n${decimals}`;
    let place = unitPlace.get(key);
    if (place === undefined) {
      place = units.push({ id: row.unit_id, en: row.unit_name_en, kh: row.unit_name_kh, decimals }) - 1;
      unitPlace.set(key, place);
    }
    unitOf[rank] = place;
    if (row.stock !== undefined && row.stock !== null) {
      stock[rank] = row.stock;
      stores[rank] = row.stock_store ?? Number.NaN;
    }
  });
  const column = (pick: (row: (typeof rows)[number]) => string | null) => joined(rows.map((row) => pick(row) ?? ''));
  return [
    {
      name: 'products',
      version,
      built,
      index: data,
      ids: Float64Array.from(rows, (row) => row.id),
      categories: Float64Array.from(rows, (row) => row.category_id),
      prices: Float64Array.from(rows, (row) => row.price_usd_cents),
      taxable: Uint8Array.from(rows, (row) => (row.taxable ? 1 : 0)),
      serials: Uint8Array.from(rows, (row) => (row.serial_tracked ? 1 : 0)),
      namesEn: column((row) => row.name_en),
      namesKh: column((row) => row.name_kh),
      skus: column((row) => row.sku),
      barcodes: column((row) => row.barcode),
      thumbs: column((row) => row.thumbnail_url),
      unitOf,
      units,
    },
    { name: 'stock', built, stock, stores },
  ];
}

export const request = <T>(req: IDBRequest<T>) =>
  new Promise<T>((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });

/**
 * Rebuilds the snapshot of the database's products table and keeps it, in one transaction (a sync
 * writing rows, or a forget, waits for it; the rows read are the rows the snapshot says). Plain
 * IndexedDB, so a worker runs it without the app's modules. Answers the snapshot kept.
 */
export async function buildSnapshot(name: string): Promise<[ProductSnapshot, StockSnapshot]> {
  const db = await request(indexedDB.open(name));
  db.onversionchange = () => db.close();
  try {
    return await new Promise((resolve, reject) => {
      const tx = db.transaction(['products', 'meta', 'snapshot'], 'readwrite');
      const rows = tx.objectStore('products').getAll();
      const version = tx.objectStore('meta').get(VERSION);
      let made: [ProductSnapshot, StockSnapshot] | null = null;
      // requests answer in order: both are there; built and written before the transaction ends
      version.onsuccess = () => {
        made = snapshotOf(rows.result, Number(version.result?.value ?? 0));
        const snapshots = tx.objectStore('snapshot');
        snapshots.put(made[0]);
        snapshots.put(made[1]);
        tx.objectStore('meta').put({ name: BUILT, value: made[0].built });
      };
      tx.oncomplete = () => (made ? resolve(made) : reject(new Error('no snapshot')));
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error ?? new Error('aborted'));
    });
  } finally {
    db.close();
  }
}

/** The catalogue read back from a snapshot: its index, its records made on demand, the stock as last known. */
export class KeptCatalogue {
  readonly index: CatalogueIndex<LocalProduct>;
  readonly stock: StockSnapshot;
  private readonly made: (LocalProduct | undefined)[];
  private ranks: Map<number, number> | null = null;

  constructor(
    readonly snapshot: ProductSnapshot,
    stock?: StockSnapshot | null,
  ) {
    const n = snapshot.ids.length;
    this.stock =
      stock && stock.built === snapshot.built && stock.stock.length === n
        ? stock
        : {
            name: 'stock',
            built: snapshot.built,
            stock: new Float64Array(n).fill(Number.NaN),
            stores: new Float64Array(n).fill(Number.NaN),
          };
    this.made = new Array(n);
    this.index = new CatalogueIndex<LocalProduct>(null, { data: snapshot.index, rowAt: (rank) => this.rowAt(rank) });
  }

  get size(): number {
    return this.snapshot.ids.length;
  }

  private rowAt(rank: number): LocalProduct {
    const found = this.made[rank];
    if (found) return found;
    const s = this.snapshot;
    const unit = s.units[s.unitOf[rank]];
    const row: LocalProduct = {
      id: s.ids[rank],
      name_en: joinedAt(s.namesEn, rank),
      name_kh: joinedAt(s.namesKh, rank),
      sku: joinedAt(s.skus, rank),
      barcode: joinedAt(s.barcodes, rank) || null,
      category_id: s.categories[rank],
      thumbnail_url: joinedAt(s.thumbs, rank) || null,
      unit_id: unit.id,
      unit_name_en: unit.en,
      unit_name_kh: unit.kh,
      unit_decimals: unit.decimals ?? 0,
      price_usd_cents: s.prices[rank],
      taxable: s.taxable[rank] === 1,
      serial_tracked: s.serials?.[rank] === 1,
    };
    const stock = this.stock.stock[rank];
    if (!Number.isNaN(stock)) {
      row.stock = stock;
      const store = this.stock.stores[rank];
      if (!Number.isNaN(store)) row.stock_store = store;
    }
    this.made[rank] = row;
    return row;
  }

  private rankOf(id: number): number | undefined {
    if (!this.ranks) {
      const ranks = new Map<number, number>();
      const ids = this.snapshot.ids;
      for (let rank = 0; rank < ids.length; rank++) ranks.set(ids[rank], rank);
      this.ranks = ranks;
    }
    return this.ranks.get(id);
  }

  byId(id: number): LocalProduct | undefined {
    const rank = this.rankOf(id);
    return rank === undefined ? undefined : this.rowAt(rank);
  }

  /** The stock the server told of a product in a store: kept in memory; answers whether it is kept here. */
  setStock(id: number, stock: number, store: number): boolean {
    const rank = this.rankOf(id);
    if (rank === undefined) return false;
    this.stock.stock[rank] = stock;
    this.stock.stores[rank] = store;
    this.made[rank] = undefined;
    return true;
  }
}
