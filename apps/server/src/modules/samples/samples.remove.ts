import { type Locale, type MessageKey, SAMPLE_TABLES, translate } from '@depot/contracts';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { rebuildRollups } from '../../db/rollups.rebuild.ts';
import { transaction } from '../../db/transaction.ts';
import { AppError } from '../../http/errors.ts';
import { tableChanged } from '../../kit/totals.ts';
import { removePictureFiles } from '../products/products.images.ts';
import { removeProducts } from '../stock/ledger.ts';
import { SAMPLE_LOAD } from './samples.data.ts';

/** The sample data's removal (samples.service.ts says the rules). */

/** Staff's own records that use sample ones, per table: why removal is refused. */
interface Uses {
  table: string;
  entity: MessageKey;
  count: number;
}

/** What the load made, by table. */
async function recorded(trx: Db): Promise<Map<string, number[]>> {
  const rows = await trx.selectFrom('sample_records').select(['table_name', 'record_id']).execute();
  const map = new Map<string, number[]>();
  for (const row of rows) map.set(row.table_name, [...(map.get(row.table_name) ?? []), Number(row.record_id)]);
  return map;
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

/**
 * Removes every record the load made (listed in `sample_records`), even one staff edited since,
 * and nothing else, in one transaction; refused (409, saying what) while staff's own records use
 * sample ones (samples.service.ts says which).
 */
export async function removeSamples(db: Db, uploadsDir: string): Promise<void> {
  const mine = await recorded(db);
  const ids = (table: string) => mine.get(table) ?? [];
  const pictures = ids('products').length
    ? await db
        .selectFrom('products')
        .select(['image_path', 'thumbnail_path'])
        .where('id', 'in', ids('products'))
        .execute()
    : [];
  await transaction(db, async (trx) => {
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
    // the ledger's rows of the sample products, by the ledger (their one writer)
    await removeProducts(trx, products);
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
    await trx.deleteFrom('sample_loads').where('name', '=', SAMPLE_LOAD).execute();
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
