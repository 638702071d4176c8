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
