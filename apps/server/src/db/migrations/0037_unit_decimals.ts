import type { Kysely } from 'kysely';

/**
 * Weighed goods (issue 28): a unit's `decimals` (kg 3, m 2, pieces 0). Quantities of its products
 * stay whole numbers of its smallest step (grams) in every table; this column says how to read them.
 * The scale barcode layouts are a `settings` row (`scale_layouts`), written by the settings route.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('units')
    .addColumn('decimals', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('units').dropColumn('decimals').execute();
}
