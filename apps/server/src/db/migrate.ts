import { Migrator } from 'kysely/migration';
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
};

/** Migrates to the newest migration, or (`upTo`, for upgrade tests) to the one named. */
export async function migrateToLatest(db: Db, upTo?: keyof typeof migrations): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = upTo ? await migrator.migrateTo(upTo) : await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
