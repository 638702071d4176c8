import { type Kysely, sql } from 'kysely';

/**
 * The products list in its name orders, live products only (`deleted_at is null`, as every list
 * but the bin's): an index of just those, in (name, id) order, so a page past the first finds its
 * ids in the index alone. With the plain name index each entry skipped was a lookup of its row to
 * check `deleted_at`, so a far page read every row before it (most of the page's cost). `id`
 * breaks ties as the list does (SQLite's index holds it anyway; PostgreSQL's needs it to hand the
 * order without a sort).
 */
const ORDERS = ['name_en', 'name_kh'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of ORDERS)
    await db.schema
      .createIndex(`products_live_${column}`)
      .on('products')
      .columns([column, 'id'])
      .where(sql.ref('deleted_at'), 'is', null)
      .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ORDERS) await db.schema.dropIndex(`products_live_${column}`).execute();
}
