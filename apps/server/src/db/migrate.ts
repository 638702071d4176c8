import { sql } from 'kysely';
import { type MigrationResultSet, Migrator } from 'kysely/migration';
import type { Db } from './database.ts';
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
import * as m0014 from './migrations/0014_notifications.ts';
import * as m0016 from './migrations/0016_payments_printing.ts';
import * as m0021 from './migrations/0021_profile_settings.ts';

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
  '0014_notifications': m0014,
  '0016_payments_printing': m0016,
  '0021_profile_settings': m0021,
};

/** The migrations this code knows, oldest first: a database at a later one was made by a newer Depot. */
export const MIGRATION_NAMES: readonly string[] = Object.keys(migrations);

/** The last migration a database has run (null: none, an empty database). */
export async function migrationLevel(db: Db): Promise<string | null> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  if (!tables.some((t) => t.name === 'kysely_migration')) return null;
  const { rows } = await sql<{ name: string }>`select max(name) as name from kysely_migration`.execute(db);
  return rows[0]?.name ?? null;
}

const migrator = (db: Db) => new Migrator({ db, provider: { getMigrations: async () => migrations } });

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
