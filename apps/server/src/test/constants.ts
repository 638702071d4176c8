import type { Db } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { seed } from '../db/seed.ts';

/** The seeded administrator's password in every test database. */
export const ADMIN_PASSWORD = 'admin-pass-123';

/** A test database as a fresh installation has it: migrated and seeded (harness.ts, the PostgreSQL template). */
export async function prepare(db: Db): Promise<void> {
  await migrateToLatest(db);
  await seed(db, { adminPassword: ADMIN_PASSWORD });
}
