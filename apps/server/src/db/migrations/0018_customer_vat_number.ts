import type { Kysely } from 'kysely';

/**
 * A customer's VAT number (លេខអត្តសញ្ញាណកម្ម អតប): the tax invoice prints the buyer's beside the
 * seller's, as the tax department's layout asks. Empty for the walk-in customer and most shoppers.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('customers').addColumn('vat_number', 'varchar(30)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('customers').dropColumn('vat_number').execute();
}
