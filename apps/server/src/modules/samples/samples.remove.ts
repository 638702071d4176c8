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

/**
 * Where staff's rows may use sample records, per table: a column naming a sample record, or a
 * child row (an order's line) naming one. `own`: the table's sample rows themselves do not count.
 */
interface UseRule {
  table: string;
  entity: MessageKey;
  own?: boolean;
  /** column → the sample table it names */
  refs: [string, string][];
  /** child table, its column naming this table's row, its column naming a sample record, that record's table */
  children?: [string, string, string, string][];
  /** movements of sample documents go with them */
  notSampleDocument?: boolean;
}

const USE_RULES: UseRule[] = [
  {
    table: 'orders',
    entity: 'entity.order',
    own: true,
    refs: [
      ['store_id', 'stores'],
      ['customer_id', 'customers'],
    ],
    children: [['order_items', 'order_id', 'product_id', 'products']],
  },
  {
    table: 'purchases',
    entity: 'entity.purchase',
    own: true,
    refs: [
      ['store_id', 'stores'],
      ['supplier_id', 'suppliers'],
    ],
    children: [['purchase_items', 'purchase_id', 'product_id', 'products']],
  },
  {
    table: 'stock_movements',
    entity: 'entity.stock_movements',
    refs: [
      ['product_id', 'products'],
      ['store_id', 'stores'],
    ],
    notSampleDocument: true,
  },
  {
    table: 'stock_transfers',
    entity: 'entity.transfer',
    refs: [
      ['from_store_id', 'stores'],
      ['to_store_id', 'stores'],
    ],
    children: [['stock_transfer_items', 'transfer_id', 'product_id', 'products']],
  },
  {
    table: 'combos',
    entity: 'entity.combo',
    refs: [],
    children: [['combo_items', 'combo_id', 'product_id', 'products']],
  },
  {
    table: 'discounts',
    entity: 'entity.discount',
    refs: [
      ['product_id', 'products'],
      ['category_id', 'categories'],
    ],
  },
  {
    table: 'products',
    entity: 'entity.product',
    own: true,
    refs: [
      ['brand_id', 'brands'],
      ['category_id', 'categories'],
      ['unit_id', 'units'],
    ],
  },
  { table: 'sub_categories', entity: 'entity.sub_category', refs: [['category_id', 'categories']] },
  { table: 'units', entity: 'entity.unit', own: true, refs: [['base_unit_id', 'units']] },
  {
    table: 'users',
    entity: 'entity.users',
    own: true,
    refs: [['store_id', 'stores']],
    children: [['user_stores', 'user_id', 'store_id', 'stores']],
  },
  { table: 'printers', entity: 'entity.printer', refs: [['store_id', 'stores']] },
];

/** Staff's own records that use sample records (empty: removal may go on). */
async function usesOf(trx: Db, mine: Map<string, number[]>): Promise<Uses[]> {
  const none = [-1]; // `in ()` is no SQL: a list that matches nothing
  const of = (table: string) => sql.join(mine.get(table)?.length ? (mine.get(table) as number[]) : none);
  const sampleDocument = sql<boolean>`(document_type = 'order' and document_id in (${of('orders')}))
    or (document_type = 'purchase' and document_id in (${of('purchases')}))`;
  const uses: Uses[] = [];
  for (const rule of USE_RULES) {
    const using = [
      ...rule.refs.map(([column, table]) => sql`${sql.ref(column)} in (${of(table)})`),
      ...(rule.children ?? []).map(
        ([child, parent, column, table]) =>
          sql`id in (select ${sql.ref(parent)} from ${sql.table(child)} where ${sql.ref(column)} in (${of(table)}))`,
      ),
    ];
    const where = [
      sql`(${sql.join(using, sql` or `)})`,
      ...(rule.own ? [sql`id not in (${of(rule.table)})`] : []),
      ...(rule.notSampleDocument ? [sql`not (${sampleDocument})`] : []),
    ];
    const { rows } = await sql<{ n: number | string | bigint }>`select count(*) as n from ${sql.table(rule.table)}
      where ${sql.join(where, sql` and `)}`.execute(trx);
    const count = Number(rows[0]?.n ?? 0);
    if (count) uses.push({ table: rule.table, entity: rule.entity, count });
  }
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
