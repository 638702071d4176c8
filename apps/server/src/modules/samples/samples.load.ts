import { randomBytes } from 'node:crypto';
import { orderInput, purchaseInput, SAMPLE_PLAN, type SAMPLE_TABLES } from '@depot/contracts';
import { sql } from 'kysely';
import sharp from 'sharp';
import { type Db, now } from '../../db/database.ts';
import { rebuildRollups } from '../../db/rollups.rebuild.ts';
import { transaction } from '../../db/transaction.ts';
import { escapeHtml } from '../../kit/html.ts';
import { resourceService } from '../../kit/resource.ts';
import { tableChanged } from '../../kit/totals.ts';
import type { Actor } from '../../policies/policy.ts';
import { hashPassword } from '../auth/passwords.ts';
import { brands, categories, units } from '../catalogue/catalogue.resources.ts';
import { orderService } from '../orders/orders.service.ts';
import { customers, stores, suppliers } from '../parties/parties.resources.ts';
import { type PictureFiles, replacePicture, writePicture } from '../products/products.images.ts';
import { products } from '../products/products.resources.ts';
import { purchaseService } from '../purchases/purchases.service.ts';
import { backdate } from '../stock/ledger.ts';
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
 * The sample data's load (samples.service.ts says the rules): a demo depot made through Depot's own
 * services, by an inactive sample cashier, in the first store and a sample second store, its
 * documents then dated over the past weeks. The same depot on every load (a seeded generator).
 */

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

async function record(db: Db, table: Table, ids: number[]) {
  if (ids.length) {
    await db
      .insertInto('sample_records')
      .values(ids.map((record_id) => ({ table_name: table, record_id })))
      .execute();
  }
}

/** The sample cashier, made once: inactive, with a password no one knows. */
async function sampleUser(db: Db, storeId: number): Promise<number> {
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
  await record(db, 'users', [user.id]);
  return user.id;
}

/**
 * A catalogue record by its name, made when the depot has none (then it is the sample's):
 * the sample data reuses a "Can" the depot already has rather than make a second.
 */
async function findOrMake<T extends 'brands' | 'categories' | 'units'>(
  db: Db,
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
  await record(db, table, [made.id]);
  return made.id;
}

/**
 * Loads the demo depot through Depot's own services as `actorOf` the sample cashier, and lists
 * what it made in `sample_records` as it goes (what removal takes). Answers how much it made.
 */
export async function loadSamples(db: Db, uploadsDir: string, actorOf: (userId: number, storeId: number) => Actor) {
  const orders = orderService(db);
  const purchases = purchaseService(db);
  const firstStore = await db
    .selectFrom('stores')
    .select('id')
    .where('deleted_at', 'is', null)
    .where('status', '=', 'active')
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const userId = await sampleUser(db, firstStore.id);
  const actor = actorOf(userId, firstStore.id);

  // the catalogue, through the kit (its checks, its search index)
  const brandIds = new Map<string, number>();
  for (const brand of SAMPLE_BRANDS) {
    brandIds.set(
      brand.key,
      await findOrMake(db, 'brands', 'name', brand.name, () =>
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
      await findOrMake(db, 'categories', 'name_en', category.name_en, () =>
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
      await findOrMake(db, 'units', 'name_en', unit.name_en, () =>
        resourceService(db, units).create(actor, {
          name_en: unit.name_en,
          name_kh: unit.name_kh,
          short_name: unit.short_name,
          base_unit_id: base,
          factor: 'factor' in unit ? unit.factor : 1,
          // the samples count their kilograms whole
          decimals: 0,
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
      serial_tracked: false,
      warranty_months: 0,
      status: 'active',
      opening_stock: [],
    });
    productIds.set(item.sku, made.id);
    await record(db, 'products', [made.id]);
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
    await record(db, 'suppliers', [made.id]);
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
    await record(db, 'customers', [made.id]);
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
  await record(db, 'stores', [branch.id]);
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
  type Sale = { store: number; daysAgo: number; hour: number; minute: number; customer: number; lines: SampleLine[] };
  type SampleLine = { sku: string; quantity: number; carton: boolean };
  const sales: Sale[] = [];
  const need = new Map<string, number>(); // store/sku → base units
  for (let daysAgo = days; daysAgo >= 1; daysAgo--) {
    for (const [index, store] of storeIds.entries()) {
      const count = index === 0 ? random.int(3, 5) : random.int(1, 3);
      for (let n = 0; n < count; n++) {
        const lines: SampleLine[] = [];
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
      await record(db, 'purchases', [made.id]);
      await purchases.receive(actor, made.id, {
        received_at: day,
        items: made.items.map((line) => ({ item_id: line.id, quantity: line.quantity, serials: [] })),
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
      await backdatePurchase(db, made.id, at);
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
    await record(db, 'orders', [sold.id]);
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
    await backdateOrder(db, sold.id, cambodiaTime(sale.daysAgo, sale.hour, sale.minute).at);
  }
  for (const { id, files } of await Promise.all(pictures)) await replacePicture(db, uploadsDir, id, files);
  const invoices = orderIds.length
    ? await db.selectFrom('invoices').select('id').where('order_id', 'in', orderIds).execute()
    : [];
  await record(
    db,
    'invoices',
    invoices.map((i) => i.id),
  );
  // the sales went through the order steps and the ledger, then were back-dated: the reports'
  // daily rollups are recomputed from them as they now stand (db/rollups.rebuild.ts)
  await transaction(db, rebuildRollups);
  for (const table of ['orders', 'invoices', 'purchases', 'stock_movements']) await tableChanged(db, table);
  return { products: productIds.size, purchases: purchaseIds.length, orders: orderIds.length };
}

/** A sample sale as if made at `at`: the order, its payments, its invoice, its stock movements. */
async function backdateOrder(db: Db, id: number, at: string) {
  const later = new Date(Date.parse(at) + 60_000).toISOString();
  await transaction(db, async (trx) => {
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
    await backdate(trx, { type: 'order', id }, at);
  });
}

/** A sample purchase as if made at `at`: the purchase, its payments, its stock movements. */
async function backdatePurchase(db: Db, id: number, at: string) {
  await transaction(db, async (trx) => {
    await trx.updateTable('purchases').set({ created_at: at, updated_at: at }).where('id', '=', id).execute();
    await trx.updateTable('purchase_payments').set({ created_at: at }).where('purchase_id', '=', id).execute();
    await backdate(trx, { type: 'purchase', id }, at);
  });
}
