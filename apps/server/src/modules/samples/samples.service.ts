import { randomBytes } from 'node:crypto';
import {
  type Locale,
  type MessageKey,
  orderInput,
  PERMISSIONS,
  purchaseInput,
  SAMPLE_PLAN,
  SAMPLE_TABLES,
  type SampleState,
  type SampleStatus,
  translate,
} from '@depot/contracts';
import { sql } from 'kysely';
import sharp from 'sharp';
import { type Db, now } from '../../db/database.ts';
import { rebuildRollups } from '../../db/rollups.ts';
import { AppError } from '../../http/errors.ts';
import { escapeHtml } from '../../kit/html.ts';
import { resourceService } from '../../kit/resource.ts';
import { tableChanged } from '../../kit/totals.ts';
import type { Actor } from '../../policies/policy.ts';
import { hashPassword } from '../auth/passwords.ts';
import { brands, categories, units } from '../catalogue/catalogue.resources.ts';
import { orderService } from '../orders/orders.service.ts';
import { customers, stores, suppliers } from '../parties/parties.resources.ts';
import { type PictureFiles, removePictureFiles, replacePicture, writePicture } from '../products/products.images.ts';
import { products } from '../products/products.resources.ts';
import { purchaseService } from '../purchases/purchases.service.ts';
import {
  SAMPLE_BRANDS,
  SAMPLE_CATEGORIES,
  SAMPLE_CUSTOMERS,
  SAMPLE_PRODUCTS,
  SAMPLE_STORE,
  SAMPLE_SUPPLIERS,
  SAMPLE_UNITS,
  SAMPLE_USER,
  type SampleProduct,
} from './samples.data.ts';

/**
 * Sample data: a demo depot loaded through Depot's own services (the kit's creates, the purchases
 * service's receipts, the orders service's sales and payments), so its stock, ledger, payments,
 * invoices and search are as real as staff's; and removed again, record by record, from the list
 * of what the load created (`sample_records`).
 *
 * Rules:
 * - One load at a time and one load at all: the `sample_loads` row named `demo` is claimed first
 *   (its key refuses a second claim); loading again when loaded adds nothing.
 * - The documents are written by an inactive sample cashier (no one signs in with it), in the
 *   first store and a sample second store, dated over the past weeks.
 * - Removal takes every record the load created, even one staff edited since, and nothing else.
 *   It is refused (409, saying what) while staff's own records use sample ones: a sale or a
 *   purchase of theirs with a sample product, customer, supplier or store, a stock movement,
 *   transfer, combo or discount of a sample product, a product of a sample brand, category or unit,
 *   a user or printer of the sample store. A voided or deleted record of theirs still counts (it
 *   still names the sample record): then the sample data stays, and may be deactivated instead.
 * - Document numbers the sample documents took are not given back (a number is never reused).
 */

const LOAD = 'demo';
/** A load or removal that has not finished after this long died with its process. */
const STALE_MS = 10 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Cambodia is UTC+7 all year. */
const CAMBODIA_MS = 7 * 60 * 60 * 1000;

type Table = (typeof SAMPLE_TABLES)[number];

/** A small seeded generator (mulberry32): the same depot on every load. */
function generator(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
  };
}

/** The day `days` before today in Cambodia, at hh:mm there, as a UTC timestamp; and its date. */
function cambodiaTime(days: number, hour: number, minute: number) {
  const today = new Date(Date.now() + CAMBODIA_MS).toISOString().slice(0, 10);
  const day = new Date(Date.parse(`${today}T00:00:00Z`) - days * DAY_MS).toISOString().slice(0, 10);
  const at = new Date(Date.parse(`${day}T${pad(hour)}:${pad(minute)}:00+07:00`)).toISOString();
  return { day, at };
}
const pad = (n: number) => String(n).padStart(2, '0');

/** A product's picture: a tile of its category's colour with its initials and name. */
function tile(product: SampleProduct, colour: string): Buffer {
  const initials = product.name_en
    .split(/[\s,]+/)
    .filter((w) => /^[A-Za-z]/.test(w))
    .slice(0, 2)
    .map((w) => w[0].toUpperCase())
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="480">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0" stop-color="${colour}"/><stop offset="1" stop-color="#141414" stop-opacity="0.85"/>
  </linearGradient></defs>
  <rect width="480" height="480" fill="url(#g)"/>
  <circle cx="240" cy="200" r="120" fill="#ffffff" fill-opacity="0.16"/>
  <text x="240" y="245" font-family="DejaVu Sans, Arial, sans-serif" font-size="120" font-weight="700"
    fill="#ffffff" text-anchor="middle">${escapeHtml(initials)}</text>
  <text x="240" y="390" font-family="DejaVu Sans, Arial, sans-serif" font-size="30" fill="#ffffff"
    text-anchor="middle">${escapeHtml(product.name_en)}</text>
  <text x="240" y="435" font-family="DejaVu Sans, Arial, sans-serif" font-size="20" fill="#ffffff"
    fill-opacity="0.75" text-anchor="middle">${escapeHtml(product.sku)}</text>
</svg>`;
  return Buffer.from(svg);
}

/** Staff's own records that use sample ones, per table: why removal is refused. */
interface Uses {
  table: string;
  entity: MessageKey;
  count: number;
}

export function sampleService(db: Db, uploadsDir: string) {
  const orders = orderService(db);
  const purchases = purchaseService(db);

  async function recorded(trx: Db): Promise<Map<string, number[]>> {
    const rows = await trx.selectFrom('sample_records').select(['table_name', 'record_id']).execute();
    const map = new Map<string, number[]>();
    for (const row of rows) map.set(row.table_name, [...(map.get(row.table_name) ?? []), Number(row.record_id)]);
    return map;
  }

  async function record(table: Table, ids: number[]) {
    if (ids.length) {
      await db
        .insertInto('sample_records')
        .values(ids.map((record_id) => ({ table_name: table, record_id })))
        .execute();
    }
  }

  async function loadRow() {
    const row = await db.selectFrom('sample_loads').selectAll().where('name', '=', LOAD).executeTakeFirst();
    if (!row) return null;
    // a load or removal whose process died: it failed (what it made is listed, and removable)
    const stale =
      (row.status === 'loading' || row.status === 'removing') && Date.now() - Date.parse(row.started_at) > STALE_MS;
    return { ...row, status: stale ? ('failed' as const) : row.status };
  }

  /** Claims the load row for `status`; false when another load or removal holds it. */
  async function claim(status: 'loading' | 'removing', userId: number | null, from: SampleStatus[]): Promise<boolean> {
    const row = await loadRow();
    const at = now();
    if (!row) {
      if (status === 'removing') return false;
      try {
        await db
          .insertInto('sample_loads')
          .values({ name: LOAD, status, user_id: userId, started_at: at, finished_at: null })
          .execute();
        return true;
      } catch {
        return false; // another claim won the key
      }
    }
    if (!from.includes(row.status)) return false;
    // only the status read moves on: of two claims at once, one changes the row
    const stored = await db.selectFrom('sample_loads').select('status').where('name', '=', LOAD).executeTakeFirst();
    const changed = await db
      .updateTable('sample_loads')
      .set({ status, started_at: at, finished_at: null, ...(status === 'loading' ? { user_id: userId } : {}) })
      .where('name', '=', LOAD)
      .where('status', '=', stored?.status ?? row.status)
      .executeTakeFirst();
    return Number(changed.numUpdatedRows) === 1;
  }

  async function finish(status: 'loaded' | 'failed') {
    await db.updateTable('sample_loads').set({ status, finished_at: now() }).where('name', '=', LOAD).execute();
  }

  /** The sample cashier, made once: inactive, with a password no one knows. */
  async function sampleUser(storeId: number): Promise<number> {
    const at = now();
    const user = await db
      .insertInto('users')
      .values({
        name: SAMPLE_USER.name,
        full_name: SAMPLE_USER.full_name,
        password_hash: await hashPassword(randomBytes(24).toString('hex')),
        status: 'inactive',
        store_id: storeId,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await record('users', [user.id]);
    return user.id;
  }

  /**
   * A catalogue record by its name, made when the depot has none (then it is the sample's):
   * the sample data reuses a "Can" the depot already has rather than make a second.
   */
  async function findOrMake<T extends 'brands' | 'categories' | 'units'>(
    table: T,
    column: 'name' | 'name_en',
    value: string,
    make: () => Promise<{ id: number }>,
  ): Promise<number> {
    const existing = await db
      .selectFrom(table as 'brands')
      .select('id')
      .where(sql<string>`lower(${sql.ref(column)})`, '=', value.toLowerCase())
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (existing) return existing.id;
    const made = await make();
    await record(table, [made.id]);
    return made.id;
  }

  async function loadAll(actorOf: (userId: number, storeId: number) => Actor) {
    const firstStore = await db
      .selectFrom('stores')
      .select('id')
      .where('deleted_at', 'is', null)
      .where('status', '=', 'active')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const userId = await sampleUser(firstStore.id);
    const actor = actorOf(userId, firstStore.id);

    // the catalogue, through the kit (its checks, its search index)
    const brandIds = new Map<string, number>();
    for (const brand of SAMPLE_BRANDS) {
      brandIds.set(
        brand.key,
        await findOrMake('brands', 'name', brand.name, () =>
          resourceService(db, brands).create(actor, {
            name: brand.name,
            description: brand.description,
            status: 'active',
          }),
        ),
      );
    }
    const categoryIds = new Map<string, number>();
    for (const category of SAMPLE_CATEGORIES) {
      categoryIds.set(
        category.key,
        await findOrMake('categories', 'name_en', category.name_en, () =>
          resourceService(db, categories).create(actor, {
            name_en: category.name_en,
            name_kh: category.name_kh,
            description: null,
            status: 'active',
          }),
        ),
      );
    }
    const unitIds = new Map<string, number>();
    for (const unit of SAMPLE_UNITS) {
      const base = 'base' in unit ? (unitIds.get(unit.base) ?? null) : null;
      unitIds.set(
        unit.key,
        await findOrMake('units', 'name_en', unit.name_en, () =>
          resourceService(db, units).create(actor, {
            name_en: unit.name_en,
            name_kh: unit.name_kh,
            short_name: unit.short_name,
            base_unit_id: base,
            factor: 'factor' in unit ? unit.factor : 1,
            status: 'active',
          }),
        ),
      );
    }

    const productIds = new Map<string, number>();
    const pictures: Promise<{ id: number; files: PictureFiles }>[] = [];
    const productService = resourceService(db, products);
    for (const item of SAMPLE_PRODUCTS) {
      const made = await productService.create(actor, {
        name_en: item.name_en,
        name_kh: item.name_kh,
        short_name: null,
        sku: item.sku,
        barcode: null,
        brand_id: brandIds.get(item.brand) ?? null,
        category_id: categoryIds.get(item.category) as number,
        sub_category_id: null,
        unit_id: unitIds.get(item.unit) as number,
        price_usd_cents: item.price,
        price_khr: null,
        cost_usd_cents: item.cost,
        taxable: true,
        expiry_date: null,
        reorder_level: item.reorder,
        status: 'active',
        opening_stock: [],
      });
      productIds.set(item.sku, made.id);
      await record('products', [made.id]);
      // its picture through the products' own pipeline, drawn (in sharp's threads) while the rest loads
      const colour = SAMPLE_CATEGORIES.find((c) => c.key === item.category)?.colour ?? '#595959';
      pictures.push(
        sharp(tile(item, colour))
          .png({ compressionLevel: 0 })
          .toBuffer()
          .then((png) => writePicture(uploadsDir, made.id, png))
          .then((files) => ({ id: made.id, files })),
      );
    }

    const supplierIds = new Map<string, number>();
    for (const supplier of SAMPLE_SUPPLIERS) {
      const made = await resourceService(db, suppliers).create(actor, {
        name: supplier.name,
        type: supplier.type,
        phone: supplier.phone,
        address: supplier.address,
        shipping_address: null,
        village_id: null,
        status: 'active',
        payment_terms_days: 30,
      });
      supplierIds.set(supplier.key, made.id);
      await record('suppliers', [made.id]);
    }
    const customerIds: number[] = [];
    for (const customer of SAMPLE_CUSTOMERS) {
      const made = await resourceService(db, customers).create(actor, {
        ...customer,
        shipping_address: null,
        vat_number: null,
        village_id: null,
        credit_limit_cents: null,
        payment_terms_days: 0,
        customer_group_id: null,
        status: 'active',
      });
      customerIds.push(made.id);
      await record('customers', [made.id]);
    }
    const branch = await resourceService(db, stores).create(actor, {
      ...SAMPLE_STORE,
      village_id: null,
      status: 'active',
      khqr_account_id: null,
      khqr_merchant_name: null,
      khqr_merchant_city: null,
      khqr_merchant_id: null,
      khqr_acquiring_bank: null,
    });
    await record('stores', [branch.id]);
    const storeIds = [firstStore.id, branch.id];
    const walkIn = await db
      .selectFrom('customers')
      .select('id')
      .where('is_walk_in', '=', 1)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();

    // the sales, drawn first: the purchases bring in what they will take, and some to spare
    const random = generator(20260301);
    const days = SAMPLE_PLAN.days;
    type Sale = { store: number; daysAgo: number; hour: number; minute: number; customer: number; lines: Line[] };
    type Line = { sku: string; quantity: number; carton: boolean };
    const sales: Sale[] = [];
    const need = new Map<string, number>(); // store/sku → base units
    for (let daysAgo = days; daysAgo >= 1; daysAgo--) {
      for (const [index, store] of storeIds.entries()) {
        const count = index === 0 ? random.int(3, 5) : random.int(1, 3);
        for (let n = 0; n < count; n++) {
          const lines: Line[] = [];
          const picked = new Set<string>();
          for (let l = random.int(1, 4); l > 0; l--) {
            const product = random.pick(SAMPLE_PRODUCTS);
            if (picked.has(product.sku)) continue;
            picked.add(product.sku);
            const carton = Boolean(product.carton) && random.next() < 0.15;
            const quantity = carton ? 1 : random.int(1, Math.max(1, Math.ceil(product.daily / 2)));
            lines.push({ sku: product.sku, quantity, carton });
            const key = `${store}/${product.sku}`;
            need.set(key, (need.get(key) ?? 0) + quantity * (carton ? 24 : 1));
          }
          const regular = random.next() < 0.35 && customerIds.length;
          sales.push({
            store,
            daysAgo,
            hour: random.int(7, 18),
            minute: random.int(0, 59),
            customer: regular ? random.pick(customerIds) : (walkIn?.id ?? customerIds[0]),
            lines,
          });
        }
      }
    }
    sales.sort((a, b) => b.daysAgo - a.daysAgo || a.hour - b.hour || a.minute - b.minute);

    // purchases: each supplier's goods into each store, received and (mostly) paid, before the sales
    const purchaseIds: number[] = [];
    let p = 0;
    for (const store of storeIds) {
      for (const supplier of SAMPLE_SUPPLIERS) {
        const goods = SAMPLE_PRODUCTS.filter((item) =>
          (supplier.categories as readonly string[]).includes(item.category),
        );
        const { day, at } = cambodiaTime(days + 6 - p, 9, 30);
        const input = purchaseInput.parse({
          supplier_id: supplierIds.get(supplier.key),
          store_id: store,
          purchase_date: day,
          notes: 'Sample data',
          shipping_cents: store === storeIds[1] ? 1500 : 0,
          tax_cents: 0,
          ordered: true,
          items: goods.map((item) => {
            // enough for the sales, then a few left (under the reorder level for some: low stock to see)
            const units = (need.get(`${store}/${item.sku}`) ?? 0) + random.int(2, item.reorder + 12);
            const unit = item.carton ? unitIds.get('carton') : unitIds.get(item.unit);
            const quantity = item.carton ? Math.ceil(units / 24) : units;
            return {
              product_id: productIds.get(item.sku),
              unit_id: unit,
              quantity,
              unit_price_cents: item.cost * (item.carton ? 24 : 1),
            };
          }),
        });
        const made = await purchases.create(actor, input);
        purchaseIds.push(made.id);
        await record('purchases', [made.id]);
        await purchases.receive(actor, made.id, {
          received_at: day,
          items: made.items.map((line) => ({ item_id: line.id, quantity: line.quantity })),
        });
        // the last purchase of each store is half paid; the others in full
        const total = made.grand_total_cents;
        const amount = p % 3 === 2 ? Math.round(total / 2) : total;
        await purchases.pay(actor, made.id, {
          amount_cents: amount,
          method: p % 2 ? 'bank_transfer' : 'cash_usd',
          paid_at: day,
          reference: null,
          note: null,
        });
        await backdatePurchase(made.id, at);
        p++;
      }
    }

    // the sales: sold, then paid in dollars, in riel, or both (change given), dated over the weeks
    const orderIds: number[] = [];
    for (const [index, sale] of sales.entries()) {
      if (!sale.lines.length) continue;
      const sold = await orders.create(
        { ...actor, storeId: sale.store },
        orderInput.parse({
          store_id: sale.store,
          customer_id: sale.customer,
          items: sale.lines.map((line) => ({
            product_id: productIds.get(line.sku),
            unit_id: line.carton ? unitIds.get('carton') : null,
            quantity: line.quantity,
          })),
          note: null,
        }),
      );
      orderIds.push(sold.id);
      await record('orders', [sold.id]);
      const due = sold.total_cents - sold.paid_cents;
      const rate = sold.rate_in_khr ?? sold.exchange_rate_khr;
      const riel = (cents: number) => Math.ceil((cents * rate) / 100 / 1000) * 1000;
      const way = index % 10;
      // both currencies: whole dollars, the rest (up to a dollar) in riel
      const dollars = Math.floor((due - 1) / 100) * 100;
      const tenders =
        way < 4
          ? [{ method: 'cash_usd' as const, amount: Math.ceil(due / 100) * 100, transaction_id: null }]
          : way < 7
            ? [{ method: 'cash_khr' as const, amount: riel(due), transaction_id: null }]
            : way < 9 && due >= 200
              ? [
                  { method: 'cash_usd' as const, amount: dollars, transaction_id: null },
                  { method: 'cash_khr' as const, amount: riel(due - dollars), transaction_id: null },
                ]
              : [{ method: 'bank_transfer' as const, amount: due, transaction_id: `ABA-${100000 + index}` }];
      await orders.pay({ ...actor, storeId: sale.store }, sold.id, tenders);
      await backdateOrder(sold.id, cambodiaTime(sale.daysAgo, sale.hour, sale.minute).at);
    }
    for (const { id, files } of await Promise.all(pictures)) await replacePicture(db, uploadsDir, id, files);
    const invoices = orderIds.length
      ? await db.selectFrom('invoices').select('id').where('order_id', 'in', orderIds).execute()
      : [];
    await record(
      'invoices',
      invoices.map((i) => i.id),
    );
    // the sales went through the order steps and the ledger, then were back-dated: the reports'
    // daily rollups are recomputed from them as they now stand (db/rollups.ts)
    await rebuildRollups(db);
    for (const table of ['orders', 'invoices', 'purchases', 'stock_movements']) await tableChanged(db, table);
    return { products: productIds.size, purchases: purchaseIds.length, orders: orderIds.length };
  }

  /** A sample sale as if made at `at`: the order, its payments, its invoice, its stock movements. */
  async function backdateOrder(id: number, at: string) {
    const later = new Date(Date.parse(at) + 60_000).toISOString();
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('orders')
        .set({ order_date: at, created_at: at, updated_at: later })
        .where('id', '=', id)
        .execute();
      await trx.updateTable('order_payments').set({ created_at: later }).where('order_id', '=', id).execute();
      await trx
        .updateTable('invoices')
        .set({ paid_at: later, created_at: later, updated_at: later })
        .where('order_id', '=', id)
        .execute();
      await trx
        .updateTable('stock_movements')
        .set({ created_at: at })
        .where('document_type', '=', 'order')
        .where('document_id', '=', id)
        .execute();
    });
  }

  async function backdatePurchase(id: number, at: string) {
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('purchases').set({ created_at: at, updated_at: at }).where('id', '=', id).execute();
      await trx.updateTable('purchase_payments').set({ created_at: at }).where('purchase_id', '=', id).execute();
      await trx
        .updateTable('stock_movements')
        .set({ created_at: at })
        .where('document_type', '=', 'purchase')
        .where('document_id', '=', id)
        .execute();
    });
  }

  /** Staff's own records that use sample records (empty: removal may go on). */
  async function usesOf(trx: Db, mine: Map<string, number[]>): Promise<Uses[]> {
    const ids = (table: string) => mine.get(table) ?? [];
    const none = [-1]; // `in ()` is no SQL: a list that matches nothing
    const of = (table: string) => (ids(table).length ? ids(table) : none);
    const count = async (query: { executeTakeFirst(): Promise<{ n: number | string | bigint } | undefined> }) =>
      Number((await query.executeTakeFirst())?.n ?? 0);
    const n = sql<number>`count(*)`.as('n');
    const uses: Uses[] = [];
    const add = (table: string, entity: MessageKey, value: number) => {
      if (value) uses.push({ table, entity, count: value });
    };
    const sampleDocument = sql<boolean>`(document_type = 'order' and document_id in (${sql.join(of('orders'))}))
      or (document_type = 'purchase' and document_id in (${sql.join(of('purchases'))}))`;

    add(
      'orders',
      'entity.order',
      await count(
        trx
          .selectFrom('orders')
          .select(n)
          .where('id', 'not in', of('orders'))
          .where((e) =>
            e.or([
              e('store_id', 'in', of('stores')),
              e('customer_id', 'in', of('customers')),
              e('id', 'in', e.selectFrom('order_items').select('order_id').where('product_id', 'in', of('products'))),
            ]),
          ),
      ),
    );
    add(
      'purchases',
      'entity.purchase',
      await count(
        trx
          .selectFrom('purchases')
          .select(n)
          .where('id', 'not in', of('purchases'))
          .where((e) =>
            e.or([
              e('store_id', 'in', of('stores')),
              e('supplier_id', 'in', of('suppliers')),
              e(
                'id',
                'in',
                e.selectFrom('purchase_items').select('purchase_id').where('product_id', 'in', of('products')),
              ),
            ]),
          ),
      ),
    );
    add(
      'stock_movements',
      'entity.stock_movements',
      await count(
        trx
          .selectFrom('stock_movements')
          .select(n)
          .where((e) => e.or([e('product_id', 'in', of('products')), e('store_id', 'in', of('stores'))]))
          .where(sql<boolean>`not (${sampleDocument})`),
      ),
    );
    add(
      'stock_transfers',
      'entity.transfer',
      await count(
        trx
          .selectFrom('stock_transfers')
          .select(n)
          .where((e) =>
            e.or([
              e('from_store_id', 'in', of('stores')),
              e('to_store_id', 'in', of('stores')),
              e(
                'id',
                'in',
                e.selectFrom('stock_transfer_items').select('transfer_id').where('product_id', 'in', of('products')),
              ),
            ]),
          ),
      ),
    );
    add(
      'combos',
      'entity.combo',
      await count(
        trx
          .selectFrom('combos')
          .select(n)
          .where('id', 'in', (e) =>
            e.selectFrom('combo_items').select('combo_id').where('product_id', 'in', of('products')),
          ),
      ),
    );
    add(
      'discounts',
      'entity.discount',
      await count(
        trx
          .selectFrom('discounts')
          .select(n)
          .where((e) => e.or([e('product_id', 'in', of('products')), e('category_id', 'in', of('categories'))])),
      ),
    );
    add(
      'products',
      'entity.product',
      await count(
        trx
          .selectFrom('products')
          .select(n)
          .where('id', 'not in', of('products'))
          .where((e) =>
            e.or([
              e('brand_id', 'in', of('brands')),
              e('category_id', 'in', of('categories')),
              e('unit_id', 'in', of('units')),
            ]),
          ),
      ),
    );
    add(
      'sub_categories',
      'entity.sub_category',
      await count(trx.selectFrom('sub_categories').select(n).where('category_id', 'in', of('categories'))),
    );
    add(
      'units',
      'entity.unit',
      await count(
        trx.selectFrom('units').select(n).where('id', 'not in', of('units')).where('base_unit_id', 'in', of('units')),
      ),
    );
    add(
      'users',
      'entity.users',
      await count(
        trx
          .selectFrom('users')
          .select(n)
          .where('id', 'not in', of('users'))
          .where((e) =>
            e.or([
              e('store_id', 'in', of('stores')),
              e('id', 'in', e.selectFrom('user_stores').select('user_id').where('store_id', 'in', of('stores'))),
            ]),
          ),
      ),
    );
    add(
      'printers',
      'entity.printer',
      await count(trx.selectFrom('printers').select(n).where('store_id', 'in', of('stores'))),
    );
    return uses;
  }

  async function removeAll(): Promise<void> {
    const mine = await recorded(db);
    const ids = (table: string) => mine.get(table) ?? [];
    const pictures = ids('products').length
      ? await db
          .selectFrom('products')
          .select(['image_path', 'thumbnail_path'])
          .where('id', 'in', ids('products'))
          .execute()
      : [];
    await db.transaction().execute(async (trx) => {
      // checked again inside the transaction: nothing of staff's came in between
      const uses = await usesOf(trx, mine);
      if (uses.length) throw inUse(uses);
      const del = async (table: string, column: string, values: number[]) => {
        if (values.length) {
          await trx
            .deleteFrom(table as 'orders')
            .where(column as 'id', 'in', values)
            .execute();
        }
      };
      const orders = ids('orders');
      if (orders.length) {
        const items = (await trx.selectFrom('order_items').select('id').where('order_id', 'in', orders).execute()).map(
          (r) => r.id,
        );
        await del('order_item_batches', 'order_item_id', items);
        await del('order_items', 'order_id', orders);
        await del('order_payments', 'order_id', orders);
        await del('order_returns', 'order_id', orders);
        await del('khqr_payments', 'order_id', orders);
        const invoices = (await trx.selectFrom('invoices').select('id').where('order_id', 'in', orders).execute()).map(
          (r) => r.id,
        );
        await trx
          .deleteFrom('search_terms')
          .where('resource', '=', 'invoices')
          .where('record_id', 'in', invoices.length ? invoices : [-1])
          .execute();
        await del('invoices', 'order_id', orders);
      }
      const purchases = ids('purchases');
      await del('purchase_payments', 'purchase_id', purchases);
      await del('purchase_items', 'purchase_id', purchases);
      const products = ids('products');
      await del('stock_movements', 'product_id', products);
      await del('stock_levels', 'product_id', products);
      await del('stock_valuations', 'product_id', products);
      await del('stock_batches', 'product_id', products);
      const users = ids('users');
      await del('user_roles', 'user_id', users);
      await del('user_stores', 'user_id', users);
      const sessions = users.length
        ? (await trx.selectFrom('auth_sessions').select('id').where('user_id', 'in', users).execute()).map((r) => r.id)
        : [];
      await del('auth_tokens', 'session_id', sessions);
      await del('auth_sessions', 'user_id', users);
      await del('idempotency_keys', 'user_id', users);
      // units made of another first (a carton of cans), then the rest, children before parents
      const derived = ids('units').length
        ? (
            await trx
              .selectFrom('units')
              .select('id')
              .where('id', 'in', ids('units'))
              .where('base_unit_id', 'is not', null)
              .execute()
          ).map((r) => r.id)
        : [];
      for (const table of ['orders', 'purchases', 'products', 'customers', 'suppliers', 'users', 'stores']) {
        await trx
          .deleteFrom('search_terms')
          .where('resource', '=', table)
          .where('record_id', 'in', ids(table).length ? ids(table) : [-1])
          .execute();
        await del(table, 'id', ids(table));
      }
      await del('units', 'id', derived);
      for (const table of ['units', 'categories', 'brands']) {
        await trx
          .deleteFrom('search_terms')
          .where('resource', '=', table)
          .where('record_id', 'in', ids(table).length ? ids(table) : [-1])
          .execute();
        await del(table, 'id', ids(table));
      }
      await trx.deleteFrom('sample_records').execute();
      await trx.deleteFrom('sample_loads').where('name', '=', LOAD).execute();
      // the reports' daily rollups without the sample sales and movements, in the same transaction
      await rebuildRollups(trx);
    });
    for (const files of pictures) await removePictureFiles(uploadsDir, files);
    for (const table of [...SAMPLE_TABLES, 'stock_movements', 'stock_levels']) {
      await tableChanged(db, table);
    }
  }

  function inUse(uses: Uses[]): AppError {
    const text = (locale: Locale) => uses.map((u) => `${translate(u.entity, locale)}: ${u.count}`).join(', ');
    return new AppError(409, 'samples.in_use', { uses: { en: text('en'), kh: text('kh') } }, { body: { uses } });
  }

  return {
    /** The sample data's state: loaded or not, when, by whom, how many records of each table. */
    async state(actor: Actor | null): Promise<SampleState> {
      const row = await loadRow();
      const counts = Object.fromEntries(SAMPLE_TABLES.map((t) => [t, 0]));
      const rows = await db
        .selectFrom('sample_records')
        .select(['table_name', sql<number>`count(*)`.as('n')])
        .groupBy('table_name')
        .execute();
      for (const r of rows) counts[r.table_name] = Number(r.n);
      const by = row?.user_id
        ? await db.selectFrom('users').select(['name', 'full_name']).where('id', '=', row.user_id).executeTakeFirst()
        : null;
      const status: SampleStatus = row?.status ?? 'none';
      const permitted = (p: string) => actor === null || actor.permissions.has(p);
      return {
        status,
        started_at: row?.started_at ?? null,
        loaded_at: row?.status === 'loaded' ? row.finished_at : null,
        loaded_by_name: by ? (by.full_name ?? by.name) : null,
        counts,
        abilities: {
          load: permitted('samples.generate') && (status === 'none' || status === 'failed'),
          remove: permitted('samples.delete') && (status === 'loaded' || status === 'failed'),
        },
      };
    },

    /**
     * Loads the demo depot once: `loaded: false` when it was loaded already (nothing added). A
     * load that failed half-way is removed first, then made again.
     */
    async load(
      byUserId: number | null,
    ): Promise<{ loaded: boolean; products: number; purchases: number; orders: number }> {
      const row = await loadRow();
      if (row?.status === 'loaded') return { loaded: false, products: 0, purchases: 0, orders: 0 };
      if (row?.status === 'failed') {
        if (!(await claim('removing', null, ['failed']))) throw new AppError(409, 'samples.busy');
        try {
          await removeAll();
        } catch (error) {
          await finish('failed');
          throw error;
        }
      }
      if (!(await claim('loading', byUserId, ['failed']))) {
        const now = await loadRow();
        if (now?.status === 'loaded') return { loaded: false, products: 0, purchases: 0, orders: 0 };
        throw new AppError(409, 'samples.busy');
      }
      try {
        const made = await loadAll((userId, storeId) => ({
          userId,
          storeId,
          permissions: new Set(PERMISSIONS),
          coverage: { all: true, storeIds: [] },
          claim: null,
        }));
        await finish('loaded');
        return { loaded: true, ...made };
      } catch (error) {
        await finish('failed');
        throw error;
      }
    },

    /** Removes every record the load made; refused while staff's own records use them. */
    async remove(): Promise<void> {
      const row = await loadRow();
      if (!row) throw new AppError(409, 'samples.none');
      if (!(await claim('removing', null, ['loaded', 'failed']))) throw new AppError(409, 'samples.busy');
      try {
        await removeAll();
      } catch (error) {
        // refused or failed: the data stays as it was
        await db
          .updateTable('sample_loads')
          .set({ status: row.status, started_at: row.started_at, finished_at: row.finished_at })
          .where('name', '=', LOAD)
          .execute();
        throw error;
      }
    },
  };
}

export type SampleService = ReturnType<typeof sampleService>;
