import type { Kysely } from 'kysely';

/**
 * The till's local catalogue reads combos, discounts and customers changed since a cursor too, in
 * (updated_at, id) order (their kit's `changes: true`): an index in that order on each, as 0027 on
 * products. Every write of them sets updated_at (the kit's create, update, delete and restore; a
 * combo's writes lock it by setting updated_at).
 */
const TABLES = ['combos', 'discounts', 'customers'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES)
    await db.schema.createIndex(`${table}_updated_at_id`).on(table).columns(['updated_at', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) await db.schema.dropIndex(`${table}_updated_at_id`).execute();
}
