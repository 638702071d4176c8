import type { Kysely } from 'kysely';

/**
 * Weighed goods on tax documents (issue 28): a tax document line's `decimals`, the decimals of its
 * unit when it was issued (kg 3), so `quantity` (whole steps, grams) reads as 1.250 kg on the
 * document, the screen and the e-invoice. Documents are snapshots, never updated: the lines issued
 * before this migration were all whole units, and keep 0.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('tax_document_lines')
    .addColumn('decimals', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('tax_document_lines').dropColumn('decimals').execute();
}
