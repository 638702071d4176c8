import { type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely, sql } from 'kysely';
import { isPostgres } from '../database.ts';

/**
 * The only dialect differences the migrations need: how an integer key is generated and what a
 * timestamp column is. Everything else is written once for both databases.
 */
export function columnTypes(db: Kysely<unknown>) {
  const pg = isPostgres(db);
  return {
    timestamp: pg ? ('timestamptz' as const) : ('text' as const),
    date: pg ? ('date' as const) : ('text' as const),
    id: (col: ColumnDefinitionBuilder) =>
      pg ? col.generatedByDefaultAsIdentity().primaryKey() : col.autoIncrement().primaryKey(),
    /** Text ordered byte by byte (SQLite's default BINARY; "C" on PostgreSQL), for prefix ranges. */
    bytewiseText: (col: ColumnDefinitionBuilder) => (pg ? col.modifyEnd(sql`collate "C"`) : col),
  };
}

/** id, the table's own columns, created_at/updated_at and (optionally) deleted_at. */
export function withId<T extends string>(
  db: Kysely<unknown>,
  table: CreateTableBuilder<T, never>,
): CreateTableBuilder<T, 'id'> {
  return table.addColumn('id', 'integer', columnTypes(db).id);
}

export function withTimestamps<T extends string, C extends string>(
  db: Kysely<unknown>,
  table: CreateTableBuilder<T, C>,
  { softDelete }: { softDelete: boolean },
) {
  const { timestamp } = columnTypes(db);
  let t = table
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addColumn('updated_at', timestamp, (c) => c.notNull());
  if (softDelete) t = t.addColumn('deleted_at', timestamp);
  return t;
}

export const lower = (column: string) => sql`lower(${sql.ref(column)})`;
