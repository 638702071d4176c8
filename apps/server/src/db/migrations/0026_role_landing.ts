import type { Kysely } from 'kysely';

/** The screen a role's members start on (contracts screens.ts LANDINGS); null: the default rule. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('roles').addColumn('landing', 'varchar(20)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('roles').dropColumn('landing').execute();
}
