import type { Kysely } from 'kysely';
import { withId, withTimestamps } from './helpers.ts';

/**
 * The gazetteer. Codes are the official identifiers: unique across all rows, deleted or not, so
 * the import can upsert by code.
 */
const levels = [
  { table: 'provinces', parent: null },
  { table: 'districts', parent: { column: 'province_id', table: 'provinces' } },
  { table: 'communes', parent: { column: 'district_id', table: 'districts' } },
  { table: 'villages', parent: { column: 'commune_id', table: 'communes' } },
  { table: 'operational_districts', parent: { column: 'province_id', table: 'provinces' } },
  { table: 'health_facilities', parent: { column: 'operational_district_id', table: 'operational_districts' } },
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const level of levels) {
    let table = withId(db, db.schema.createTable(level.table))
      .addColumn('code', 'varchar(20)', (c) => c.notNull().unique())
      .addColumn('name_en', 'varchar(50)')
      .addColumn('name_kh', 'varchar(50)', (c) => c.notNull())
      .addColumn('name_fr', 'varchar(50)');
    if (level.table === 'provinces') {
      table = table.addColumn('type', 'varchar(20)', (c) => c.notNull().defaultTo('province'));
    }
    if (level.parent) {
      const { column, table: parentTable } = level.parent;
      table = table.addColumn(column, 'integer', (c) => c.notNull().references(`${parentTable}.id`));
    }
    await withTimestamps(db, table, { softDelete: true }).execute();
    if (level.parent) {
      await db.schema
        .createIndex(`${level.table}_${level.parent.column}`)
        .on(level.table)
        .column(level.parent.column)
        .execute();
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const level of [...levels].reverse()) await db.schema.dropTable(level.table).execute();
}
