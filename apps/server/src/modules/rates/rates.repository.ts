import type { ExchangeRate } from '@depot/contracts';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { ExchangeRatesTable } from '../../db/schema.ts';

/** The Kysely queries of rates and sale settings: the rules are in rates.service.ts. */

function rateRows(db: Db) {
  return db
    .selectFrom('exchange_rates')
    .leftJoin('users', 'users.id', 'exchange_rates.created_by')
    .select([
      'exchange_rates.id',
      'exchange_rates.rate_khr',
      'exchange_rates.rate_in_khr',
      'exchange_rates.rate_out_khr',
      'exchange_rates.note',
      'exchange_rates.created_by',
      sql<string | null>`coalesce(users.full_name, users.name)`.as('created_by_name'),
      'exchange_rates.created_at',
    ])
    .orderBy('exchange_rates.created_at', 'desc')
    .orderBy('exchange_rates.id', 'desc');
}

/** The current rate: the newest entered, or undefined before any. */
export function newestRate(db: Db): Promise<ExchangeRate | undefined> {
  return rateRows(db).limit(1).executeTakeFirst();
}

/** A setting's stored JSON text, or null: a scalar subquery of `saleRateRow`. */
const settingValue = (key: string) => sql<string | null>`(select "value" from "settings" where "key" = ${key})`;

/**
 * What a sale is priced with, in one query (a product list completes every page with it): the
 * newest rate's figures (null before any) and the stored texts of the settings they need.
 */
export async function saleRateRow(db: Db) {
  const { rows } = await sql<{
    rate_khr: number | null;
    rate_in_khr: number | null;
    rate_out_khr: number | null;
    khr_rounding_step: string | null;
    vat_rate_bp: string | null;
    exchange_rate_khr: string | null;
  }>`select r.rate_khr, r.rate_in_khr, r.rate_out_khr,
    ${settingValue('khr_rounding_step')} as khr_rounding_step,
    ${settingValue('vat_rate_bp')} as vat_rate_bp,
    ${settingValue('exchange_rate_khr')} as exchange_rate_khr
    from (select 1 as one) as o
    left join (select rate_khr, rate_in_khr, rate_out_khr from exchange_rates
      order by created_at desc, id desc limit 1) as r on 1 = 1`.execute(db);
  return rows[0];
}

/** One page of the history, newest first, and how many rates there are in all. */
export async function rateHistory(db: Db, page: { page: number; per_page: number }) {
  const rows = await rateRows(db)
    .limit(page.per_page)
    .offset((page.page - 1) * page.per_page)
    .execute();
  const count = await db.selectFrom('exchange_rates').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
  return { rows, total: Number(count.n) };
}

export async function insertRate(trx: Db, values: Omit<ExchangeRatesTable, 'id'>): Promise<ExchangeRate> {
  const { id } = await trx.insertInto('exchange_rates').values(values).returning('id').executeTakeFirstOrThrow();
  return rateRows(trx).where('exchange_rates.id', '=', id).executeTakeFirstOrThrow();
}

/** Stored settings by key, parsed from their JSON text (an unreadable value is left out). */
export async function readSettings(db: Db, keys: readonly string[]): Promise<Record<string, unknown>> {
  const rows = await db.selectFrom('settings').select(['key', 'value']).where('key', 'in', keys).execute();
  const stored: Record<string, unknown> = {};
  for (const row of rows) {
    try {
      stored[row.key] = JSON.parse(row.value);
    } catch {
      // unreadable: the default stands
    }
  }
  return stored;
}

/** Writes settings as JSON text, adding the keys not there yet. */
export async function writeSettings(trx: Db, values: Record<string, unknown>, at: string): Promise<void> {
  for (const [key, value] of Object.entries(values)) {
    await trx
      .insertInto('settings')
      .values({ key, value: JSON.stringify(value), updated_at: at })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value), updated_at: at }))
      .execute();
  }
}
