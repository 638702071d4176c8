import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { CombosTable } from '../../db/schema.ts';

/** The Kysely queries of combos: the rules and transactions are in combos.service.ts. */

/** Base units of an item: quantity × factor. */
const base = sql`cast(combo_items.quantity as bigint) * combo_items.factor`;

/**
 * What an item's base units are worth now, in cents: their share of the product's stock value
 * (the weighted average cost, rounded half up as the ledger's `share` rounds), or the product's
 * cost price when nothing is in stock (the ledger's `worthNow`).
 */
function costOf(): RawBuilder<number> {
  const value = sql`stock_valuations.value_cents`;
  const whole = sql`stock_valuations.quantity`;
  const n = sql`(${value} * ${base} * 2 + ${whole})`;
  const d = sql`(${whole} * 2)`;
  return sql<number>`case
    when stock_valuations.quantity > 0 then
      case when ${n} >= 0 then ${n} / ${d} else -((-${n} + ${d} - 1) / ${d}) end
    else cast(products.cost_usd_cents as bigint) * ${base}
  end`;
}

/** Per combo: its items' count, base units, price bought one by one and worth in stock now. */
function totalsByCombo(db: Db) {
  return db
    .selectFrom('combo_items')
    .innerJoin('products', 'products.id', 'combo_items.product_id')
    .leftJoin('stock_valuations', 'stock_valuations.product_id', 'combo_items.product_id')
    .select([
      'combo_items.combo_id',
      sql<number>`count(*)`.as('items_count'),
      sql<number>`cast(sum(${base}) as bigint)`.as('total_quantity'),
      sql<number>`cast(sum(cast(products.price_usd_cents as bigint) * ${base}) as bigint)`.as('price_cents'),
      sql<number>`cast(sum(${costOf()}) as bigint)`.as('total_cost_cents'),
    ])
    .groupBy('combo_items.combo_id');
}

const selling = sql`combos.selling_price_cents`;
const cost = sql`coalesce(totals.total_cost_cents, 0)`;
const profit = sql`(${selling} - ${cost})`;

/**
 * One row per combo as a list shows it, the money computed in SQL with the rules of contracts'
 * `comboTotals` and `marginBp` (the margin rounded half away from zero); a test holds the list
 * equal to the detail, which computes the same in TypeScript.
 */
export function comboRows(db: Db) {
  return db
    .selectFrom('combos')
    .leftJoin(totalsByCombo(db).as('totals'), 'totals.combo_id', 'combos.id')
    .leftJoin('users', 'users.id', 'combos.created_by')
    .select([
      'combos.id',
      'combos.name_en',
      'combos.name_kh',
      'combos.description',
      'combos.sku',
      'combos.barcode',
      'combos.selling_price_cents',
      'combos.status',
      sql<number>`coalesce(totals.items_count, 0)`.as('items_count'),
      sql<number>`coalesce(totals.total_quantity, 0)`.as('total_quantity'),
      sql<number>`coalesce(totals.price_cents, 0)`.as('price_cents'),
      sql<number>`${cost}`.as('total_cost_cents'),
      sql<number>`${profit}`.as('profit_cents'),
      sql<number>`case
        when ${selling} <= 0 then 0
        when ${profit} >= 0 then (${profit} * 20000 + ${selling}) / (${selling} * 2)
        else -((-${profit} * 20000 + ${selling}) / (${selling} * 2))
      end`.as('margin_bp'),
      'combos.created_by',
      sql<string | null>`coalesce(users.full_name, users.name)`.as('created_by_name'),
      'combos.created_at',
      'combos.updated_at',
      'combos.deleted_at',
    ]);
}

/** The stored items of a combo with their product and unit, in the order they were entered. */
export function itemRows(db: Db, comboId: number) {
  return db
    .selectFrom('combo_items')
    .innerJoin('products', 'products.id', 'combo_items.product_id')
    .innerJoin('units', 'units.id', 'combo_items.unit_id')
    .select([
      'combo_items.product_id',
      'products.name_en as product_name_en',
      'products.name_kh as product_name_kh',
      'products.sku',
      'products.price_usd_cents',
      'products.cost_usd_cents',
      'products.deleted_at as product_deleted_at',
      'combo_items.unit_id',
      'units.name_en as unit_name_en',
      'units.name_kh as unit_name_kh',
      'combo_items.factor',
      'combo_items.quantity',
    ])
    .where('combo_items.combo_id', '=', comboId)
    .orderBy('combo_items.id')
    .execute();
}

/** Live products by id, with what an item shows and is priced from. */
export async function productsByIds(db: Db, ids: number[]) {
  const rows = ids.length
    ? await db
        .selectFrom('products')
        .select(['id', 'name_en', 'name_kh', 'sku', 'unit_id', 'status', 'price_usd_cents', 'cost_usd_cents'])
        .where('id', 'in', ids)
        .where('deleted_at', 'is', null)
        .execute()
    : [];
  return new Map(rows.map((row) => [row.id, row]));
}

/** Live units by id, with what they are made of. */
export async function unitsByIds(db: Db, ids: number[]) {
  const rows = ids.length
    ? await db
        .selectFrom('units')
        .select(['id', 'name_en', 'name_kh', 'base_unit_id', 'factor'])
        .where('id', 'in', ids)
        .where('deleted_at', 'is', null)
        .execute()
    : [];
  return new Map(rows.map((row) => [row.id, { ...row, factor: Number(row.factor) }]));
}

/** The stock valuations of some products (all stores together), read without a lock. */
export async function valuationsOf(db: Db, productIds: number[]) {
  const rows = productIds.length
    ? await db
        .selectFrom('stock_valuations')
        .select(['product_id', 'quantity', 'value_cents'])
        .where('product_id', 'in', productIds)
        .execute()
    : [];
  return new Map(rows.map((r) => [r.product_id, { quantity: Number(r.quantity), value: Number(r.value_cents) }]));
}

/** Live records other than `exceptId` whose `column` equals `value` without case: for uniqueness. */
export async function takenBy(
  db: Db,
  table: 'combos' | 'products',
  column: 'sku' | 'barcode',
  value: string,
  exceptId: number | null,
): Promise<boolean> {
  let query = db
    .selectFrom(table)
    .select('id')
    .where(sql<string>`lower(${sql.ref(column)})`, '=', value.toLowerCase())
    .where('deleted_at', 'is', null);
  if (exceptId !== null) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export type ComboValues = Omit<CombosTable, 'id' | 'created_at' | 'updated_at' | 'deleted_at' | 'created_by'>;

export interface ItemRow {
  product_id: number;
  unit_id: number;
  factor: number;
  quantity: number;
}

export async function insertCombo(
  trx: Db,
  values: ComboValues & { created_by: number | null; created_at: string; updated_at: string },
): Promise<number> {
  const row = await trx.insertInto('combos').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** Locks a live combo for the rest of the transaction (an update of updated_at) and writes its values. */
export async function updateCombo(trx: Db, id: number, values: Partial<Omit<CombosTable, 'id'>>): Promise<boolean> {
  const rows = await trx
    .updateTable('combos')
    .set(values)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .returning('id')
    .execute();
  return rows.length > 0;
}

/** Replaces every item of a combo. */
export async function replaceItems(trx: Db, comboId: number, items: ItemRow[]): Promise<void> {
  await trx.deleteFrom('combo_items').where('combo_id', '=', comboId).execute();
  await trx
    .insertInto('combo_items')
    .values(items.map((item) => ({ ...item, combo_id: comboId })))
    .execute();
}

export function comboRow(db: Db, id: number) {
  return db
    .selectFrom('combos')
    .select(['id', 'sku', 'barcode', 'created_by', 'deleted_at'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The user's name as lists show it (full name, else sign-in name). */
export async function userName(db: Db, userId: number | null): Promise<string | null> {
  if (userId === null) return null;
  const row = await db
    .selectFrom('users')
    .select(sql<string | null>`coalesce(full_name, name)`.as('name'))
    .where('id', '=', userId)
    .executeTakeFirst();
  return row?.name ?? null;
}
