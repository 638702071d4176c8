import { sql } from 'kysely';
import { type MigrationResultSet, Migrator } from 'kysely/migration';
import { type Db, isPostgres } from './database.ts';
import * as m0001 from './migrations/0001_foundation.ts';
import * as m0002 from './migrations/0002_catalogue.ts';
import * as m0003 from './migrations/0003_geography.ts';
import * as m0004 from './migrations/0004_parties.ts';
import * as m0005 from './migrations/0005_products.ts';
import * as m0006 from './migrations/0006_search.ts';
import * as m0007 from './migrations/0007_stock.ts';
import * as m0008 from './migrations/0008_selling.ts';
import * as m0009 from './migrations/0009_orders.ts';
import * as m0010 from './migrations/0010_trust.ts';
import * as m0011 from './migrations/0011_admin.ts';
import * as m0012 from './migrations/0012_reports.ts';
import * as m0013 from './migrations/0013_wholesale_prices.ts';
import * as m0014 from './migrations/0014_notifications.ts';
import * as m0016 from './migrations/0016_payments_printing.ts';
import * as m0017 from './migrations/0017_samples.ts';
import * as m0018 from './migrations/0018_customer_vat_number.ts';
import * as m0019 from './migrations/0019_change_given.ts';
import * as m0020 from './migrations/0020_shifts.ts';
import * as m0021 from './migrations/0021_profile_settings.ts';
import * as m0022 from './migrations/0022_rollup.ts';
import * as m0023 from './migrations/0023_credit.ts';
import * as m0024 from './migrations/0024_notification_marks.ts';
import * as m0025 from './migrations/0025_offline_oversell.ts';
import * as m0026 from './migrations/0026_role_landing.ts';
import * as m0027 from './migrations/0027_changes_index.ts';
import * as m0028 from './migrations/0028_search_order.ts';
import * as m0029 from './migrations/0029_live_name_order.ts';
import * as m0030 from './migrations/0030_changes_more.ts';
import * as m0031 from './migrations/0031_levels_now.ts';
import * as m0032 from './migrations/0032_sign_in_trust.ts';
import * as m0033 from './migrations/0033_drawer_of_payment.ts';
import * as m0034 from './migrations/0034_tax_documents.ts';
import * as m0035 from './migrations/0035_einvoicing.ts';
import * as m0036 from './migrations/0036_bank_checks.ts';
import * as m0037 from './migrations/0037_unit_decimals.ts';
import * as m0039 from './migrations/0039_stock_counts.ts';
import * as m0040 from './migrations/0040_display_pairings.ts';
import * as m0041 from './migrations/0041_serials.ts';
import * as m0042 from './migrations/0042_tax_line_decimals.ts';

/** Migrations in order. A new one is a new file added here: the list is explicit, not a directory scan. */
const migrations = {
  '0001_foundation': m0001,
  '0002_catalogue': m0002,
  '0003_geography': m0003,
  '0004_parties': m0004,
  '0005_products': m0005,
  '0006_search': m0006,
  '0007_stock': m0007,
  '0008_selling': m0008,
  '0009_orders': m0009,
  '0010_trust': m0010,
  '0011_admin': m0011,
  '0012_reports': m0012,
  '0013_wholesale_prices': m0013,
  '0014_notifications': m0014,
  '0016_payments_printing': m0016,
  '0017_samples': m0017,
  '0018_customer_vat_number': m0018,
  '0019_change_given': m0019,
  '0020_shifts': m0020,
  '0021_profile_settings': m0021,
  '0022_rollup': m0022,
  '0023_credit': m0023,
  '0024_notification_marks': m0024,
  '0025_offline_oversell': m0025,
  '0026_role_landing': m0026,
  '0027_changes_index': m0027,
  '0028_search_order': m0028,
  '0029_live_name_order': m0029,
  '0030_changes_more': m0030,
  '0031_levels_now': m0031,
  '0032_sign_in_trust': m0032,
  '0033_drawer_of_payment': m0033,
  '0034_tax_documents': m0034,
  '0035_einvoicing': m0035,
  '0036_bank_checks': m0036,
  '0037_unit_decimals': m0037,
  '0039_stock_counts': m0039,
  '0040_display_pairings': m0040,
  '0041_serials': m0041,
  '0042_tax_line_decimals': m0042,
};

/** The migrations this code knows, oldest first: a database at a later one was made by a newer Depot. */
export const MIGRATION_NAMES: readonly string[] = Object.keys(migrations);

/** The last migration a database has run (null: none, an empty database). */
export async function migrationLevel(db: Db): Promise<string | null> {
  // whether the table is there, from the catalogue (Kysely's introspection reads every table's
  // columns: some 5 ms on SQLite, and the administrator's dashboard asks this on every load)
  const exists = isPostgres(db)
    ? sql<{ found: unknown }>`select to_regclass('kysely_migration') as found`
    : sql<{
        found: unknown;
      }>`select name as found from sqlite_master where type = 'table' and name = 'kysely_migration'`;
  const [table] = (await exists.execute(db)).rows;
  if (table?.found === null || table?.found === undefined) return null;
  const { rows } = await sql<{ name: string }>`select max(name) as name from kysely_migration`.execute(db);
  return rows[0]?.name ?? null;
}

/**
 * Migration numbers are reserved per piece of work and land in the order the work does: a database
 * that already ran 0014 and 0016 must still take 0011 or 0012 when they arrive. Kysely refuses such a
 * migration unless told that the order of arrival may differ from the order of names; each migration
 * touches only its own tables and columns, so any order of arrival is safe.
 */
const migrator = (db: Db, from: Record<string, (typeof migrations)[keyof typeof migrations]> = migrations) =>
  new Migrator({ db, allowUnorderedMigrations: true, provider: { getMigrations: async () => from } });

/** Only the migrations named, in order: a database as a Depot of another set of migrations left it, for tests. */
export async function migrateOnly(db: Db, names: readonly string[]): Promise<string[]> {
  const only = Object.fromEntries(Object.entries(migrations).filter(([name]) => names.includes(name)));
  return outcome(await migrator(db, only).migrateToLatest());
}

export async function migrateToLatest(db: Db): Promise<string[]> {
  return outcome(await migrator(db).migrateToLatest());
}

/** Up (or down) to the migration named: a database as an older Depot left it, for tests. */
export async function migrateTo(db: Db, name: string): Promise<string[]> {
  return outcome(await migrator(db).migrateTo(name));
}

function outcome({ error, results }: MigrationResultSet): string[] {
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
